"""bench/live.py's clients: the game sockets, the echo sockets, the second
tabs and the computer's reply, each measuring its round trips into a ``Run``."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from bench._wsclient import Socket

LOOK_SECONDS = 0.3
RESYNC_TIMEOUT = 30.0  # seconds a reconnected socket may take to send its state
ANSWER_TIMEOUT = 30.0  # seconds for a command's state; then an error, and the socket again


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


class Errors(Protocol):
    """A run's error list (this bench's ``Run``, bench/tutor.py's own)."""

    errors: list[str]


async def next_state(sock: Socket, above: int, run: Errors, game_id: int) -> dict[str, Any]:
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


@dataclass(frozen=True)
class Reply:
    """One computer reply measured during the load."""

    tier: str
    game_id: int
    dice: list[int]
    ms: float  # End turn -> the state carrying the computer's play
    at: float  # seconds into the load when End turn was sent
