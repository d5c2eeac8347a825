"""教练模式 under load: the time from End turn to the commit or the warning,
tutor on against tutor off in the same run, and the worker's CPU per turn.

    .venv/bin/python bench/tutor.py [--games 200] [--think 2,8] [--port 8204]

Zero set-up (no DATABASE_URL / REDIS_URL: SQLite, the in-memory channel
layer, the ranking on daphne's in-process pool) or the production shape
(DATABASE_URL and REDIS_URL: PostgreSQL, Redis, a Celery worker taking the
``moves`` and ``hints`` queues as site/Procfile's workers do). The site as
bench/live.py starts it (DEBUG off, one daphne).

Two rows in one run, each with ``--games`` games at once, each game its own
decision: a position and roll from a 1-ply game played with the Beginner's
noise, LIGHT on roll, its play already made on the board (the 1-ply best
play; with ``--errors`` every other game the worst, which the tutor warns
of and which then commits nothing), as a person who has moved
their checkers and is about to press End turn. Each client opens the game's
socket (the opening hands the decision to the tutor: its ranking starts
then, as it does the moment a roll is the person's), "thinks" a random
``--think`` seconds, sends End turn, and times until the ack (with the
warning, or not) and the state that follows. Row 1: every player's tutor
off (the yardstick). Row 2: every player's tutor on (warn on bad and
worse), the other decisions of the same kind. Printed per row: p50 / p95 /
max, the warnings, the turns that went unchecked (ranking not ready after
1 s), the servers' CPU per turn by process group and its difference (the
tutor's cost), and the load. Target: p95 <= 100 ms with the tutor on.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import _procs  # noqa: E402
from bench._live_report import pct  # noqa: E402
from bench._live_site import make_players, site_env  # noqa: E402
from bench._wsclient import Socket  # noqa: E402

SIGMA = 0.17  # the Beginner tier's noise (games.tiers)


@dataclass
class Row:
    ms: list[float] = field(default_factory=list)
    warned: int = 0
    unchecked: int = 0
    errors: list[str] = field(default_factory=list)


def decisions(count: int, seed: int, errors: bool) -> list[tuple[str, list[int], list[list[int]]]]:
    """(position id, dice, stored steps) for LIGHT, every decision its own:
    the 1-ply best play made, or with ``errors`` every other game the worst."""
    from ai_worker import evaluator
    from games.engine import Dice, Position, legal_plays
    from games.steps import stored_steps

    rng = random.Random(seed)
    found: list[tuple[str, list[int], list[list[int]]]] = []
    seen: set[tuple[str, int, int]] = set()
    while len(found) < count:
        position = Position.start()
        for _turn in range(120):
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            if not plays:
                position = position.swapped()
                continue
            ranked = evaluator.rank_plays(position, dice, 1)
            key = (position.position_id(), max(dice.d1, dice.d2), min(dice.d1, dice.d2))
            if len(plays) > 1 and key not in seen and len(found) < count:
                seen.add(key)
                made = ranked[0] if len(found) % 2 or not errors else ranked[-1]
                steps = [list(s) for s in stored_steps(made.play.steps)]
                found.append((position.position_id(), [dice.d1, dice.d2], steps))
            play = max(ranked, key=lambda r: r.equity + rng.gauss(0.0, SIGMA)).play
            if sum(play.result.me) == 0:
                break
            position = play.result.swapped()
    return found


def make_games(owners: list[Any], made: list[tuple[str, list[int], list[list[int]]]]) -> list[int]:
    from games.models import Game, Status

    games = [
        Game(
            owner=owner,
            tier="casual",
            status=Status.PLAYING,
            turn="light",
            position_id=position_id,
            dice=dice,
            steps=steps,
            # A turn before: the opening was some time ago.
            last_turn={"number": 2, "side": "dark", "dice": [1, 2], "notation": "", "steps": []},
        )
        for owner, (position_id, dice, steps) in zip(owners, made, strict=True)
    ]
    return [g.pk for g in Game.objects.bulk_create(games)]


async def client(
    row: Row, port: int, game_id: int, cookie: str, think: tuple[float, float], go: asyncio.Event
) -> None:
    sock = await Socket.open(port, f"/ws/games/{game_id}/", cookie)
    version = (await sock.recv_json())["version"]
    await go.wait()
    await asyncio.sleep(random.uniform(*think))
    start = time.perf_counter()
    sock.send({"type": "end_turn", "id": "e1", "version": version})
    acked = None
    try:
        while True:
            msg = await asyncio.wait_for(sock.recv_json(), 30)
            if msg["type"] == "ack":
                acked = msg
            elif msg["type"] == "state" and msg["version"] > version and acked is not None:
                break
            elif msg["type"] in ("error", "refused"):
                row.errors.append(f"game {game_id}: {msg}")
                break
    except TimeoutError:
        row.errors.append(f"game {game_id}: no answer in 30 s")
    row.ms.append((time.perf_counter() - start) * 1000)
    tutor = (acked or {}).get("tutor") or {}
    row.warned += "warning" in tutor
    row.unchecked += bool(tutor.get("unchecked"))
    await sock.close()


async def one_row(port: int, games: list[tuple[int, str]], think: tuple[float, float]) -> Row:
    row = Row()
    go = asyncio.Event()
    tasks = [asyncio.create_task(client(row, port, g, c, think, go)) for g, c in games]
    await asyncio.sleep(0.5)
    go.set()
    await asyncio.gather(*tasks)
    return row


def run_row(
    label: str,
    level: str,
    players: list[tuple[Any, str]],
    made: list[tuple[str, list[int], list[list[int]]]],
    port: int,
    think: tuple[float, float],
    meter: _procs.CpuMeter,
) -> dict[str, float]:
    from accounts.models import Preferences

    users = [u for u, _ in players]
    Preferences.objects.filter(user__in=users).update(tutor=level)
    games = list(zip(make_games(users, made), [c for _, c in players], strict=True))
    load = os.getloadavg()[0]
    gc.collect()
    meter.begin()
    row = asyncio.run(one_row(port, games, think))
    spent = meter.spent()
    n = len(row.ms)
    print(
        f"\n{label}: {n} games at once, End turn after {think[0]:.0f}..{think[1]:.0f} s;"
        f" load {load:.2f} before, {os.getloadavg()[0]:.2f} after (1-min)"
    )
    print(
        f"  End turn -> commit or warning: p50 {pct(row.ms, 0.5):.1f} ms"
        f"  p95 {pct(row.ms, 0.95):.1f} ms  max {max(row.ms):.1f} ms"
    )
    print(
        f"  warned {row.warned}, unchecked (ranking not ready in 1 s) {row.unchecked},"
        f" errors {len(row.errors)}"
    )
    for line in row.errors[:3]:
        print(f"    {line}")
    parts = ", ".join(f"{k} {1000 * v / n:.1f}" for k, v in spent.items())
    print(f"  servers' CPU per turn (ms): {parts}")
    return {**{k: v / n for k, v in spent.items()}, "p95": pct(row.ms, 0.95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", default="2,8", help="seconds before End turn: low,high")
    parser.add_argument("--port", type=int, default=8204)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--errors",
        action="store_true",
        help="every other play the worst (warned: no computer turn follows, so the CPU"
        " per turn of the two rows is no longer like for like)",
    )
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split(","))

    var_dir = Path(tempfile.mkdtemp(prefix="shuanglu-bench-tutor-"))
    env = site_env(var_dir)
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.core.cache import cache

    db = django.conf.settings.DATABASES["default"]
    shape = "production shape" if env.get("REDIS_URL") else "zero set-up"
    print(f"{shape}: database {db['ENGINE'].rsplit('.', 1)[-1]}, load {os.getloadavg()}")
    players = make_players(2 * args.games)
    made = decisions(2 * args.games, args.seed, args.errors)
    if env.get("REDIS_URL"):
        cache.clear()  # the bench's own Redis database: no ranking left from a run before
    daphnes = _procs.start_daphnes(env, [args.port], var_dir)
    worker = None
    if env.get("REDIS_URL"):
        worker = _procs.start_worker(env, var_dir / "celery.log", queues="moves,hints")

    def groups() -> dict[str, list[int]]:
        found = {"daphne": [p.pid for p in daphnes]}
        if worker is not None:
            found["worker"] = [worker.pid]
        return found

    meter = _procs.CpuMeter(groups)
    try:
        off = run_row(
            "tutor off (yardstick)",
            "off",
            players[: args.games],
            made[: args.games],
            args.port,
            (low, high),
            meter,
        )
        on = run_row(
            "tutor on (bad and worse)",
            "bad",
            players[args.games :],
            made[args.games :],
            args.port,
            (low, high),
            meter,
        )
    finally:
        _procs.stop([*daphnes, *([worker] if worker else [])])
    extra = {k: 1000 * (on.get(k, 0.0) - off.get(k, 0.0)) for k in groups() if k in on}
    print(
        f"\np95 tutor on {on['p95']:.1f} ms against off {off['p95']:.1f} ms"
        f" (ratio {on['p95'] / max(off['p95'], 0.001):.2f};"
        f" {'ok' if on['p95'] <= 100 else 'MISSED'}: p95 <= 100 ms)"
    )
    print(
        "the tutor's extra CPU per turn (ms): "
        + ", ".join(f"{k} {v:.1f}" for k, v in extra.items())
    )


if __name__ == "__main__":
    main()
