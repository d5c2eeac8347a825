"""A player's hint and the computer's move while others flood the study queue.

    DATABASE_URL=postgres://.../scratch REDIS_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python bench/fairness.py [--samples 20] [--flooders 30] [--board 40]

Production shape on one machine, with the workers of site/Procfile (as
``./dev prod`` starts them): ``moves`` taking ``moves,hints`` (2 children),
``hints`` (1 child) and ``analysis`` at nice 10 (1 child), on PostgreSQL and
Redis. The database is migrated and its games are the bench's: give it a
scratch database, and a Redis db of its own (its queues are emptied).

First, quiet: ``--samples`` hints (a person's roll, each from a fresh game)
and as many computer moves (the Expert's, a fresh game each with the
computer on roll), one after another, each timed from the request to the
stored result. Then the flood: ``--flooders`` users each import every match
file of tests/data (the import flood: games counted per game against the
budget, fed one per owner), and ``--board`` analysis-board jobs on distinct
positions (the storm); the same samples are taken while it is queued.
Printed: p50 and p95 of each, quiet and flooded, their ratio (the yardstick
is the quiet figure of the same run), the flood's size and how much of it
was left when the samples were done, and the load average.
Targets (issue 30): under the flood, hint p95 ≤ 2 s and move p95 ≤ 1 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

from accounts.models import User  # noqa: E402
from bench import _procs  # noqa: E402
from games import services  # noqa: E402
from games.engine import Dice, Position, Side, legal_plays  # noqa: E402
from games.models import Game  # noqa: E402
from learning import tasks  # noqa: E402
from learning.models import (  # noqa: E402
    AnalysisState,
    BoardAnalysis,  # noqa: E402
    GameAnalysis,
    Hint,
)
from learning.study import board as analysis_board  # noqa: E402
from learning.study import queue as study_queue  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
QUEUES = ("moves", "hints", "analysis", "watchdog")
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def start_workers(env: dict[str, str], logs: Path) -> list[subprocess.Popen[bytes]]:
    """The workers of site/Procfile, ready."""
    return [
        _procs.start_worker(env, logs / f"worker-{spec['name']}.log", **spec)
        for spec in _procs.procfile_workers()
    ]


def wait(check: Callable[[], bool], limit: float = 120.0) -> float:
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > limit:
            raise RuntimeError("a sample took over two minutes")
        time.sleep(0.01)
    return time.monotonic() - started


def random_position(rng: random.Random) -> Position:
    """A position some random plays from the start (LIGHT on roll)."""
    position = Position.start()
    for _ in range(rng.randint(4, 16)):
        plays = legal_plays(position, Dice(*rng.choice(ROLLS)))
        if plays:
            position = rng.choice(plays).result
        position = position.swapped()
    return position


def hint_seconds(user: User, rng: random.Random) -> float:
    while True:  # a roll with no play passes the turn: draw another position
        dice = list(rng.choice(ROLLS))
        game = services.start_game_from(user, "expert", random_position(rng), dice=dice)
        asked = time.monotonic()
        try:
            services.request_hint(game.pk, user, game.version)
        except services.NotYourTurnError:
            continue
        done = Hint.objects.filter(game=game, state=AnalysisState.DONE)
        wait(done.exists)
        return time.monotonic() - asked


def move_seconds(user: User, rng: random.Random) -> float:
    position = random_position(rng)
    asked = time.monotonic()
    game = services.start_game_from(user, "expert", position, Side.DARK, list(rng.choice(ROLLS)))
    wait(lambda: Game.objects.filter(pk=game.pk, turn=Side.LIGHT.value).exists())
    return time.monotonic() - asked


def sample(user: User, count: int, seed: int) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    hints, moves = [], []
    for _ in range(count):
        hints.append(hint_seconds(user, rng))
        moves.append(move_seconds(user, rng))
    return hints, moves


def flood(flooders: int, board: int) -> int:
    """Every data file imported by each flooder, and ``board`` board jobs: the games queued."""
    files = sorted(DATA.glob("*.mat"))
    games = 0
    for n in range(flooders):
        user = User.objects.create_user(f"flooder{n}-{time.time_ns()}", password=None)
        address = f"192.0.2.{n % 250 + 1}"
        for path in files:
            text = path.read_text(encoding="utf-8")
            try:
                imported = services.import_match_file(
                    user, text, address=address, admit=study_queue.admit_import(user.pk, address)
                )
            except (study_queue.StudyQueueFullError, services.AlreadyImportedError):
                continue
            games += len(imported.games)
    rng = random.Random(99)
    for _ in range(board):
        dice = Dice(*rng.choice(ROLLS))
        analysis_board.request_analysis(random_position(rng), dice, tasks.enqueue_board_analysis)
    return games


def waiting() -> tuple[int, int, int, int]:
    """Reviews queued, reviews held (imported, not fed yet), board jobs waiting, turns reviewed."""
    reviews = GameAnalysis.objects.filter(state__in=study_queue.WAITING)
    held = reviews.filter(game__imported_from__isnull=False, queued_at__isnull=True).count()
    board = BoardAnalysis.objects.filter(state__in=study_queue.WAITING).count()
    turns = sum(GameAnalysis.objects.values_list("turns_done", flat=True))
    return reviews.count() - held, held, board, turns


def quantiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--flooders", type=int, default=30)
    parser.add_argument("--board", type=int, default=40)
    args = parser.parse_args()
    if not settings.REDIS_URL or "postgres" not in os.environ.get("DATABASE_URL", ""):
        sys.exit("fairness: needs DATABASE_URL (a scratch PostgreSQL database) and REDIS_URL")
    call_command("migrate", verbosity=0)
    call_command(
        "flush", interactive=False, verbosity=0
    )  # a scratch database: the bench's rows only
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(*QUEUES, "unacked", "unacked_index")
    logs = Path(os.environ.get("BENCH_LOGS", "/tmp"))
    workers = start_workers({**os.environ}, logs)
    try:
        user = User.objects.create_user(f"player-{time.time_ns()}", password=None)
        load_before = os.getloadavg()[0]
        quiet = sample(user, args.samples, seed=1)
        games = flood(args.flooders, args.board)
        queued = waiting()
        flooded = sample(user, args.samples, seed=2)
        left = waiting()
        load_after = os.getloadavg()[0]
    finally:
        _procs.stop(workers)
    print(f"load {load_before:.2f} -> {load_after:.2f}; {args.samples} samples each")
    print(f"flood: {games} imported games by {args.flooders} users + {args.board} board jobs")
    for when, (fed, held, board, _turns) in (("began", queued), ("ended", left)):
        print(f"  when sampling {when}: {fed} reviews queued, {held} held, {board} board jobs")
    print(f"  turns reviewed while sampling under the flood: {left[3] - queued[3]}")
    print(f"{'':14}{'quiet p50':>10}{'p95':>8}{'flood p50':>11}{'p95':>8}{'p95 ratio':>11}")
    for name, before, after in (
        ("hint", quiet[0], flooded[0]),
        ("computer move", quiet[1], flooded[1]),
    ):
        q50, q95 = quantiles(before)
        f50, f95 = quantiles(after)
        print(f"{name:14}{q50:9.2f}s{q95:7.2f}s{f50:10.2f}s{f95:7.2f}s{f95 / q95:10.2f}x")


if __name__ == "__main__":
    main()
