"""bench/live.py's figures: percentiles, the engine's own time, and each
part of a row's report."""

from __future__ import annotations

import math
import os
import time

from bench._live_clients import Reply, Run

WARM_UP = 60.0  # seconds of a soak before its memory baseline
MEMORY_EVERY = 10.0  # seconds


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def clear_engine_caches() -> None:
    from games.engine import plays, turn

    for module in (plays, turn):
        for name in dir(module):
            cache_clear = getattr(getattr(module, name), "cache_clear", None)
            if callable(cache_clear):
                cache_clear()


def engine_ms(tier: str, game_id: int, dice: list[int]) -> float:
    """Raw engine + policy time for DARK's reply (same position, same dice)."""
    from ai_worker.policy import choose_play
    from games.engine import Dice, Position, Turn

    light = Turn(Position.start(), Dice(5, 2)).step(13, 8).step(13, 11).play().result
    clear_engine_caches()  # as cold as the server's first look at this roll
    start = time.perf_counter()
    choose_play(light.swapped(), Dice(*dice), tier, f"game:{game_id}")
    return (time.perf_counter() - start) * 1000


def report_tail(run: Run, window: float = 10.0) -> None:
    """Where the slow round trips were: each game's first command apart from
    the rest, and p99 by ``window`` seconds of the run (step / echo)."""
    first = [ms for _, ms, done in run.game_at if done == 0]
    rest = [ms for _, ms, done in run.game_at if done > 0]
    if first and rest:
        print(
            f"  each game's first command p99 {pct(first, 0.99):.1f} ms ({len(first)}),"
            f" the others' p99 {pct(rest, 0.99):.1f} ms ({len(rest)})"
        )
    rows, rates = [], []
    for k in range(int(max(at for at, _, _ in run.game_at) // window) + 1):
        steps = [ms for at, ms, _ in run.game_at if k * window <= at < (k + 1) * window]
        echoes = [ms for at, ms in run.echo_at if k * window <= at < (k + 1) * window]
        rates.append(f"{len(steps) / window:.0f}")
        if len(steps) >= 100 and echoes:
            rows.append(f"{pct(steps, 0.99):.0f}/{pct(echoes, 0.99):.0f}")
    print(f"  p99 step/echo ms by {window:.0f} s of the run: {' '.join(rows)}")
    # The whole run's rate above counts the last games' straggling commands
    # too (each game's 20 pauses add up differently); these are the load's.
    print(f"  game commands a second by {window:.0f} s of the run: {' '.join(rates)}")


def per_socket(run: Run) -> str:
    """The servers' CPU for the sockets' connecting, a socket (clients' own apart)."""
    spent = {k: 1000 * v / run.parties for k, v in run.connect_cpu.items()}
    total = sum(v for k, v in spent.items() if not k.startswith("("))
    return f"{total:.1f} ms a socket ({', '.join(f'{k} {v:.1f}' for k, v in spent.items())})"


def report_watchers(run: Run) -> None:
    games = {g for g, _ in run.watched}
    due = [key for key in run.answered if key[0] in games]
    lags = [1000 * (run.watched[k] - run.answered[k]) for k in due if k in run.watched]
    print(
        f"  second tabs on the other daphne ({len(games)} games): {len(lags)} of {len(due)}"
        f" new states seen; seen after the commanding tab got it: p50 {pct(lags, 0.5):.1f} ms,"
        f" p99 {pct(lags, 0.99):.1f} ms"
    )


def report_restart(run: Run, games: list[tuple[int, str]], rounds: int) -> None:
    from games.models import Game

    assert run.restart_at and run.stopped_at and run.listening_at
    last = max(run.resynced) if run.resynced else float("nan")
    versions = dict(Game.objects.filter(pk__in=[g for g, _ in games]).values_list("pk", "version"))
    wrong = [g for g, _ in games if versions.get(g) != 1 + rounds]
    print(
        f"  restart: {len(run.resynced)} sockets resynced (p50"
        f" {pct(run.resynced, 0.5) - run.listening_at:.1f} s after listening again); the last"
        f" {last - run.restart_at:.1f} s after the daphnes were stopped,"
        f" {last - run.listening_at:.1f} s after they listened again"
        f" (SIGTERM to all stopped {run.stopped_at - run.restart_at:.1f} s,"
        f" start to listening {run.listening_at - run.stopped_at:.1f} s)"
    )
    report_storm(run)
    print(
        f"  every game at version 1 + {rounds} (each command applied once):"
        f" {'yes' if not wrong else f'NO, {len(wrong)} games differ'}"
    )


def storm_ms(run: Run) -> float:
    """The new daphnes' CPU a game socket back, from listening to the last one back."""
    if len(run.storm) < 2 or not run.resynced:
        return float("nan")
    return 1000 * (run.storm[-1][1] - run.storm[0][1]) / len(run.resynced)


def report_storm(run: Run) -> None:
    if len(run.storm) < 2:
        return
    (t0, d0, m0), (t1, d1, m1) = run.storm[0], run.storm[-1]
    wall = t1 - t0
    print(
        f"  from listening to the last socket back ({wall:.1f} s): the new daphnes' CPU"
        f" {d1 - d0:.1f} s ({storm_ms(run):.1f} ms a socket back, games played meanwhile"
        f" included), {(d1 - d0) / wall:.2f} cores; the machine busy"
        f" {(m1 - m0) / wall:.2f} cores of {os.cpu_count()} (every process on it)"
    )


def report_replies(replies: list[Reply], run: Run) -> None:
    """Each tier's reply, and its overhead by two measures: the reply less the
    engine time the worker recorded for that very turn (``engine_ms`` in the
    game's ``computer_attempts``), and, as before, less an engine time
    measured here after the load, cold, in this process. With the steps' p50
    in the two seconds around the tier's replies: how loaded their moments were."""
    from games.models import Game

    recorded = dict(
        Game.objects.filter(pk__in=[r.game_id for r in replies]).values_list(
            "pk", "computer_attempts"
        )
    )
    print(
        "  computer reply during the load (End turn -> its play); overhead = reply - the"
        " worker's engine time for that turn [before: - the engine time measured here]:"
    )
    for tier in dict.fromkeys(r.tier for r in replies):
        mine = [r for r in replies if r.tier == tier]
        engine_ms(tier, 0, [6, 5])  # loads bgsage here
        here = [engine_ms(tier, r.game_id, r.dice) for r in mine]
        worker = [float(recorded[r.game_id].get("engine_ms", math.nan)) for r in mine]
        over = [r.ms - e for r, e in zip(mine, worker, strict=True)]
        before = [r.ms - e for r, e in zip(mine, here, strict=True)]
        around = [ms for at, ms, _ in run.game_at if any(abs(at - r.at) <= 1.0 for r in mine)]
        print(
            f"    {tier:>13} reply p50 {pct([r.ms for r in mine], 0.5):6.1f} ms"
            f"  engine p50 {pct(worker, 0.5):5.1f} [{pct(here, 0.5):5.1f}] ms"
            f"  overhead p50 {pct(over, 0.5):6.1f} [{pct(before, 0.5):6.1f}] ms ({len(mine)})"
            f"  {'ok' if pct(over, 0.5) <= 30 else 'MISSED'};"
            f" at {min(r.at for r in mine):.0f}-{max(r.at for r in mine):.0f} s,"
            f" steps then p50 {pct(around, 0.5):.1f} ms"
        )


def report_memory(memory: list[tuple[float, dict[str, float]]]) -> None:
    warm = next((m for t, m in memory if t >= WARM_UP), memory[0][1])
    end = memory[-1][1]
    for name in end:
        series = " ".join(f"{m[name]:.0f}" for t, m in memory if int(t) % 60 < MEMORY_EVERY)
        print(f"  {name} RSS MB each minute: {series}")
    print(f"  memory (RSS) after {WARM_UP:.0f} s -> at the end, {len(memory)} samples:")
    for name, mb in end.items():
        growth = 100 * (mb - warm[name]) / warm[name]
        print(
            f"    {name:>14} {warm[name]:7.1f} MB -> {mb:7.1f} MB  {growth:+5.1f} %"
            f"  {'ok' if growth < 10 else 'MISSED'}"
        )
