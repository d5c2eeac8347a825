"""The analysis as a command: ``python -m learning.review.analyse [--lang en] [--top 5]``.

Reads one decision a line on standard input, either ``POSITION_ID D1 D2
[PLAYED]`` (GNU Backgammon's Position ID, from the side on roll) or an XGID
with its dice, optionally followed by the play made (``XGID=... 24/18 13/9``),
and answers one JSON object a line: the ranked plays (notation, equity, the
chances of both sides, the reasons as codes, parameters and the sentence in
``--lang``, the shot counts) and the depth they were ranked at; with a played
play also its rank, the equity it lost and its class, and the roll's luck.
A Position ID is judged without the cube (cubeless); an XGID at its cube and
score (``ai_worker.context``: cubeful money equity, or normalized money
equivalents in a match), and the answer's ``unit`` says which.

It runs the code the site runs: a decision with a played play goes through
``ai_worker.analysis.review_turn`` at the review's depth (``learning.review.game``),
one without through ``ai_worker.candidates.hint`` at the Expert's (the
hints). A line that cannot be read answers ``{"error": ..., "line": ...}``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m learning.review.analyse", description=__doc__)
    parser.add_argument("--lang", default="zh-hans", help="language of the sentences (en, zh-hans)")
    parser.add_argument("--top", type=int, default=5, help="how many ranked plays to list")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.utils import translation

    translation.activate(args.lang)
    for answer in analyse_lines(sys.stdin, args.top):
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


def analyse_lines(lines: Iterable[str], top: int = 5) -> Iterator[dict[str, Any]]:
    """One answer for each non-blank line (see the module docstring)."""
    from games.engine.errors import IllegalPlayError, InvalidNotationError

    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            yield analyse_line(text, top)
        except (ValueError, IllegalPlayError, InvalidNotationError) as exc:
            yield {"error": str(exc), "line": text}


def analyse_line(text: str, top: int = 5) -> dict[str, Any]:
    from ai_worker import analysis, candidates
    from ai_worker.analysis import review_ply
    from ai_worker.ranking import default_rank
    from games.engine import parse_play
    from games.tiers import Tier, tier_spec
    from learning.words.unit import unit_kind

    position, dice, played_text, context = _read(text)
    answer: dict[str, Any] = {
        "position": position.position_id(),
        "dice": [dice.d1, dice.d2],
        "unit": unit_kind(context),
    }
    if played_text is None:
        ply = tier_spec(Tier.EXPERT).ply
        plays = candidates.hint(position, dice, ply, top, default_rank, context)
        return {**answer, "ply": ply, "plays": [_play(c) for c in plays]}
    played = parse_play(position, dice, played_text)
    report = analysis.review_turn(position, dice, played, ply=review_ply(), context=context)
    answer.update(
        ply=report.ply,
        plays=[_play(c) for c in report.alternatives[:top]],
        played={
            **(_play(report.played_candidate) if report.played_candidate else {}),
            "notation": report.played,
            "rank": report.played_rank,
            "equity_lost": round(report.equity_lost, 4),
            "class": report.error.value,
            "mark": report.error.mark,
            "forced": report.forced,
        },
        luck=None if report.luck is None else round(report.luck, 4),
    )
    return answer


def _read(text: str) -> tuple[Any, Any, str | None, Any]:
    """(position, dice, the play made or None, the cube and score or None)."""
    from ai_worker.context import CubeContext
    from games.engine import Dice, Position, Xgid

    words = text.split()
    if words[0].upper().startswith("XGID="):
        xgid = Xgid.parse(words[0])
        if xgid.dice is None or xgid.doubled:
            raise ValueError("the XGID has no dice rolled")
        rest = words[1:]
        context = CubeContext(xgid.cube, xgid.match, xgid.turn)
        return xgid.position, xgid.dice, " ".join(rest) or None, context
    if len(words) < 3:
        raise ValueError("expected POSITION_ID D1 D2 [PLAYED]")
    position = Position.from_position_id(words[0])
    dice = Dice(int(words[1]), int(words[2]))
    return position, dice, " ".join(words[3:]) or None, None


def _play(c: Any) -> dict[str, Any]:
    from ai_worker.features import position_features
    from games.engine import Position
    from learning.words.reasons import render_reason
    from learning.words.versus import render_versus

    data = c.to_json()
    probs = data["probs"]
    facts = position_features(Position.from_position_id(c.result_id))
    return {
        "notation": c.notation,
        "equity": data["equity"],
        "chances": {
            "win": probs["win"],
            "win_gammon": probs["win_gammon"],
            "win_backgammon": probs["win_backgammon"],
            "lose": round(1.0 - probs["win"], 4),
            "lose_gammon": probs["lose_gammon"],
            "lose_backgammon": probs["lose_backgammon"],
        },
        "reasons": [{**r, "text": render_reason(r)} for r in data["reasons"]],
        "versus": [
            {**r, "text": t}
            for r, t in zip(data["versus"], render_versus(data["versus"]), strict=True)
        ],
        "shots": {
            "blots": list(facts.blots),
            "exposed": list(facts.exposed),
            "shots": facts.shots,
            "back_shots": facts.back_shots,
        },
        "result": c.result_id,
    }


if __name__ == "__main__":
    raise SystemExit(main())
