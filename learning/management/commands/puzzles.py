"""The puzzle bank (练习题, issue 47): make it, build it, load it.

    manage.py puzzles generate [--stages play,rank,cubes,roll,solves] [--seed 1] ...
    manage.py puzzles build    # the work files -> learning/puzzles/data/bank.json.gz
    manage.py puzzles load     # the shipped bank -> the database (a migration does it too)

``generate`` is seeded and resumable (``learning.puzzles.generate``): run it
under ``nice -n 10``; stopped, it goes on where it stopped. Its last stage,
``solves``, has the five tiers solve every confirmed candidate (their rates
give each puzzle its starting rating, ``learning.puzzles.seeding``); ``build``
makes any still missing, one at a time, so runs side by side (``--shard``)
before it save time.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

STAGES = ("play", "rank", "cubes", "roll", "solves")


class Command(BaseCommand):
    help = "Make (generate), build or load the puzzle bank."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["generate", "build", "load"])
        parser.add_argument("--work", type=Path, default=None, help="work files (VAR_DIR/puzzles)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--stages", default=",".join(STAGES))
        parser.add_argument(
            "--tier-games",
            type=Path,
            default=Path(settings.BASE_DIR) / "bench" / "data" / "tier_pr_games.jsonl",
            help="the tiers' reviewed games (JSON lines of bench/_pr.py)",
        )
        parser.add_argument("--play", type=int, default=150, help="games the tiers play for it")
        parser.add_argument("--rank", type=int, default=6000, help="checker candidates to rank")
        parser.add_argument(
            "--early", type=int, default=0, help="rank: only decisions of the first N turns"
        )
        parser.add_argument("--cubes", type=int, default=700, help="cube candidates to judge")
        parser.add_argument("--checker-target", type=int, default=2300)
        parser.add_argument("--cube-target", type=int, default=300)
        parser.add_argument(
            "--follow", action="store_true", help="roll: wait for candidates another run ranks"
        )
        parser.add_argument("--shard", default="0/1", help="roll, solves: this run's share, I/N")
        parser.add_argument("--out", type=Path, default=None, help="the bank file to write or read")

    def handle(self, *args: Any, **options: Any) -> None:
        work = options["work"] or Path(settings.VAR_DIR) / "puzzles"
        index, _slash, count = options["shard"].partition("/")
        self._shard = (int(index), int(count or 1))
        if options["action"] == "generate":
            self._generate(work, options)
        elif options["action"] == "build":
            from learning.puzzles.bank import BANK_FILE, build

            out = options["out"] or BANK_FILE
            counts = build(work, out, options["seed"], self._log)
            self._log(f"wrote {out}: {counts}")
        else:
            from learning.puzzles.bank import BANK_FILE, load

            self._log(f"loaded {load(options['out'] or BANK_FILE)} puzzles")

    def _generate(self, work: Path, options: dict[str, Any]) -> None:
        from ai_worker.analysis import review_ply
        from ai_worker.evaluator import warm_up
        from learning.puzzles import generate

        stages = set(options["stages"].split(","))
        if stages == {"solves"}:  # the work files hold all it needs
            self._solves(work)
            return
        seed, ply = options["seed"], review_ply()
        warm_up(ply)
        extra = generate.played(work, seed, options["play"] if "play" in stages else 0, self._log)
        ordered = generate.decisions(options["tier_games"], extra, seed)
        self._log(f"{len(ordered)} decisions to look at")
        if "rank" in stages:
            early = options["early"]
            chosen = [d for d in ordered if d.turn <= early] if early else ordered
            found = generate.rank(work, chosen, options["rank"], ply, self._log)
            self._log(f"{found} checker candidates")
        if "cubes" in stages:
            found = generate.cubes(work, ordered, seed, options["cubes"], ply, self._log)
            self._log(f"{found} cube candidates")
        if "roll" in stages:
            self._roll(work, seed, options)
        if "solves" in stages:
            self._solves(work)

    def _solves(self, work: Path) -> None:
        from learning.puzzles.bank import solve

        made = solve(work, self._shard, self._log)
        self._log(f"{made} candidates solved by the tiers")

    def _roll(self, work: Path, seed: int, options: dict[str, Any]) -> None:
        """Roll out by rounds, the order drawn again each round from the
        candidates there are then (another run may be ranking more:
        ``--follow`` waits for them)."""
        import time

        from learning.puzzles import generate
        from learning.puzzles.selection import in_shard, roll_order, targets_met
        from learning.puzzles.work import ROLLED
        from learning.puzzles.work import by_key as work_by_key

        enough = targets_met(options["checker_target"], options["cube_target"])
        shard = self._shard
        while True:
            order = [r for r in roll_order(work, seed) if in_shard(r["key"], shard)]
            done = generate.roll(work, seed, order, enough, self._log, budget=100)
            if done:
                continue
            if not options["follow"] or enough(work_by_key(work / ROLLED)):
                return
            time.sleep(120)

    def _log(self, line: str) -> None:
        self.stdout.write(line)
        sys.stdout.flush()
