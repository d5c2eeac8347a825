"""Live play over real WebSockets: step round trips against an echo socket in the
same run, CPU per command, a restart of every daphne, a soak, the computer's reply.

    .venv/bin/python bench/live.py [--games 1,200] [--rounds 20] [--think 1.0]
                                   [--echo 0.1] [--replies 0] [--servers 1]
                                   [--duration S] [--restart] [--proxy nginx]

It migrates a fresh database (a temporary SQLite file, or DATABASE_URL),
creates players, sessions and games with the ORM, and starts ``--servers``
daphne processes (the site's ``config.asgi`` as production runs it: DEBUG
off, the channel layer in memory or, with REDIS_URL, Redis, in which case a
Celery worker for the ``moves`` queue is started too; without REDIS_URL the
computer's turns run on the in-process pool). They serve
``bench/echo_asgi.py``, which adds a bare echo socket at ``/ws/echo/``: the
yardstick. Games are spread over the servers as the proxy would; with
``--proxy nginx`` the clients go through a real nginx built from
``site/nginx.conf.example`` (bench/_proxy.py) instead.

1. Step round trip: every game's socket connects first (how long that took,
   all at once, is printed apart); then each client sends a step (13/8),
   waits for the ack and the new state, then undoes it, and so on; between
   commands it "thinks" for a random 0..2x``--think`` seconds, so N games
   make about N/think commands per second. Echo sockets (``--echo`` of the
   games' number) are mixed in, sending the same frames at the same pace
   in the same run: the game's p99 is printed next to the echo's and as a
   ratio. CPU per command is the server processes' CPU seconds (daphne,
   the worker, the PostgreSQL backends of the bench's database, Redis) over
   the commands answered. Targets: p99 <= 50 ms and <= 5x the echo's.
   Where the tail was is printed under it: each game's first command apart
   from the others, and the p99 of each 10 s of the run, step / echo.
2. ``--replies N``: during the load, N End turns per tier, one of each
   tier in turn; the time until the computer's play arrives, minus the
   engine + policy time the worker recorded for that very turn, is the
   overhead (printed beside it, in brackets, as it was measured before:
   minus the engine time for the same position and dice measured here
   after the load, cold). Target p50 <= 30 ms. The End turns are spread
   evenly over the first 80% of the games' commands; with each tier, when
   in the run its replies were and the steps' p50 around them.
3. ``--restart``: halfway through the run every daphne is stopped and
   started again; each client reconnects on the page's schedule (0.5 s
   growing 1.5x a try, jittered), resyncs on the first state, and re-sends
   a command it has no answer for. The time until every socket has its
   state again is printed, and every game's stored version is checked:
   each command applied exactly once. From listening to the last socket
   back, the new daphnes' CPU and the machine's busy cores are printed;
   with ``--profile S`` py-spy samples the new first daphne for S seconds
   from the moment it listens (by part, per reconnecting socket).
4. ``--duration S``: a soak of S seconds; each server process's memory is
   sampled every 10 s and its growth after the first minute printed.
   Errors and dropped sockets are counted in every mode.

Measured figures and what they mean: bench/README.md, "Live play".
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import _procs  # noqa: E402
from bench._live_clients import (  # noqa: E402
    LOOK_SECONDS,
    Reply,
    Run,
    computer_reply,
    echo_client,
    game_client,
    watcher,
)
from bench._live_report import (  # noqa: E402
    MEMORY_EVERY,
    pct,
    per_socket,
    report_memory,
    report_replies,
    report_restart,
    report_tail,
    report_watchers,
    storm_ms,
)
from bench._live_site import Site, make_players, make_reply_game, make_step_games, site_env  # noqa: E402
from bench._wsclient import HOST  # noqa: E402


async def replies_under_load(
    port: int,
    owner: Any,
    cookie: str,
    tiers: list[str],
    per_tier: int,
    out: list[Reply],
    began: float,
    span: float,
) -> None:
    """End turns while the load runs, the tiers in turn, spread evenly over
    its first ``span`` seconds.

    One reply of each tier, then again: each tier's replies fall all through
    the run. (Each tier's replies in a row put beginner's in the first
    seconds, while the games' first commands were still spread out, and
    expert's last, so the tiers read as the load of their moment.) Spread
    out, not one after another: back to back they all fell in the run's
    first 15 s, the heaviest (the games' first commands after the connect
    storm), so a few seconds of it stood for the whole run's load.
    """
    from asgiref.sync import sync_to_async

    new_game = sync_to_async(make_reply_game, thread_sensitive=False)
    for tier in tiers:
        await computer_reply(port, await new_game(owner, tier), cookie)  # warm-up: bgsage loads
    every = span / (per_tier * len(tiers))
    for k, tier in enumerate(tiers * per_tier):
        game_id = await new_game(owner, tier)
        # Each End turn at its slot (or at once, if the last ran late).
        await asyncio.sleep(max(0.0, began + k * every - LOOK_SECONDS - time.perf_counter()))
        at = time.perf_counter() - began + LOOK_SECONDS
        reply, dice = await computer_reply(port, game_id, cookie)
        out.append(Reply(tier, game_id, dice, reply, at))


async def sample_memory(
    site: Site, until: asyncio.Event, out: list[tuple[float, dict[str, float]]]
) -> None:
    start = time.perf_counter()
    while not until.is_set():
        named = {
            f"daphne:{p}": _procs.rss_mb(d.pid)
            for p, d in zip(site.ports, site.daphnes, strict=True)
        }
        if site.worker is not None:
            named["worker"] = _procs.rss_mb(site.worker.pid)
        out.append((time.perf_counter() - start, named))
        try:
            await asyncio.wait_for(until.wait(), MEMORY_EVERY)
        except TimeoutError:
            pass


async def restart_midway(site: Site, run: Run, after: float, profile: float | None) -> None:
    await asyncio.sleep(after)
    loop = asyncio.get_running_loop()
    run.restart_at = time.perf_counter()
    run.stopped_at = await loop.run_in_executor(None, site.restart_daphnes)
    run.listening_at = time.perf_counter()
    if profile:  # the reconnecting storm, in the new first daphne
        from bench import _profile

        run.spy = _profile.start(site.daphnes[0].pid, profile, site.var_dir / "profile.txt")
    pids = [p.pid for p in site.daphnes]
    while True:
        daphne = sum(_procs.tree_cpu(p) for p in pids)
        run.storm.append((time.perf_counter(), daphne, _procs.machine_busy()))
        if len(run.resynced) >= run.games or time.perf_counter() > run.listening_at + 60:
            return
        await asyncio.sleep(0.5)


async def one_run(
    site: Site,
    args: argparse.Namespace,
    games: list[tuple[int, str]],
    reply_player: Any,
    meter: _procs.CpuMeter,
) -> tuple[Run, list[Any], list[tuple[float, dict[str, float]]], dict[str, float], float]:
    """The clients of one row; returns what they measured, the CPU and the wall time."""
    echoes = max(1, round(len(games) * args.echo)) if args.echo > 0 else 0
    run = Run(args.rounds, args.think, site.client_ports, len(games) + echoes)
    run.duration = args.duration
    run.games = len(games)
    # Echo sockets mixed in among the games (every tenth client or so, by default).
    clients = [game_client(run, i, gid, cookie) for i, (gid, cookie) in enumerate(games)]
    step = len(clients) // echoes if echoes else 0
    for k in range(echoes):
        clients.insert(k * step + k, echo_client(run, k))
    extra: list[Any] = []
    replies: list[Any] = []
    memory: list[tuple[float, dict[str, float]]] = []
    stop_memory = asyncio.Event()
    extra.append(asyncio.create_task(sample_memory(site, stop_memory, memory)))
    watched = games[:: int(1 / args.watchers)] if args.watchers else []
    for k, (gid, cookie) in enumerate(watched):
        # The game's own socket is on port(i) (i = k / watchers); this one on the next.
        i = k * int(1 / args.watchers)
        other = site.ports[(i + 1) % len(site.ports)]
        clients.append(watcher(run, other, gid, cookie))
    run.parties += len(watched)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, meter.begin)
    tasks = [asyncio.create_task(c) for c in clients]
    await run.all_in.wait()
    run.connect_cpu = await loop.run_in_executor(None, meter.spent)
    await loop.run_in_executor(None, meter.begin)
    began, client_cpu = time.perf_counter(), time.process_time()
    if args.replies and reply_player is not None:
        user, cookie = reply_player
        extra.append(
            asyncio.create_task(
                replies_under_load(
                    site.ports[0],
                    user,
                    cookie,
                    args.tier_list,
                    args.replies,
                    replies,
                    run.began,
                    # Within the games' commands: about rounds x think seconds.
                    0.8 * (args.duration or args.rounds * args.think),
                )
            )
        )
    if args.restart:
        after = args.rounds * args.think / 2
        extra.append(asyncio.create_task(restart_midway(site, run, after, args.profile)))
    spy = None
    if args.profile and not args.restart:
        from bench import _profile

        spy = _profile.start(site.daphnes[0].pid, args.profile, site.var_dir / "profile.txt")
    await asyncio.gather(*tasks[: len(tasks) - len(watched)])
    wall = time.perf_counter() - began
    await asyncio.sleep(1.0 if watched else 0)  # the last broadcasts
    run.games_done.set()
    await asyncio.gather(*tasks)
    spent = await loop.run_in_executor(None, meter.spent)
    spent["(bench clients)"] = time.process_time() - client_cpu
    stop_memory.set()
    await asyncio.gather(*extra)
    spy = spy or run.spy
    if spy is not None:
        await loop.run_in_executor(None, spy.wait)
    return run, replies, memory, spent, wall


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1,200", help="games at once, one row each")
    parser.add_argument("--rounds", type=int, default=20, help="commands per game")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between commands")
    parser.add_argument("--duration", type=float, help="a soak: seconds (sets --rounds)")
    parser.add_argument("--echo", type=float, default=0.1, help="echo sockets per game")
    parser.add_argument("--replies", type=int, default=0, help="computer replies per tier")
    parser.add_argument("--tiers", default="beginner,casual,intermediate,advanced,expert")
    parser.add_argument("--restart", action="store_true", help="restart every daphne midway")
    parser.add_argument("--proxy", choices=["nginx"], help="clients go through a real proxy")
    parser.add_argument("--profile", type=float, help="py-spy the first daphne for S seconds")
    parser.add_argument(
        "--watchers",
        type=float,
        default=0,
        help="share of games with a second tab on another daphne",
    )
    parser.add_argument("--port", type=int, default=8104, help="the first server's port")
    parser.add_argument(
        "--servers", type=int, default=1, help="daphne processes (with several, set REDIS_URL)"
    )
    args = parser.parse_args()
    if args.duration:  # a soak: commands until the time is up
        args.rounds = 10 * max(1, math.ceil(args.duration / args.think))
    args.tier_list = [t for t in args.tiers.split(",") if t]
    counts = [int(n) for n in args.games.split(",") if n]

    var_dir = Path(tempfile.mkdtemp(prefix="shuanglu-bench-live-"))
    env = site_env(var_dir)
    ports = [args.port + i for i in range(args.servers)]
    proxy_port = args.port + 100
    if args.proxy:
        env["CSRF_TRUSTED_ORIGINS"] = f"http://{HOST}:{proxy_port}"  # the page's origin
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    db = django.conf.settings.DATABASES["default"]
    print(f"database: {db['ENGINE'].rsplit('.', 1)[-1]} {db['NAME']}")
    print(f"channel layer: {django.conf.settings.CHANNEL_LAYERS['default']['BACKEND']}")
    print(f"load before: {os.getloadavg()[0]:.2f} (1-min average)")
    players = make_players(max(counts + [1]) + 1)
    site = Site(env, ports, var_dir)
    worker = ", celery worker -Q moves -c 2" if site.worker else ""
    print(f"daphne processes: {len(ports)}{worker}")
    if args.proxy:
        from bench import _proxy

        site.proxy = _proxy.Nginx(ports, proxy_port, var_dir)
        site.client_ports = [proxy_port]
        print(f"clients through nginx on {proxy_port} ({_proxy.SOURCE}), upstream {ports}")
    meter = _procs.CpuMeter(site.groups)
    try:
        for n in counts:
            run_row(site, args, n, players, meter)
        if not counts and args.replies:
            run_row(site, args, 0, players, meter)
    finally:
        site.stop()


def run_row(
    site: Site, args: argparse.Namespace, n: int, players: list[Any], meter: _procs.CpuMeter
) -> None:
    owners = players[1 : n + 1]
    games = list(zip(make_step_games([u for u, _ in owners]), [c for _, c in owners], strict=True))
    load = os.getloadavg()[0]
    # The clients' own set-up kept out of their collector's full scans, as the
    # site does (config/asgi.py): their pauses would read as the servers'.
    gc.collect()
    gc.freeze()
    run, replies, memory, spent, wall = asyncio.run(one_run(site, args, games, players[0], meter))
    commands = len(run.game_ms)
    print(
        f"\n{n} games, think 0..{2 * args.think:.1f} s, {args.rounds} commands each,"
        f" {run.parties - len(games)} echo sockets mixed in;"
        f" load {load:.2f} before, {os.getloadavg()[0]:.2f} after (1-min)"
    )
    if commands:
        g50, g99 = pct(run.game_ms, 0.5), pct(run.game_ms, 0.99)
        e50, e99 = pct(run.echo_ms, 0.5), pct(run.echo_ms, 0.99)
        ok = g99 <= 50 and g99 <= 5 * e99
        print(
            f"  step p50 {g50:.1f} ms  p99 {g99:.1f} ms | echo p50 {e50:.1f} ms  p99 {e99:.1f} ms"
            f" | p99 ratio {g99 / e99:.1f}"
            f"  ({'ok' if ok else 'MISSED'}: p99 <= 50 ms and <= 5x echo)"
        )
        report_tail(run)
        print(
            f"  {commands} commands in {wall:.1f} s = {commands / wall:.0f}/s;"
            f" connecting all at once p50 {pct(run.connect_ms, 0.5):.0f} ms,"
            f" p99 {pct(run.connect_ms, 0.99):.0f} ms, servers' CPU {per_socket(run)}"
        )
        total = sum(v for k, v in spent.items() if not k.startswith("("))
        parts = ", ".join(f"{k} {1000 * v / commands:.2f}" for k, v in spent.items())
        print(
            f"  CPU per command {1000 * total / commands:.2f} ms ({parts});"
            f" servers' CPU {total / wall:.2f} cores of {os.cpu_count()}"
        )
        if args.profile and not args.restart:
            from bench import _profile

            daphne_ms = 1000 * spent["daphne"] / commands
            _profile.report(site.var_dir / "profile.txt", daphne_ms)
    print(f"  errors {len(run.errors)}, sockets dropped {run.dropped}")
    for line in run.errors[:5]:
        print(f"    {line}")
    if args.watchers:
        report_watchers(run)
    if args.restart:
        report_restart(run, games, args.rounds)
        if args.profile:
            from bench import _profile

            _profile.report(site.var_dir / "profile.txt", storm_ms(run), "reconnecting socket")
    if replies:
        report_replies(replies, run)
        worker = meter.spent().get("worker", 0.0)  # since the load began, replies done
        turns = len(replies) + len(dict.fromkeys(r.tier for r in replies))  # warm-ups too
        print(f"  the moves worker's CPU a computer turn: {1000 * worker / turns:.1f} ms ({turns})")
    if args.duration:
        report_memory(memory)


if __name__ == "__main__":
    main()
