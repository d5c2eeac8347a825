"""The bot protocol: ``python -m ai_worker.bot --tier TIER``.

Reads lines on stdin and writes one JSON object per line:

- ``POSITION_ID D1 D2`` (a money game, cube in the centre) →
  ``{"play": NOTATION, "result": RESULT_POSITION_ID, "ms": …}`` with the
  engine's conventions (the result seen from the same side, as if it were
  still on roll). With no legal play, ``"play"`` is null and ``"result"`` is
  the input position.
- an XGID, which carries the cube, the score, the match length and Crawford:
  with dice, a play as above chosen on cubeful equities at that cube and
  score; with dice ``00``, the cube decision of the side on turn,
  ``{"action": "no_double" | "double" | "too_good", "ms": …}`` (with
  ``"refusal": CODE`` when the rules allow no double, e.g.
  ``crawford_game``); with ``D`` (the side on turn has doubled), the other
  side's answer, ``{"action": "take" | "pass", "ms": …}``.

A line that cannot be read gets ``{"error": …, "line": …}`` and the bot
carries on. The network is loaded once, before the first line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from typing import Any, TextIO

from ai_worker import cube
from ai_worker.cube import CubeContext, choose_cubeful_play, double_decision, take_decision
from ai_worker.evaluator import warm_up
from ai_worker.policy import choose_play
from games.engine import Dice, Play, Position, Xgid
from games.tiers import Tier, tier_spec


def answer(line: str, tier: Tier, seed_key: str) -> dict[str, Any]:
    """The JSON answer for one request line."""
    started = time.perf_counter()
    try:
        if ":" in line:
            reply = xgid_answer(Xgid.parse(line), tier, seed_key)
        else:
            position, dice = parse_request(line)
            reply = _play_reply(position, choose_play(position, dice, tier, seed_key))
    except ValueError as exc:
        return {"error": str(exc), "line": line}
    reply["ms"] = round((time.perf_counter() - started) * 1000, 3)
    return reply


def xgid_answer(xgid: Xgid, tier: Tier, seed_key: str) -> dict[str, Any]:
    """A play (dice rolled), a cube decision (``00``) or a take/pass (``D``)."""
    context = CubeContext(xgid.cube, xgid.match, xgid.turn)
    if xgid.dice is not None:
        play = choose_cubeful_play(xgid.position, xgid.dice, context, tier, seed_key)
        return _play_reply(xgid.position, play)
    decide = take_decision if xgid.doubled else double_decision
    decision = decide(xgid.position, context, tier, seed_key)
    reply: dict[str, Any] = {"action": decision.action.value}
    if decision.refusal is not None:
        reply["refusal"] = decision.refusal.value
    return reply


def _play_reply(position: Position, play: Play | None) -> dict[str, Any]:
    result = play.result.position_id() if play is not None else position.position_id()
    return {"play": play.notation() if play is not None else None, "result": result}


def parse_request(line: str) -> tuple[Position, Dice]:
    """``POSITION_ID D1 D2`` → (position, dice); ValueError when malformed."""
    parts = line.split()
    if len(parts) != 3:
        raise ValueError("expected: POSITION_ID D1 D2")
    position_id, d1, d2 = parts
    try:
        dice = Dice(int(d1), int(d2))
    except ValueError as exc:
        raise ValueError(f"bad dice {d1} {d2}: {exc}") from exc
    try:
        position = Position.from_position_id(position_id)
    except ValueError as exc:
        raise ValueError(f"bad position id {position_id!r}: {exc}") from exc
    return position, dice


def serve(lines: Iterable[str], out: TextIO, tier: Tier, seed_key: str) -> None:
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        out.write(json.dumps(answer(line, tier, seed_key), ensure_ascii=False) + "\n")
        out.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai_worker.bot", description=__doc__)
    parser.add_argument("--tier", required=True, choices=[t.value for t in Tier])
    parser.add_argument(
        "--seed",
        default="bot",
        help="noise seed key: the same seed, position and dice give the same play",
    )
    args = parser.parse_args(argv)
    tier = Tier(args.tier)
    warm_up(tier_spec(tier).ply)
    cube.warm_up(tier_spec(tier).ply, tier_spec(tier).cube_ply)
    serve(sys.stdin, sys.stdout, tier, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
