"""Live play over a real WebSocket: step round trips and the computer's reply time.

    .venv/bin/python bench/live.py [--games 1,200] [--rounds 20] [--think 1.0]
                                   [--replies 8] [--tiers beginner,...]
                                   [--servers 1] [--port 8104]

It migrates a fresh database (a temporary SQLite file, or DATABASE_URL),
creates players, sessions and games with the ORM, and starts ``--servers``
daphne processes (the site's ``config.asgi`` as production runs it: DEBUG
off, the channel layer in memory or, with REDIS_URL, Redis, in which case a
Celery worker for the ``moves`` queue is started too; without REDIS_URL the
computer's turns run on the in-process pool). They serve
``bench/echo_asgi.py``, which adds a bare echo socket at ``/ws/echo/``: the
yardstick, measured in the same run on the same servers. Games are spread
over the servers as the proxy would.

1. Step round trip: every game's socket connects first (how long 200 sockets
   take connecting all at once is printed apart); then each client sends a
   step (13/8), waits for the ack and the new state, then undoes it, and so
   on; between commands it "thinks" for a random 0..2x``--think`` seconds, so
   200 games make about 200/think commands per second together. The echo
   clients send the same frames to the echo socket with the same pacing.
   p50/p99 of both and their ratio, at each ``--games`` count. Target: p99 <=
   50 ms at 200 games.
2. Computer reply: a game whose person's turn is complete; after a moment's
   look at the board, End turn is sent and the time until the state with the
   computer's play arrives is the reply time. The raw engine + policy time
   for the same position and the dice the server rolled is then measured in
   this process (warm, bgsage loaded). Target per tier: reply p50 <= engine
   p50 + 30 ms.

Measured figures and what they mean: bench/README.md, "Live play".
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"
LOOK_SECONDS = 0.3


# ------------------------------------------------------------------ a tiny WebSocket client


class Socket:
    """A minimal RFC 6455 client (text frames, pong, close) on asyncio streams.

    The same client drives the echo and the game sockets, so its own cost
    is in both figures alike.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, path: str, cookie: str = "") -> Socket:
        reader, writer = await asyncio.open_connection(HOST, port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {HOST}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: http://{HOST}:{port}",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))
        return cls(reader, writer)

    def send(self, payload: dict[str, Any] | str) -> None:
        self._frame(0x1, (payload if isinstance(payload, str) else json.dumps(payload)).encode())

    def _frame(self, opcode: int, data: bytes) -> None:
        n = len(data)
        head = bytearray([0x80 | opcode])
        if n < 126:
            head.append(0x80 | n)
        elif n < 65536:
            head.append(0x80 | 126)
            head += n.to_bytes(2, "big")
        else:
            head.append(0x80 | 127)
            head += n.to_bytes(8, "big")
        mask = os.urandom(4)
        key = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
        self.writer.write(bytes(head) + mask + masked)

    async def recv(self) -> str:
        while True:
            b0, b1 = await self.reader.readexactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(await self.reader.readexactly(2), "big")
            elif n == 127:
                n = int.from_bytes(await self.reader.readexactly(8), "big")
            data = await self.reader.readexactly(n)
            opcode = b0 & 0x0F
            if opcode == 0x9:  # ping: daphne pings idle sockets
                self._frame(0xA, data)
            elif opcode == 0x8:
                raise ConnectionError(f"closed by the server: {data[:2].hex()}")
            elif opcode == 0x1:
                return data.decode()

    async def recv_json(self) -> dict[str, Any]:
        return json.loads(await self.recv())

    async def close(self) -> None:
        try:
            self._frame(0x8, (1000).to_bytes(2, "big"))
            await self.writer.drain()
        finally:
            self.writer.close()


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


def start_daphne(env: dict[str, str], port: int, log_path: Path) -> subprocess.Popen[bytes]:
    def listening() -> bool:
        try:
            # Any answer shows it listens. Not a page: with DEBUG off pages
            # need collectstatic's manifest. (setlang refuses GET: 405.)
            probe = http.client.HTTPConnection(HOST, port, timeout=2)
            probe.request("GET", "/i18n/setlang/")
            probe.getresponse()
            return True
        except OSError:
            return False

    # The site plus the echo yardstick (bench/echo_asgi.py), from the repository root.
    command = ["daphne", "-b", HOST, "-p", str(port), "bench.echo_asgi:application"]
    return start_process(command, env, log_path, listening)


def start_worker(env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    command = ["celery", "-A", "config", "worker", "-Q", "moves", "--concurrency", "2"]
    command += ["--without-gossip", "--without-mingle", "-l", "INFO"]
    return start_process(command, env, log_path, lambda: b" ready." in log_path.read_bytes())


def start_process(
    command: list[str], env: dict[str, str], log_path: Path, ready: Callable[[], bool]
) -> subprocess.Popen[bytes]:
    """``python -m command...`` logging to ``log_path``, once ``ready()`` says so."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [sys.executable, "-m", *command], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(log_path.read_text(errors="replace"))
        if ready():
            return process
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{command[0]} did not start")


def make_player(name: str, auto_end: bool) -> tuple[Any, str]:
    """A user with a session; returns (user, Cookie header value)."""
    from django.conf import settings
    from django.test import Client

    from accounts.models import Preferences, User

    # A database given by DATABASE_URL may hold an earlier run's players.
    User.objects.filter(username=name).delete()
    user = User.objects.create_user(username=name, password=None)
    Preferences.objects.create(user=user, auto_end_turn=auto_end)
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return user, f"{settings.SESSION_COOKIE_NAME}={cookie}"


def make_step_game(owner: Any) -> int:
    """The start position, LIGHT on roll with 5-2 (the opening), no step made yet."""
    from games.models import Game, Status

    return Game.objects.create(
        owner=owner,
        tier="casual",
        status=Status.OPENING,
        turn="light",
        dice=[5, 2],
        opening_rolls=[[5, 2]],
    ).pk


def make_reply_game(owner: Any, tier: str) -> int:
    """LIGHT has played 13/8 13/11 (5-2) and only has to end the turn."""
    from games.models import Game, Status

    return Game.objects.create(
        owner=owner,
        tier=tier,
        status=Status.PLAYING,
        turn="light",
        dice=[5, 2],
        steps=[[13, 8, 5], [13, 11, 2]],
        opening_rolls=[[5, 2]],
    ).pk


# ------------------------------------------------------------------ measurements


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def game_client(
    port: int,
    game_id: int,
    cookie: str,
    rounds: int,
    think: float,
    out: list[float],
    ready: Barrier,
) -> None:
    start = time.perf_counter()
    sock = await Socket.open(port, f"/ws/games/{game_id}/", cookie)
    version = (await sock.recv_json())["version"]
    await ready.wait((time.perf_counter() - start) * 1000)
    for i in range(rounds):
        await asyncio.sleep(random.uniform(0, 2 * think))
        command = (
            {"type": "step", "id": f"s{i}", "version": version, "from": 13, "to": 8}
            if i % 2 == 0
            else {"type": "undo", "id": f"u{i}", "version": version}
        )
        start = time.perf_counter()
        sock.send(command)
        while True:
            msg = await sock.recv_json()
            if msg["type"] == "state" and msg["version"] > version:
                break
            if msg["type"] in ("error", "refused"):
                raise RuntimeError(f"game {game_id}: {msg}")
        out.append((time.perf_counter() - start) * 1000)
        version = msg["version"]
    await sock.close()


async def echo_client(
    port: int, rounds: int, think: float, out: list[float], ready: Barrier
) -> None:
    start = time.perf_counter()
    sock = await Socket.open(port, "/ws/echo/")
    await ready.wait((time.perf_counter() - start) * 1000)
    for i in range(rounds):
        await asyncio.sleep(random.uniform(0, 2 * think))
        frame = json.dumps({"type": "step", "id": f"s{i}", "version": i, "from": 13, "to": 8})
        start = time.perf_counter()
        sock.send(frame)
        await sock.recv()
        out.append((time.perf_counter() - start) * 1000)
    await sock.close()


class Barrier:
    """Holds every client until all have connected, noting how long that took.

    The round trips are measured with all the games open, as on a site with
    that many players; the connections themselves all arrive at once here,
    which a site never sees, and are reported apart.
    """

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self.connect_ms: list[float] = []
        self.all_in = asyncio.Event()

    async def wait(self, connect_ms: float) -> None:
        self.connect_ms.append(connect_ms)
        if len(self.connect_ms) == self.parties:
            self.all_in.set()
        await self.all_in.wait()


async def step_round_trips(
    ports: list[int], games: list[tuple[int, str]], rounds: int, think: float
) -> tuple[list[float], list[float], list[float]]:
    game_ms: list[float] = []
    echo_ms: list[float] = []
    ready = Barrier(len(games))
    await asyncio.gather(
        *(
            game_client(ports[i % len(ports)], gid, cookie, rounds, think, game_ms, ready)
            for i, (gid, cookie) in enumerate(games)
        )
    )
    echo_ready = Barrier(len(games))
    await asyncio.gather(
        *(
            echo_client(ports[i % len(ports)], rounds, think, echo_ms, echo_ready)
            for i in range(len(games))
        )
    )
    return game_ms, echo_ms, ready.connect_ms


async def computer_reply(port: int, game_id: int, cookie: str) -> tuple[float, list[int]]:
    """Milliseconds from End turn to the state carrying the computer's play."""
    sock = await Socket.open(port, f"/ws/games/{game_id}/", cookie)
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


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="1,200")
    parser.add_argument("--rounds", type=int, default=20, help="commands per game")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between commands")
    parser.add_argument("--replies", type=int, default=8, help="computer replies per tier")
    parser.add_argument("--tiers", default="beginner,casual,intermediate,advanced,expert")
    parser.add_argument("--port", type=int, default=8104, help="the first server's port")
    parser.add_argument(
        "--servers", type=int, default=1, help="daphne processes (with several, set REDIS_URL)"
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.games.split(",") if n]
    tiers = [t for t in args.tiers.split(",") if t]

    var_dir = Path(tempfile.mkdtemp(prefix="shuanglu-bench-live-"))
    env = site_env(var_dir)
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    db = django.conf.settings.DATABASES["default"]
    print(f"database: {db['ENGINE'].rsplit('.', 1)[-1]} {db['NAME']}")
    print(f"channel layer: {django.conf.settings.CHANNEL_LAYERS['default']['BACKEND']}")

    players = [make_player(f"bench{i}", auto_end=False) for i in range(max(counts + [1]))]
    ports = [args.port + i for i in range(args.servers)]
    print(f"daphne processes: {len(ports)} (games spread over them, as by the proxy)")
    servers = [start_daphne(env, port, var_dir / f"daphne-{port}.log") for port in ports]
    if env.get("REDIS_URL"):
        # The computer's turns go through the broker: run the moves worker
        # as site/Procfile does.
        print("celery worker: -Q moves --concurrency 2")
        servers.append(start_worker(env, var_dir / "celery.log"))
    try:
        if counts:
            run_steps(args, counts, players, ports)
        if tiers and args.replies > 0:
            run_replies(args, tiers, players[0], ports[0])
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=10)


def run_steps(
    args: argparse.Namespace, counts: list[int], players: list[Any], ports: list[int]
) -> None:
    print(f"\nstep round trip (step/undo, think 0..{2 * args.think:.1f} s, {args.rounds} each)")
    print(
        f"{'games':>6} {'game p50':>9} {'game p99':>9} {'echo p50':>9} {'echo p99':>9}"
        f" {'p50 x':>6} {'p99 x':>6}  target p99 <= 50 ms   (all connecting at once: p50/p99)"
    )
    for n in counts:
        games = [(make_step_game(user), cookie) for user, cookie in players[:n]]
        game_ms, echo_ms, connect_ms = asyncio.run(
            step_round_trips(ports, games, args.rounds, args.think)
        )
        g50, g99, e50, e99 = (
            pct(game_ms, 0.5),
            pct(game_ms, 0.99),
            pct(echo_ms, 0.5),
            pct(echo_ms, 0.99),
        )
        verdict = "ok" if g99 <= 50 else "MISSED"
        print(
            f"{n:>6} {g50:>8.1f}m {g99:>8.1f}m {e50:>8.1f}m {e99:>8.1f}m"
            f" {g50 / e50:>6.1f} {g99 / e99:>6.1f}  {verdict:<6}"
            f"               ({pct(connect_ms, 0.5):.0f} / {pct(connect_ms, 0.99):.0f} ms)"
        )


def run_replies(args: argparse.Namespace, tiers: list[str], player: Any, port: int) -> None:
    user, cookie = player
    print(f"\ncomputer reply (End turn -> computer's play received), {args.replies} per tier")
    print(
        f"{'tier':>13} {'reply p50':>10} {'engine p50':>11} {'overhead p50':>13}"
        f" {'reply p99':>10}  target overhead <= 30 ms"
    )
    for tier in tiers:
        engine_ms(tier, 0, [6, 5])  # warm-up: load bgsage for this ply here...
        asyncio.run(computer_reply(port, make_reply_game(user, tier), cookie))  # ...and there
        replies, engines, overheads = [], [], []
        for _ in range(args.replies):
            game_id = make_reply_game(user, tier)
            reply, dice = asyncio.run(computer_reply(port, game_id, cookie))
            engine = engine_ms(tier, game_id, dice)
            replies.append(reply)
            engines.append(engine)
            overheads.append(reply - engine)
        over = pct(overheads, 0.5)
        verdict = "ok" if over <= 30 else "MISSED"
        print(
            f"{tier:>13} {pct(replies, 0.5):>9.1f}m {pct(engines, 0.5):>10.1f}m"
            f" {over:>12.1f}m {pct(replies, 0.99):>9.1f}m  {verdict}"
        )


if __name__ == "__main__":
    main()
