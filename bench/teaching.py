"""What a learner reads about a played error: does it say why, and is it true?

    .venv/bin/python bench/teaching.py [--mat bench/data/gnubg_selfplay.mat]
        [--fresh GAMES] [--ply 2] [--limit N]

Reads games GNU Backgammon played against itself (``--fresh N`` plays N new
ones with Debian's ``/usr/games/gnubg -t``, an outside program, both sides
its network with evaluation noise so that there are errors to explain; by
default the games stored in ``bench/data/gnubg_selfplay.mat``, made the same
way), and analyses every decision with a choice as the review does
(``ai_worker.analysis.analyse_turn``, the luck left out, at ``--ply``).
Printed:

- the share of played errors (doubtful or worse) whose first comparison
  reason names a concrete difference on the board (not ``only_equity`` nor
  ``chances``, the fallbacks), with the first codes counted;
- every comparison sentence of every listed play (the alternatives and the
  play made) checked by the brute force of ``bench/_truth.py`` on the two
  boards: how many it contradicts (the target is none), with examples;
- the order of a played error's reasons (issue 31, item 4): how often the
  first reason carries the largest share of the equity gap
  (``ai_worker.attribution``), how much of the gap it carries on average,
  and what the attribution costs a played error (timed again apart);
- the seconds per decision against a yardstick measured in the same run
  (ranking the same decisions at 1-ply), and the load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from statistics import mean, median

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from ai_worker import analysis  # noqa: E402
from ai_worker.attribution import TIE, weighed  # noqa: E402
from ai_worker.candidates import compared  # noqa: E402
from ai_worker.evaluator import rank_plays, warm_up  # noqa: E402
from ai_worker.explain import Reason  # noqa: E402
from ai_worker.features import position_features  # noqa: E402
from ai_worker.grading import ErrorClass  # noqa: E402
from bench._truth import VAGUE, contradictions  # noqa: E402
from games.engine import Dice, Play, Position, Side, legal_plays  # noqa: E402
from games.engine.matfile import ActionKind, parse_mat  # noqa: E402
from games.engine.matreplay import replay_match  # noqa: E402

GNUBG = Path("/usr/games/gnubg")
STORED = Path(__file__).resolve().parent / "data" / "gnubg_selfplay.mat"
NOISE = 0.08  # gnubg's evaluation noise for both sides: errors worth explaining


def gnubg_games(games: int, seed: int = 11) -> str:
    """``games`` money games of gnubg against itself (no cube), as a .mat text."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "selfplay.mat"
        script = [
            "set automatic game off",
            "set cube use off",
            "set player 0 gnubg",
            "set player 1 gnubg",
            *(f"set player {p} chequerplay evaluation noise {NOISE}" for p in (0, 1)),
            *(f"set player {p} chequerplay evaluation deterministic off" for p in (0, 1)),
            f"set seed {seed}",
            *(["new game"] * games),
            f"export match mat {out}",
        ]
        subprocess.run(
            [str(GNUBG), "-t", "-q"],
            input="\n".join(script) + "\n",
            text=True,
            capture_output=True,
            timeout=120 * games,
            check=True,
        )
        return out.read_text()


def decisions(text: str) -> list[tuple[Position, Dice, Play]]:
    """(position, dice, played) for every play with a choice, mover's side."""
    found = []
    for game in replay_match(parse_mat(text)).games:
        for turn in game.turns:
            if turn.action.kind is not ActionKind.ROLL or turn.play is None:
                continue
            dice = turn.action.dice
            assert dice is not None
            board = turn.board if turn.action.side is Side.LIGHT else turn.board.swapped()
            if len(legal_plays(board, dice)) > 1:
                found.append((board, dice, turn.play))
    return found


def _stored(weighed: Sequence[Reason], reason: Reason) -> Reason:
    """``reason`` as ``weighed`` holds it (with its share)."""
    return next(
        r
        for r in weighed
        if r.code == reason.code
        and {k: v for k, v in r.params.items() if k != "share"} == reason.params
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mat", type=Path, default=STORED)
    parser.add_argument("--fresh", type=int, default=0, help="play N new gnubg games instead")
    parser.add_argument("--ply", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args(argv)

    text = gnubg_games(args.fresh) if args.fresh else args.mat.read_text()
    found = decisions(text)
    if args.limit:
        found = found[: args.limit]
    warm_up(args.ply)

    start = time.perf_counter()
    for position, dice, _played in found:
        rank_plays(position, dice, 1)
    yardstick = time.perf_counter() - start

    errors = concrete = sentences = wrong = 0
    largest = near = unweighed = teacher_largest = 0
    carried: list[float] = []
    teacher_carried: list[float] = []
    weigh_seconds = 0.0
    first: Counter[str] = Counter()
    examples: list[str] = []
    start = time.perf_counter()
    for position, dice, played in found:
        report = analysis.analyse_turn(position, dice, played, ply=args.ply)
        best_c, before = report.alternatives[0], position_features(position)
        plays = {p.result.position_id(): p for p in legal_plays(position, dice)}
        best = plays[report.alternatives[0].result_id]
        listed = [*report.alternatives[1:]]
        if report.played_candidate is not None and report.played_rank != 0:
            listed.append(report.played_candidate)
        for c in listed:
            reasons = [r.to_json() for r in c.versus]
            sentences += len(reasons)
            refuted = contradictions(position, best, plays[c.result_id], reasons)
            wrong += len(refuted)
            if refuted and len(examples) < 8:
                examples.append(f"{position.position_id()} {dice} {c.notation}: {refuted}")
        if report.error is not ErrorClass.NONE and report.played_candidate is not None:
            errors += 1
            versus = report.played_candidate.versus
            code = versus[0].code if versus else ""
            first[code] += 1
            concrete += code not in VAGUE and code != ""
            known = [float(r.params["share"]) for r in versus if "share" in r.params]
            if not known:
                unweighed += 1
                continue
            lead = float(versus[0].params.get("share", 0.0))
            largest += lead == max(known)
            # The yardstick: the teacher's fixed order (``ai_worker.versus``).
            fixed = compared(replace(report.played_candidate, versus=()), best_c, before)
            teacher = float(_stored(versus, fixed.versus[0]).params.get("share", 0.0))
            teacher_largest += teacher == max(known)
            teacher_carried.append(min(1.0, teacher))
            near += lead >= max(known) - TIE
            carried.append(min(1.0, lead))
            # The attribution alone, timed again on the same decision.
            tick = time.perf_counter()
            weighed(position, dice, report.played_candidate, best_c)
            weigh_seconds += time.perf_counter() - tick
    seconds = time.perf_counter() - start - weigh_seconds

    load = os.getloadavg()
    print(f"decisions {len(found)} (gnubg self-play), analysed at {args.ply}-ply")
    print(
        f"played errors {errors}: first reason names a concrete difference in "
        f"{concrete}/{errors} = {concrete / max(1, errors):.1%} (target >= 95%)"
    )
    print("  first reasons: " + ", ".join(f"{k or '-'} {n}" for k, n in first.most_common()))
    print(
        f"comparison sentences {sentences}: contradicted by the brute force {wrong} "
        f"= {wrong / max(1, sentences):.1%} (target 0)"
    )
    for line in examples:
        print("  " + line)
    weighed_errors = errors - unweighed
    print(
        f"played errors with shares of the gap {weighed_errors}/{errors} (the rest: no"
        f" reason with a share, the teacher's order): the first reason"
        f" carries the largest share in {largest}/{weighed_errors}"
        f" = {largest / max(1, weighed_errors):.1%} (the teacher's fixed order:"
        f" {teacher_largest / max(1, weighed_errors):.1%}), within {TIE:.2f} of it in {near}"
        f"/{weighed_errors}; it carries {mean(carried) if carried else 0:.0%} of the gap on"
        f" average (median {median(carried) if carried else 0:.0%}; the teacher's first"
        f" {mean(teacher_carried) if carried else 0:.0%},"
        f" median {median(teacher_carried) if carried else 0:.0%})"
    )
    print(
        f"  the attribution: {weigh_seconds / max(1, weighed_errors) * 1000:.1f} ms a played"
        f" error, {weigh_seconds / max(seconds, 1e-9):.1%} of the analysis time"
    )
    per, base = seconds / max(1, len(found)), yardstick / max(1, len(found))
    ratio = seconds / max(yardstick, 1e-9)
    print(
        f"seconds per decision {per:.3f}, against 1-ply ranking {base:.4f} (ratio {ratio:.1f});"
        f" load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
