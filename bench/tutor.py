"""教练模式 under load: the time from End turn to the commit or the warning,
tutor on against tutor off in the same run, and the CPU the tutor adds a turn.

    .venv/bin/python bench/tutor.py                  # zero set-up
    DATABASE_URL=postgres://... REDIS_URL=redis://.../N .venv/bin/python bench/tutor.py

Zero set-up (no DATABASE_URL / REDIS_URL: SQLite, the in-memory channel
layer and cache, the ranking on daphne's in-process pools) or the
production shape (DATABASE_URL and REDIS_URL: PostgreSQL, Redis, and the
Celery workers of site/Procfile, ``--procfile`` another's: ``moves`` taking
moves,hints,watchdog with two children, ``hints`` with one, ``analysis`` at
nice 10 with one). Daphne as bench/live.py starts it (DEBUG off), one per
core in production shape as ``./dev prod`` runs it (``--servers``, 2), the
games spread over them as the proxy does; one in zero set-up. The bench uses the
database and Redis database it is given as its own (their tables and keys
are overwritten).

``--games`` games (200) are played for real, each from its own early-game
position (from Beginner-noise 1-ply games), against the Casual computer
through the workers. The sockets open spread over the first ``--think``
high seconds, so the games' rolls come at scattered times as a site's do.
A player's turn: the roll arrives (the state after the computer's move, or
the socket's opening for the first); the person thinks a random
``--think`` seconds (2 to 8 s: a club player's usual pace on a checker
play, slower than a strong player's 1-3 s, faster than a beginner's long
looks), moving a step at a time during it, and presses End turn at the end
of it. The play is a learner's (``--player learner``: the Beginner's noise
on the network's values, ``learner_steps``) or random legal steps
(``--player random``: warned on about half the turns, the worst case).
Timed: End turn until the reply and the state that follow it (the commit,
or the warning), and for a warning, End turn until its words arrive (made
after the commit on the ``hints`` queue and pushed, ``tutor_words``). A
warned play is then played anyway (仍然这样走, not timed) once its words are
there, as a person reads them first. The ranking the tutor checks against starts
as the site starts it: when the roll is known (``games.services.rows``'s
``person_to_decide``, ``learning.tutor.prepare`` on the ``hints`` queue).

Tutor off and on alternate in blocks of ``--block`` seconds on the same
games and servers (off, on, on, off, off, on: ABBA, so a drift of the
machine's load weighs on both alike); every player's preference is switched
at a block's start. A turn counts in a block when its roll and its End turn
both fell inside it, the roll after its first ``WARM_SECONDS`` (a turn
across a switch is left out: its ranking was started, or not, under the
other setting). CPU per turn: each server
group's CPU seconds over a setting's blocks divided by the End turns sent
in them; the tutor's cost is on minus off.

Printed: p50 / p95 / p99 / max End turn -> commit or warning per setting
and their ratio, End turn -> the warning's words, the warned and unchecked
(ranking not ready within ``games.tutor.WAIT_SECONDS``) shares, CPU per turn by process group, the
machine's load and how busy its cores were with other work during the run.
Target (issue 33): tutor on p95 <= 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
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
from bench._live_clients import next_state  # noqa: E402
from bench._live_report import pct  # noqa: E402
from bench._live_site import make_players, site_env  # noqa: E402
from bench._wsclient import Socket  # noqa: E402

SIGMA = 0.17  # the Beginner tier's noise (games.tiers): positions a learner reaches
ON, OFF = "bad", "off"  # the tutor warns of bad and worse when on
PATTERN = (OFF, ON, ON, OFF, OFF, ON)
ANSWER_TIMEOUT = 30.0
# A block's first seconds are not timed: every player's setting changes at
# once at its start (no site sees that), and with the tutor on, the
# decisions already open then are ranked at once, all together, when their
# End turn finds no ranking (games.tutor); the rankings of the rolls just
# after queue behind that burst.
WARM_SECONDS = 5.0


@dataclass
class Turn:
    level: str  # the setting of the block it fell in, or "" across a switch
    ms: float
    warned: bool
    unchecked: bool
    words_ms: float | None = None  # End turn -> the warning's words, for a warning


@dataclass
class Run:
    think: tuple[float, float]
    starts: list[float]  # perf_counter of each block's start; the last is the end
    levels: list[str]
    turns: list[Turn] = field(default_factory=list)
    ended: list[int] = field(default_factory=list)  # End turns sent, per block
    errors: list[str] = field(default_factory=list)
    finished: int = 0  # games played out (each followed by a new one)
    # perf_counter when each block's setting was in force (its players' rows written)
    settled: list[float] = field(default_factory=list)
    spare: list[tuple[str, list[int]]] = field(default_factory=list)  # next games' positions
    learner: bool = True  # the person plays as a learner (``learner_steps``), not at random

    def block(self, at: float) -> int:
        """The block ``at`` falls in; -1 before the first (the spread start), len after."""
        if at < self.starts[0]:
            return -1
        for i in range(len(self.levels)):
            if at < self.starts[i + 1]:
                return i
        return len(self.levels)

    def over(self) -> bool:
        return time.perf_counter() >= self.starts[-1]


def positions(count: int, seed: int) -> list[tuple[str, list[int]]]:
    """(position id, dice) for LIGHT on roll: distinct early-game positions
    (plies 2 to 9: few games end within a run, and each end queues a review)
    from 1-ply games played with the Beginner's noise."""
    from ai_worker import evaluator
    from games.engine import Dice, Position, legal_plays

    rng = random.Random(seed)
    found: list[tuple[str, list[int]]] = []
    seen: set[str] = set()
    while len(found) < count:
        position = Position.start()
        for turn in range(10):
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            if not legal_plays(position, dice):
                position = position.swapped()
                continue
            ranked = evaluator.rank_plays(position, dice, 1)
            if turn >= 2 and position.position_id() not in seen:
                seen.add(position.position_id())
                found.append((position.position_id(), [dice.d1, dice.d2]))
                if len(found) == count:
                    break
            play = max(ranked, key=lambda r: r.equity + rng.gauss(0.0, SIGMA)).play
            if turn >= 9:
                break
            position = play.result.swapped()
    return found


def make_games(owners: list[Any], made: list[tuple[str, list[int]]]) -> list[int]:
    from games.models import Game, Status

    games = [
        Game(
            owner=owner,
            tier="casual",
            status=Status.PLAYING,
            turn="light",
            position_id=position_id,
            dice=dice,
            steps=[],
            last_turn={"number": 8, "side": "dark", "dice": [1, 2], "notation": "", "steps": []},
        )
        for owner, (position_id, dice) in zip(owners, made, strict=True)
    ]
    return [g.pk for g in Game.objects.bulk_create(games)]


def learner_steps(state: dict[str, Any], rng: random.Random) -> list[dict[str, int]]:
    """The steps of the play a learner picks for the state's roll: the
    network's 1-ply values with the Beginner tier's noise (``SIGMA``, the
    computer's Beginner: PR about 25, games/tier_pr.json), as the page's
    steps. A random play would be warned on most turns; a learner who turns
    the tutor on errs on fewer (the run prints the share warned)."""
    from ai_worker import evaluator
    from games.engine import Dice, Position

    position = Position.from_position_id(state["ids"]["position_id"])
    ranked = evaluator.rank_plays(position, Dice(*state["dice"]), 1)
    if not ranked:
        return []
    play = max(ranked, key=lambda r: r.equity + rng.gauss(0.0, SIGMA)).play
    return [{"from": s.src, "to": s.dst, "die": s.die} for s in play.steps]


def my_roll(state: dict[str, Any]) -> bool:
    """The person is to play a roll, nothing moved yet."""
    return (
        state["status"] == "playing"
        and state["turn"] == "light"
        and bool(state["dice"])
        and not state["steps"]
        and not state["thinking"]
    )


# When each warning's words arrived (perf_counter), by (game, version).
WORDS_AT: dict[tuple[int, int], float] = {}


async def command(
    sock: Socket, run: Run, game_id: int, payload: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Send ``payload``; its reply and the state after it."""
    sock.send(payload)
    reply = None
    while True:
        msg = await asyncio.wait_for(sock.recv_json(), ANSWER_TIMEOUT)
        if msg["type"] == "tutor_words":
            WORDS_AT[(game_id, msg["version"])] = time.perf_counter()
        elif msg.get("id") == payload["id"]:
            if msg["type"] != "ack":
                raise RuntimeError(f"game {game_id}: {msg}")
            reply = msg
        elif msg["type"] == "state" and reply is not None and msg["version"] >= reply["version"]:
            return reply, msg


async def player(
    run: Run, port: int, user: Any, game_id: int, cookie: str, rng: random.Random
) -> None:
    """One person: a game's turns until the run is over; a game played out
    is followed by a new one (from the next spare position)."""
    await asyncio.sleep(rng.uniform(0, run.think[1]))  # the games began at different times
    while not run.over():
        try:
            sock = await Socket.open(port, f"/ws/games/{game_id}/", cookie)
            sock.start_reader()
            try:
                state = await turns(run, sock, game_id, rng)
            finally:
                await sock.close()
        except (TimeoutError, RuntimeError, ConnectionError, OSError) as exc:
            run.errors.append(f"game {game_id}: {exc!r}")
            return
        if state["status"] == "playing" or not run.spare:
            return
        if state["status"] != "finished":
            run.errors.append(f"game {game_id}: {state['status']}: {state.get('message')}")
            return
        run.finished += 1
        (game_id,) = await asyncio.to_thread(make_games, [user], [run.spare.pop()])


async def turns(run: Run, sock: Socket, game_id: int, rng: random.Random) -> dict[str, Any]:
    """The person's turns on ``sock``'s game until it is over or the run is; its last state."""
    state = await sock.recv_json()
    rolled = time.perf_counter()  # the opening hands the roll to the tutor
    n = 0
    while not run.over() and my_roll(state):
        done_at = rolled + rng.uniform(*run.think)
        planned = learner_steps(state, rng) if run.learner else []
        # The checkers move one step at a time while the person thinks.
        while not state["can_end_turn"] and state["allowed"]:
            await sock.idle(max(0.0, (done_at - time.perf_counter()) * rng.uniform(0.2, 0.5)))
            n += 1
            step = {"type": "step", "id": f"s{n}", "version": state["version"]}
            wanted = planned.pop(0) if planned else None
            allowed: list[dict[str, Any]] = state["allowed"]
            moved = wanted if wanted is not None and wanted in allowed else rng.choice(allowed)
            _, state = await command(sock, run, game_id, {**step, **moved})
        await sock.idle(max(0.0, done_at - time.perf_counter()))
        sent = time.perf_counter()
        n += 1
        end = {"type": "end_turn", "id": f"e{n}", "version": state["version"]}
        reply, state = await command(sock, run, game_id, end)
        answered = time.perf_counter()
        ms = (answered - sent) * 1000
        said = reply.get("tutor") or {}
        at_end = run.block(sent)
        if 0 <= at_end < len(run.levels):
            run.ended[at_end] += 1
        # Timed under one setting: rolled after it was in force, answered before the next.
        same = (
            run.block(rolled) == at_end == run.block(answered)
            and 0 <= at_end < len(run.levels)
            and rolled >= run.settled[at_end] + WARM_SECONDS
        )
        level = run.levels[at_end] if same else ""
        turn = Turn(level, ms, "warning" in said, bool(said.get("unchecked")))
        run.turns.append(turn)
        if "warning" in said:  # read (its words), then 仍然这样走
            worded = await words_of(sock, game_id, reply["version"])
            turn.words_ms = (worded - sent) * 1000
            n += 1
            again = {"type": "end_turn", "id": f"a{n}", "version": state["version"]}
            _, state = await command(sock, run, game_id, {**again, "anyway": True})
        while not my_roll(state) and state["status"] == "playing":
            state = await asyncio.wait_for(
                next_state(sock, state["version"], run, game_id), ANSWER_TIMEOUT
            )
        rolled = time.perf_counter()
    return state


async def words_of(sock: Socket, game_id: int, version: int) -> float:
    """When the words of the warning saved at ``version`` arrived (perf_counter)."""
    while (game_id, version) not in WORDS_AT:
        msg = await asyncio.wait_for(sock.recv_json(), ANSWER_TIMEOUT)
        if msg["type"] == "tutor_words":
            WORDS_AT[(game_id, msg["version"])] = time.perf_counter()
    return WORDS_AT.pop((game_id, version))


async def switcher(run: Run, users: list[Any], meter: _procs.CpuMeter) -> list[dict[str, Any]]:
    """Each block: every player's tutor set, then the CPU and load over it."""
    from accounts.models import Preferences

    def set_level(level: str) -> None:
        Preferences.objects.filter(user__in=users).update(tutor=level)

    blocks = []
    await asyncio.sleep(max(0.0, run.starts[0] - time.perf_counter()))
    for i, level in enumerate(run.levels):
        if i and level != run.levels[i - 1]:
            await asyncio.to_thread(set_level, level)
        run.settled.append(time.perf_counter())
        meter.begin()
        busy, own = _procs.machine_busy(), time.process_time()
        began = time.perf_counter()
        await asyncio.sleep(max(0.0, run.starts[i + 1] - time.perf_counter()))
        seconds = time.perf_counter() - began
        blocks.append(
            {
                "level": level,
                "cpu": meter.spent(),
                "busy": _procs.machine_busy() - busy,
                "bench": time.process_time() - own,  # the clients (this process)
                "seconds": seconds,
                "load": os.getloadavg()[0],
            }
        )
    return blocks


async def play(
    ports: list[int],
    games: list[tuple[Any, int, str]],
    spare: list[tuple[str, list[int]]],
    args: Any,
    meter: _procs.CpuMeter,
) -> tuple[Run, list[dict[str, Any]]]:
    now = time.perf_counter()
    first = now + args.think_range[1] + 2.0  # every socket open, the first turns under way
    levels = [PATTERN[i % len(PATTERN)] for i in range(args.blocks)]
    starts = [first + i * args.block for i in range(len(levels) + 1)]
    run = Run(args.think_range, starts, levels, ended=[0] * len(levels), spare=spare)
    run.learner = args.player == "learner"
    rng = random.Random(args.seed)
    players = [
        # Each game on one server, as the proxy spreads them.
        asyncio.create_task(player(run, port, u, g, c, random.Random(rng.random())))
        for port, (u, g, c) in zip(itertools.cycle(ports), games, strict=False)
    ]
    blocks = await switcher(run, [u for u, _, _ in games], meter)
    await asyncio.gather(*players)
    return run, blocks


def report(run: Run, blocks: list[dict[str, Any]], shape: str, games: int) -> None:
    print(
        f"\n{shape}: {games} games at once, End turn {run.think[0]:g}..{run.think[1]:g} s"
        f" after the roll, {'a learner' if run.learner else 'random'}'s plays;"
        f" {len(blocks)} blocks of {blocks[0]['seconds']:.0f} s"
        f" ({', '.join(b['level'] for b in blocks)})"
    )
    rows: dict[str, dict[str, float]] = {}
    for level in (OFF, ON):
        turns = [t for t in run.turns if t.level == level]
        mine = [b for b in blocks if b["level"] == level]
        ended = sum(run.ended[i] for i, b in enumerate(blocks) if b["level"] == level)
        ms = [t.ms for t in turns]
        cpu: dict[str, float] = {}
        for b in mine:
            for name, spent in b["cpu"].items():
                cpu[name] = cpu.get(name, 0.0) + spent
        per = {name: 1000 * spent / max(ended, 1) for name, spent in cpu.items()}
        label = "tutor off (yardstick)" if level == OFF else f"tutor on ({ON} and worse)"
        seconds = sum(b["seconds"] for b in mine)
        pace = games / (sum(run.think) / 2)
        print(
            f"\n  {label}: {len(ms)} turns timed; {ended / seconds:.1f} End turns a second"
            f" (at most {pace:.0f} if the servers answered at once: the rest is their lag,"
            " the computer's replies included)"
        )
        if not ms:
            continue
        print(
            f"    End turn -> commit or warning: p50 {pct(ms, 0.5):.1f}  p95 {pct(ms, 0.95):.1f}"
            f"  p99 {pct(ms, 0.99):.1f}  max {max(ms):.1f} ms"
        )
        words = [t.words_ms for t in turns if t.words_ms is not None]
        if words:
            print(
                f"    End turn -> the warning's words: p50 {pct(words, 0.5):.1f}"
                f"  p95 {pct(words, 0.95):.1f}  p99 {pct(words, 0.99):.1f}  max {max(words):.1f} ms"
            )
        warned = sum(t.warned for t in turns)
        unchecked = sum(t.unchecked for t in turns)
        print(
            f"    warned {warned} ({100 * warned / len(ms):.1f}%), unchecked (ranking not ready"
            f" in time) {unchecked} ({100 * unchecked / len(ms):.1f}%)"
        )
        print(
            "    servers' CPU per End turn (ms): "
            + ", ".join(f"{k} {v:.1f}" for k, v in per.items())
        )
        rows[level] = {"p95": pct(ms, 0.95), **per}
    seconds = sum(b["seconds"] for b in blocks)
    servers = sum(sum(b["cpu"].values()) for b in blocks)
    busy = sum(b["busy"] for b in blocks)
    bench_cpu = sum(b["bench"] for b in blocks)
    other = max(0.0, busy - servers - bench_cpu)
    print(
        f"\n  machine ({os.cpu_count()} cores): 1-min load {min(b['load'] for b in blocks):.1f}"
        f" to {max(b['load'] for b in blocks):.1f} over the blocks; cores busy"
        f" {busy / seconds:.2f} on average, of which the servers {servers / seconds:.2f},"
        f" this bench's clients {bench_cpu / seconds:.2f}, other work {other / seconds:.2f}"
        f" ({_procs.autogroups_note()})"
    )
    print(f"  games played out (a new one begun) {run.finished}, errors {len(run.errors)}")
    for line in run.errors[:5]:
        print(f"    {line}")
    if OFF in rows and ON in rows:
        on, off = rows[ON], rows[OFF]
        print(
            f"\n  p95 tutor on {on['p95']:.1f} ms against off {off['p95']:.1f} ms"
            f" (ratio {on['p95'] / max(off['p95'], 0.001):.2f});"
            f" target p95 <= 100 ms: {'met' if on['p95'] <= 100 else 'MISSED'}"
        )
        extra = {k: on[k] - off.get(k, 0.0) for k in on if k != "p95"}
        print(
            "  the tutor's extra CPU per turn (on - off, ms): "
            + ", ".join(f"{k} {v:+.1f}" for k, v in extra.items())
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--think", default="2,8", help="seconds from the roll to End turn: low,high"
    )
    parser.add_argument("--block", type=float, default=27.0, help="seconds per block")
    parser.add_argument(
        "--blocks", type=int, default=6, help="blocks (off, on, on, off, off, on ...)"
    )
    parser.add_argument(
        "--player",
        choices=("learner", "random"),
        default="learner",
        help="the person's plays: a learner's (the Beginner's noise) or random legal steps",
    )
    parser.add_argument("--port", type=int, default=8204)
    parser.add_argument(
        "--servers", type=int, default=0, help="daphne processes (default: 2 in production shape)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--procfile", default=str(ROOT / "site" / "Procfile"), help="whose workers to start"
    )
    parser.add_argument(
        "--nice", type=int, default=None, help="the niced workers' nice (default site/Procfile's)"
    )
    args = parser.parse_args()
    args.think_range = tuple(float(x) for x in args.think.split(","))

    var_dir = Path(tempfile.mkdtemp(prefix="shuanglu-bench-tutor-"))
    env = site_env(var_dir)
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.core.cache import cache

    from accounts.models import Preferences

    production = bool(env.get("REDIS_URL"))
    db = django.conf.settings.DATABASES["default"]
    shape = "production shape" if production else "zero set-up"
    print(f"{shape}: database {db['ENGINE'].rsplit('.', 1)[-1]}, load {os.getloadavg()}")
    players = make_players(args.games)
    users, cookies = [u for u, _ in players], [c for _, c in players]
    Preferences.objects.filter(user__in=users).update(tutor=PATTERN[0])
    made = positions(2 * args.games, args.seed)
    game_ids = make_games(users, made[: args.games])
    if production:
        cache.clear()  # the bench's own Redis database: no ranking left from a run before
    # As ./dev prod runs the site: one daphne per core (WEB_PROCESSES, 2);
    # zero set-up is one process (its channel layer and cache are its own).
    servers = args.servers or (2 if production else 1)
    ports = [args.port + i for i in range(servers)]
    daphnes = _procs.start_daphnes(env, ports, var_dir)
    workers = []
    if production:  # as site/Procfile starts them
        for spec in _procs.procfile_workers(Path(args.procfile)):
            if args.nice is not None and spec["nice"]:
                spec["nice"] = args.nice
            log = var_dir / f"{spec['name']}.log"
            workers.append(_procs.start_worker(env, log, **spec))

    def groups() -> dict[str, list[int]]:
        found = {"daphne": [p.pid for p in daphnes]}
        if workers:
            found["workers"] = [w.pid for w in workers]
        return found

    meter = _procs.CpuMeter(groups)
    try:
        run, blocks = asyncio.run(
            play(
                ports,
                list(zip(users, game_ids, cookies, strict=True)),
                made[args.games :],
                args,
                meter,
            )
        )
    finally:
        _procs.stop([*daphnes, *workers])
    report(run, blocks, shape, args.games)


if __name__ == "__main__":
    main()
