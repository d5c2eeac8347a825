"""Making the bank's candidates: the work behind ``manage.py puzzles generate``.

Every stage is seeded and resumable: its results are appended to the work
files (``learning.puzzles.work``) as they are made, and a run skips what
they hold. The stages, each cheap before dear:

1. ``play``: games the tiers play against each other for the bank;
2. ``rank``: every decision of the tiers' games, in an order drawn from the
   seed, looked at by bgsage 1-ply and, when it may be a puzzle, ranked at
   the review's depth (``learning.puzzles.screen``);
3. ``cubes``: the positions of those games before the roll, each with a
   cube and score drawn from the seed, the cube decision judged as the
   review judges it;
4. ``roll``: the candidates rolled out (``learning.puzzles.verify``), those
   of the themes the bank has fewest of first.

No Django here (``learning.review.phases`` reads gettext lazily).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ai_worker.cube import CubeContext
from ai_worker.rollout import rollout_cube_batches, rollout_play_batches
from games.engine import Cube, Dice, Match, Position, Side, legal_plays
from learning.puzzles import screen, verify, work
from learning.puzzles.rules import accepted
from learning.puzzles.sources import Decision, play_games, tier_decisions, unique

Log = Callable[[str], None]


def played(workdir: Path, seed: int, count: int, log: Log) -> list[Decision]:
    """The decisions of ``count`` games played for the bank (played once)."""
    path = workdir / work.GAMES
    done = work.by_key(path)
    wanted = [n for n in range(count) if f"game:{seed}:{n}" not in done]
    started = time.perf_counter()
    for n, decisions in play_games(seed, wanted):
        record: dict[str, Any] = {
            "key": f"game:{seed}:{n}",
            "decisions": [d.to_json() for d in decisions],
        }
        work.append(path, record)
        done[record["key"]] = record
        log(f"game {n}: {len(decisions)} decisions ({time.perf_counter() - started:.0f} s)")
    return [
        Decision.from_json(d) for n in range(count) for d in done[f"game:{seed}:{n}"]["decisions"]
    ]


def decisions(tier_games: Path | None, extra: Iterable[Decision], seed: int) -> list[Decision]:
    """One decision per position and roll from both sources, in the seed's order."""
    found = list(tier_decisions(tier_games)) if tier_games else []
    found.extend(extra)
    ordered = sorted(unique(found), key=lambda d: d.key)
    random.Random(seed).shuffle(ordered)
    return ordered


def rank(workdir: Path, ordered: list[Decision], limit: int, ply: int, log: Log) -> int:
    """Rank decisions until ``limit`` puzzles are found; returns how many are."""
    path = workdir / work.RANKED
    done = work.by_key(path)
    found = sum(1 for r in done.values() if r.get("puzzle"))
    started, looked = time.perf_counter(), 0
    for d in ordered:
        if found >= limit:
            break
        if d.key in done:
            continue
        if screen.prescreen(d):
            record = screen.rank(d, ply)
        else:
            record = {"key": d.key, "kind": "checker", "puzzle": False, "screened": True}
        work.append(path, record)
        found += bool(record.get("puzzle"))
        looked += 1
        if looked % 100 == 0:
            log(f"ranked {looked} ({time.perf_counter() - started:.0f} s): {found} puzzles")
    return found


# The cube and score a position is asked at: the money game's, the owned
# cube's redouble, and scores of a 7-point match (light = the doubler).
CONTEXTS: dict[str, CubeContext] = {
    "money": CubeContext(Cube(), Match(jacoby=True), Side.LIGHT),
    "money-owned": CubeContext(Cube(2, Side.LIGHT), Match(jacoby=True), Side.LIGHT),
    **{
        f"match7-{a}-{b}": CubeContext(Cube(), Match(7, a, b), Side.LIGHT)
        for a, b in ((0, 0), (2, 4), (4, 2), (3, 5), (5, 3), (4, 4), (1, 3))
    },
}


def context_for(seed: int, decision: Decision) -> str:
    """Money most often; a match score or a redouble otherwise."""
    rng = random.Random(f"{seed}|{decision.pos}")
    names = list(CONTEXTS)
    return "money" if rng.random() < 0.4 else rng.choice(names[1:])


def cubes(workdir: Path, ordered: list[Decision], seed: int, limit: int, ply: int, log: Log) -> int:
    """Judge cube decisions of the games' positions until ``limit`` are puzzles."""
    path = workdir / work.CUBES
    done = work.by_key(path)
    found = sum(1 for r in done.values() if r.get("puzzle"))
    started, looked = time.perf_counter(), 0
    seen: set[str] = set()
    for d in ordered:
        if found >= limit:
            break
        if d.pos in seen:
            continue
        seen.add(d.pos)
        name = context_for(seed, d)
        screened = f"cubescreen:{d.pos}:{name}"
        if screened in done:
            continue
        position, context = Position.from_position_id(d.pos), CONTEXTS[name]
        for decision in screen.cube_screen(position, context):
            advice = screen.judge_cube(position, context, decision, ply)
            record = {
                "key": f"cube:{d.pos}:{name}:{decision}",
                "kind": "cube",
                "decision": d.to_json(),
                "context": name,
                "question": decision,
                "advice": advice.to_json(),
                "puzzle": screen.cube_question(advice),
            }
            work.append(path, record)
            found += bool(record["puzzle"])
        work.append(path, {"key": screened, "kind": "screen"})
        looked += 1
        if looked % 200 == 0:
            log(f"cube looked {looked} ({time.perf_counter() - started:.0f} s): {found} puzzles")
    return found


def roll_checker(record: dict[str, Any], seed: int, more: dict[str, Any] | None) -> dict[str, Any]:
    """Roll out one checker candidate to its next look (or from the start)."""
    d = Decision.from_json(record["decision"])
    position, dice = Position.from_position_id(d.pos), Dice(*d.dice)
    indices = verify.rolled_plays(record["plays"])
    by_id = {p.result.position_id(): p for p in legal_plays(position, dice)}
    plays = [by_id[record["plays"][i][1]] for i in indices]
    count = accepted([p[2] for p in record["plays"]])
    is_accepted = [i < count for i in indices]
    s = verify.seed_of(seed, record["key"])
    batches = _resume(more, s)
    trials = verify.TRIALS if batches is None else batches.trials
    for look in verify.LOOKS:
        if batches is not None and len(batches.rows) >= look:
            continue
        have = 0 if batches is None else len(batches.rows)
        batches = rollout_play_batches(position, dice, plays, look - have, s, trials, more=batches)
        if verify.settled(verify.play_verdict(batches, is_accepted)):
            break
    assert batches is not None
    return _rolled(record["key"], indices, batches, verify.play_verdict(batches, is_accepted))


def roll_cube(record: dict[str, Any], seed: int, more: dict[str, Any] | None) -> dict[str, Any]:
    d = Decision.from_json(record["decision"])
    position, context = Position.from_position_id(d.pos), CONTEXTS[record["context"]]
    question, right = record["question"], _right_answer(record)
    s = verify.seed_of(seed, record["key"])
    batches = _resume(more, s)
    trials = verify.TRIALS if batches is None else batches.trials
    for look in verify.LOOKS:
        if batches is not None and len(batches.rows) >= look:
            continue
        have = 0 if batches is None else len(batches.rows)
        batches = rollout_cube_batches(position, context, look - have, s, trials, more=batches)
        if verify.settled(verify.cube_verdict(batches, question, right)):
            break
    assert batches is not None
    return _rolled(record["key"], [], batches, verify.cube_verdict(batches, question, right))


def _right_answer(record: dict[str, Any]) -> str:
    best = record["advice"]["best"]
    return "no_double" if best == "too_good" else best


def _resume(more: dict[str, Any] | None, seed: int) -> Any:
    from ai_worker.rollout import Batches

    if not more:
        return None
    return Batches(
        tuple(tuple(r) for r in more["rows"]), int(more["trials"]) // len(more["rows"]), seed
    )


def _rolled(key: str, indices: list[int], batches: Any, verdict: dict[str, Any]) -> dict[str, Any]:
    return {
        "key": key,
        "plays": indices,
        "rows": [[round(v, 5) for v in row] for row in batches.rows],
        "trials": batches.trials * len(batches.rows),
        "seed": batches.seed,
        "verdict": verdict,
    }


def roll(
    workdir: Path,
    seed: int,
    order: list[dict[str, Any]],
    enough: Callable[[dict[str, dict[str, Any]]], bool],
    log: Log,
    budget: int = 0,
) -> int:
    """Roll out ``order``'s candidates (ranked or cube records) until
    ``enough(rolled)`` (or ``budget`` of them, when set); a candidate rolled
    out to its last look is not rolled again. Returns how many were."""
    path = workdir / work.ROLLED
    rolled = work.by_key(path)
    started, count = time.perf_counter(), 0
    for record in order:
        if enough(rolled) or (budget and count >= budget):
            break
        old = rolled.get(record["key"])
        if old is not None and (
            verify.settled(old["verdict"]) or old["verdict"]["batches"] >= verify.LOOKS[-1]
        ):
            continue
        one = time.perf_counter()
        if record["kind"] == "cube":
            new = roll_cube(record, seed, old)
        else:
            new = roll_checker(record, seed, old)
        new["seconds"] = round(time.perf_counter() - one, 2)
        work.append(path, new)
        rolled[new["key"]] = new
        count += 1
        v = new["verdict"]
        log(
            f"rolled {count} ({time.perf_counter() - started:.0f} s) {record['key']}: "
            f"{v['status']} margin {v['margin']:+.4f} se {v['se']:.4f} "
            f"{v['trials']} games, {new['seconds']} s"
        )
    return count
