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
import json
import math
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
from bench._wsclient import HOST, Socket  # noqa: E402

LOOK_SECONDS = 0.3
RESYNC_TIMEOUT = 30.0  # seconds a reconnected socket may take to send its state
ANSWER_TIMEOUT = 30.0  # seconds for a command's state; then an error, and the socket again
MEMORY_EVERY = 10.0  # seconds
WARM_UP = 60.0  # seconds of a soak before its memory baseline


# ------------------------------------------------------------------ the site under test


def site_env(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=str(var_dir),
        # As in production: DEBUG off (with it on, Django keeps and formats
        # every query, a third of a command's database time).
        DEBUG="false",
        SECRET_KEY="bench-live-not-secret",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS=HOST,
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


class Site:
    """The daphne processes, the worker, and how to reach and measure them."""

    def __init__(self, env: dict[str, str], ports: list[int], var_dir: Path) -> None:
        self.env, self.ports, self.var_dir = env, ports, var_dir
        self.daphnes = _procs.start_daphnes(env, ports, var_dir)
        self.worker = None
        if env.get("REDIS_URL"):
            # The computer's turns go through the broker: the moves worker as site/Procfile.
            self.worker = _procs.start_worker(env, var_dir / "celery.log")
        self.redis = _procs.redis_pid(env["REDIS_URL"]) if env.get("REDIS_URL") else None
        from django.db import connection

        self.postgres = connection.vendor == "postgresql"
        self.proxy: Any = None
        self.client_ports = ports

    def groups(self) -> dict[str, list[int]]:
        groups = {"daphne": [p.pid for p in self.daphnes]}
        if self.worker is not None:
            groups["worker"] = [self.worker.pid]
        if self.postgres:
            groups["postgres"] = _procs.postgres_backends()
        if self.redis:
            groups["redis"] = [self.redis]
        if self.proxy is not None:
            groups["nginx"] = [self.proxy.process.pid]
        return groups

    def restart_daphnes(self) -> float:
        """Stop every daphne (SIGTERM, as a deploy does), start them again; the
        perf_counter when the last had stopped."""
        _procs.stop(self.daphnes)
        stopped = time.perf_counter()
        self.daphnes = _procs.start_daphnes(self.env, self.ports, self.var_dir)
        return stopped

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        _procs.stop([*self.daphnes, *([self.worker] if self.worker else [])])


def make_players(count: int) -> list[tuple[Any, str]]:
    """Users with a session each: (user, Cookie header value)."""
    from django.conf import settings
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import Preferences, User

    # A database given by DATABASE_URL may hold an earlier run's players.
    User.objects.filter(username__startswith="bench").delete()
    users = User.objects.bulk_create(
        [User(username=f"bench{i}", password="!") for i in range(count)]
    )
    Preferences.objects.bulk_create([Preferences(user=u, auto_end_turn=False) for u in users])
    players = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        players.append((user, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"))
    return players


def make_step_games(owners: list[Any]) -> list[int]:
    """The start position, LIGHT on roll with 5-2 (the opening), no step made yet."""
    from games.models import Game, Status

    games = [
        Game(
            owner=owner,
            tier="casual",
            status=Status.OPENING,
            turn="light",
            dice=[5, 2],
            opening_rolls=[[5, 2]],
        )
        for owner in owners
    ]
    return [g.pk for g in Game.objects.bulk_create(games)]


def make_reply_game(owner: Any, tier: str) -> int:
    """LIGHT has played 13/8 13/11 (5-2) and only has to end the turn."""
    from games.models import Game, Status

    return Game.objects.create(
        owner=owner,
        tier=tier,
        status=Status.PLAYING,
        turn="light",
        dice=[5, 2],
        steps=[[13, 8, 5, 0], [13, 11, 2, 0]],
        opening_rolls=[[5, 2]],
    ).pk


# ------------------------------------------------------------------ the clients


@dataclass
class Run:
    """What the clients of one run share and report."""

    rounds: int
    think: float
    ports: list[int]
    parties: int
    game_ms: list[float] = field(default_factory=list)
    echo_ms: list[float] = field(default_factory=list)
    # (seconds since every socket was in, ms, the game's command count) a
    # round trip: when in the run the slow ones were, and which.
    game_at: list[tuple[float, float, int]] = field(default_factory=list)
    echo_at: list[tuple[float, float]] = field(default_factory=list)
    began: float = 0.0  # perf_counter when every socket was in
    connect_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dropped: int = 0
    restart_at: float | None = None  # perf_counter when the daphnes were stopped
    stopped_at: float | None = None
    listening_at: float | None = None
    resynced: list[float] = field(default_factory=list)  # perf_counter of each resync
    games: int = 0
    # After the restart, every half second: (perf_counter, the new daphnes'
    # CPU seconds, the machine's busy CPU seconds), until every game is back.
    storm: list[tuple[float, float, float]] = field(default_factory=list)
    spy: Any = None  # --profile with --restart: py-spy on the new first daphne
    all_in: asyncio.Event = field(default_factory=asyncio.Event)
    # A second socket on another daphne for some games (--watchers): when it
    # saw each new state, against when the commanding socket got it.
    answered: dict[tuple[int, int], float] = field(default_factory=dict)
    watched: dict[tuple[int, int], float] = field(default_factory=dict)
    games_done: asyncio.Event = field(default_factory=asyncio.Event)
    connect_cpu: dict[str, float] = field(default_factory=dict)
    duration: float | None = None  # a soak: seconds from the moment all are in
    ends_at: float = float("inf")

    def going(self, done: int) -> bool:
        return done < self.rounds and time.perf_counter() < self.ends_at

    def port(self, i: int) -> int:
        return self.ports[i % len(self.ports)]

    async def connected(self, ms: float) -> None:
        self.connect_ms.append(ms)
        if len(self.connect_ms) == self.parties:
            self.began = time.perf_counter()
            if self.duration:
                self.ends_at = time.perf_counter() + self.duration
            self.all_in.set()
        await self.all_in.wait()

    def lost(self, what: str, exc: BaseException) -> None:
        if self.restart_at is None:
            self.dropped += 1
            self.errors.append(f"{what}: {exc!r}")


def reconnect_delay(attempt: int) -> float:
    """Seconds before a closed socket's next try: the page's schedule for a
    server that is not there (``reconnectDelay`` in static/games/common.js)."""
    return min(3.0, 0.5 * 1.5**attempt) * random.uniform(0.5, 1.5)


async def reopen(run: Run, port: int, path: str, cookie: str = "", *, lost: bool = False) -> Socket:
    """A socket, trying until the server is back, as the page does: a socket
    that was ``lost`` waits before its first try too."""
    attempt = 0
    if lost:
        await asyncio.sleep(reconnect_delay(attempt))
        attempt += 1
    while True:
        try:
            sock = await Socket.open(port, path, cookie)
            sock.start_reader()
            return sock
        except (OSError, ConnectionError, asyncio.IncompleteReadError):
            await asyncio.sleep(reconnect_delay(attempt))
            attempt += 1


async def resync(run: Run, port: int, path: str, cookie: str) -> tuple[Socket, dict[str, Any]]:
    """A lost game socket open again with its first state (a socket that
    closes before sending it, as one a stopping server accepted, is tried again)."""
    while True:
        sock = await reopen(run, port, path, cookie, lost=True)
        try:
            return sock, await asyncio.wait_for(sock.recv_json(), RESYNC_TIMEOUT)
        except (ConnectionError, OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
            run.errors.append(f"{path}: no state after reconnecting: {exc!r}")
            sock.abort()


async def next_state(sock: Socket, above: int, run: Run, game_id: int) -> dict[str, Any]:
    while True:
        msg = await sock.recv_json()
        if msg["type"] == "state" and msg["version"] > above:
            return msg
        if msg["type"] in ("error", "refused"):
            run.errors.append(f"game {game_id}: {msg}")


async def game_client(run: Run, i: int, game_id: int, cookie: str) -> None:
    path, port = f"/ws/games/{game_id}/", run.port(i)
    start = time.perf_counter()
    sock = await reopen(run, port, path, cookie)
    version = (await sock.recv_json())["version"]
    await run.connected((time.perf_counter() - start) * 1000)
    done = 0
    resend = False
    while run.going(done) or resend:
        try:
            if not resend:
                await sock.idle(random.uniform(0, 2 * run.think))
            # Step on an even count of commands, undo on an odd one: a re-sent
            # command is the same command on the same version.
            kind = "step" if (version - 1) % 2 == 0 else "undo"
            command = {"type": kind, "id": f"c{version}", "version": version}
            if kind == "step":
                command.update({"from": 13, "to": 8})
            start = time.perf_counter()
            sock.send(command)
            msg = await asyncio.wait_for(next_state(sock, version, run, game_id), ANSWER_TIMEOUT)
            if not resend:
                ms = (time.perf_counter() - start) * 1000
                run.game_ms.append(ms)
                run.game_at.append((start - run.began, ms, done))
            version, done, resend = msg["version"], done + 1, False
            run.answered[(game_id, version)] = time.perf_counter()
        except (ConnectionError, OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
            if isinstance(exc, TimeoutError):  # counted even across a restart
                run.errors.append(f"game {game_id}: no answer to {command} in {ANSWER_TIMEOUT} s")
            run.lost(f"game {game_id}", exc)
            sock.abort()
            sock, state = await resync(run, run.port(i), path, cookie)
            run.resynced.append(time.perf_counter())
            if state["version"] > version:  # applied; its answer was lost with the socket
                done += state["version"] - version
                version, resend = state["version"], False
            else:
                resend = True  # not applied: the same command again
    await sock.close()


async def watcher(run: Run, port: int, game_id: int, cookie: str) -> None:
    """Another tab on the game, on another daphne: it only reads the broadcasts."""
    start = time.perf_counter()
    sock = await reopen(run, port, f"/ws/games/{game_id}/", cookie)
    await sock.recv_json()
    await run.connected((time.perf_counter() - start) * 1000)
    while not run.games_done.is_set():
        try:
            msg = await asyncio.wait_for(sock.recv_json(), 0.5)
        except TimeoutError:
            continue
        if msg["type"] == "state":
            run.watched.setdefault((game_id, msg["version"]), time.perf_counter())
    await sock.close()


async def echo_client(run: Run, i: int) -> None:
    start = time.perf_counter()
    sock = await reopen(run, run.port(i), "/ws/echo/")
    await run.connected((time.perf_counter() - start) * 1000)
    done = 0
    while run.going(done):
        try:
            await sock.idle(random.uniform(0, 2 * run.think))
            frame = json.dumps({"type": "step", "id": f"s{done}", "version": done, "from": 13})
            start = time.perf_counter()
            sock.send(frame)
            await sock.recv()
            run.echo_ms.append((time.perf_counter() - start) * 1000)
            run.echo_at.append((start - run.began, run.echo_ms[-1]))
            done += 1
        except (ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
            run.lost("echo", exc)
            sock.abort()
            sock = await reopen(run, run.port(i), "/ws/echo/", lost=True)
    await sock.close()


async def computer_reply(port: int, game_id: int, cookie: str) -> tuple[float, list[int]]:
    """Milliseconds from End turn to the state carrying the computer's play."""
    sock = await Socket.open(port, f"/ws/games/{game_id}/", cookie)
    sock.start_reader()
    version = (await sock.recv_json())["version"]
    # A person looks at the board before ending the turn. (With Redis, a
    # server with no other sockets open starts reading the first socket's
    # broadcasts up to 100 ms after it joins: channels_redis's pub/sub reader
    # polls every 0.1 s while it has no subscriptions.)
    await asyncio.sleep(LOOK_SECONDS)
    start = time.perf_counter()
    sock.send({"type": "end_turn", "id": "e", "version": version})
    while True:
        msg = await sock.recv_json()
        last = msg.get("last_turn") or {}
        if msg["type"] == "state" and last.get("side") == "dark":
            break
        if msg["type"] in ("error", "refused"):
            raise RuntimeError(f"game {game_id}: {msg}")
    elapsed = (time.perf_counter() - start) * 1000
    await sock.close()
    return elapsed, last["dice"]


# ------------------------------------------------------------------ measurements


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


@dataclass(frozen=True)
class Reply:
    """One computer reply measured during the load."""

    tier: str
    game_id: int
    dice: list[int]
    ms: float  # End turn -> the state carrying the computer's play
    at: float  # seconds into the load when End turn was sent


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


if __name__ == "__main__":
    main()
