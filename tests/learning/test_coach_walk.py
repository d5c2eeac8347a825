"""The walk of End turn with a warning (docs/architecture.md §2), traced: every
function of the site the server enters from the frame's arrival to the ack,
on the event loop and the sockets' database threads.

What it holds: the warning's words are not made before the ack; the writer
reaches ``learning`` and ``ai_worker`` only through the judge ``learning``
installed (``games.tutor.judge`` / ``ranking``) and the signals sent after
commit, never a Signal answered inside the command; nothing raises to be
run again; and the coach adds few files to the End turn's own walk (the same
trace with the tutor off, the play committed).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import Preferences
from games import services
from games.engine import Position
from learning import tutor
from runtime import dbthreads
from tests.games.fixtures_sockets import TIMEOUT, connect_socket

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_cache", "held_computer_turns"),
]

# The words: none of these is entered before the ack.
WORDS = (
    "learning/words/",
    "learning/review/",
    "ai_worker/features.py",
    "ai_worker/attribution.py",
    "ai_worker/candidates.py",
    "ai_worker/explain.py",
    "ai_worker/versus.py",
)
# Where no exception may be raised on the walk: the socket, the writer, the
# seam and the judge (the old walk unwound the writer by one to run it again).
NO_RAISE = (
    "games/live/consumers.py",
    "games/live/commands.py",
    "games/services/",
    "games/tutor.py",
    "learning/",
    "ai_worker/",
)
# Where games may call up into learning or ai_worker: the judge installed at
# start-up, and the signals sent once the transaction has committed.
WAYS_UP = {("games/tutor.py", "judge"), ("games/tutor.py", "ranking")}
AFTER_COMMIT = ("games/services/rows.py", "<lambda>")


class Walk:
    """The site's functions entered, by file, and each call from games up a floor."""

    def __init__(self) -> None:
        self.files: dict[str, set[str]] = {}
        self.up: set[tuple[str, str]] = set()
        self.raised: list[tuple[str, str]] = []

    def outside_engine(self) -> set[str]:
        return {name for name in self.files if not name.startswith("games/engine/")}


def site_file(frame: Any) -> str | None:
    name = frame.f_code.co_filename
    root = f"{ROOT}/"
    if not name.startswith(root) or "/.venv/" in name or "/tests/" in name:
        return None
    return str(name[len(root) :])


def caller_in_site(frame: Any) -> tuple[str, str] | None:
    """The nearest frame of the site's below ``frame`` (its caller, maybe through a library)."""
    back = frame.f_back
    while back is not None:
        name = site_file(back)
        if name is not None:
            return name, back.f_code.co_name
        back = back.f_back
    return None


@contextmanager
def traced() -> Iterator[Walk]:
    """The walk of the command's own threads: the event loop and the sockets' database threads."""
    walk = Walk()

    def seen(frame: Any, event: str, arg: Any) -> Any:
        thread = threading.current_thread().name
        if thread != "MainThread" and not thread.startswith("game-db"):
            return None
        name = site_file(frame)
        if name is None:
            return None
        if event == "call":
            walk.files.setdefault(name, set()).add(frame.f_code.co_name)
            if name.startswith(("learning/", "ai_worker/")):
                caller = caller_in_site(frame)
                if caller is not None and caller[0].startswith(("games/", "accounts/")):
                    walk.up.add(caller)
        elif event == "exception" and name.startswith(NO_RAISE):
            if not issubclass(arg[0], (StopIteration, GeneratorExit)):
                walk.raised.append((name, frame.f_code.co_name))
        return seen

    dbthreads.close()  # its threads start anew, traced
    threading.settrace(seen)
    sys.settrace(seen)
    try:
        yield walk
    finally:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        dbthreads.close()  # its traced threads go


@database_sync_to_async
def played(user: Any, level: str, steps: list[tuple[int, int]]) -> Any:
    Preferences.objects.update_or_create(
        user=user, defaults={"tutor": level, "auto_end_turn": False}
    )
    game = services.start_game_from(user, "casual", Position.start(), dice=[3, 1])
    tutor.prepare(game.pk, game.version)  # the ranking, made while the person thinks
    for src, dst in steps:
        game = services.make_step(game.pk, user, game.version, src, dst)
    return game


async def end_turn_walk(user: Any, level: str, steps: list[tuple[int, int]]) -> tuple[Walk, Any]:
    game = await played(user, level, steps)
    socket, state = await connect_socket(game.pk, user)
    # A stale command first: the socket's session is checked by then.
    await socket.send_json_to({"type": "undo", "id": "u0", "version": -1})
    assert (await socket.receive_json_from(TIMEOUT))["code"] == "stale"
    await socket.receive_json_from(TIMEOUT)
    with traced() as walk:
        await socket.send_json_to({"type": "end_turn", "id": "e1", "version": state["version"]})
        reply = await socket.receive_json_from(TIMEOUT)
    await socket.disconnect()
    return walk, reply


async def test_end_turn_with_a_warning_makes_no_words_and_climbs_only_through_the_judge(
    user: Any,
) -> None:
    walk, reply = await end_turn_walk(user, "bad", [(13, 10), (6, 5)])
    assert reply["type"] == "ack" and reply["tutor"]["warning"]["error"] == "very_bad"
    assert reply["tutor"]["warning"]["words"] == {}
    entered = walk.outside_engine()
    assert not [name for name in entered if name.startswith(WORDS)], sorted(entered)
    assert walk.up <= {*WAYS_UP, AFTER_COMMIT}, walk.up
    assert walk.up & WAYS_UP, "the writer asked the judge"
    # learning's files entered: the judge, and the words job queued after commit.
    assert {n for n in entered if n.startswith("learning/")} == {
        "learning/tutor.py",
        "learning/receivers.py",
        "learning/tasks.py",
    }
    assert "games/signals.py" not in entered
    # No exception in the socket, the writer, the seam or the judge (none
    # raised to be caught and the command run again).
    assert walk.raised == []
    for name in sorted(walk.files):  # the walk, for docs/architecture.md §2 (-s)
        print(name, sorted(walk.files[name]))


async def test_the_coach_adds_few_files_to_the_end_turns_own_walk(user: Any) -> None:
    warned, _reply = await end_turn_walk(user, "bad", [(13, 10), (6, 5)])
    plain, reply = await end_turn_walk(user, "off", [(13, 10), (6, 5)])
    assert "tutor" not in reply
    coach = warned.outside_engine() - plain.outside_engine()
    # The seam and the writer's record (games/tutor.py, games/services/coach.py
    # enter the plain walk too, to read the level), the judge and its two
    # reads, the words job's receiver, task and its queueing (with a broker,
    # through Celery's router in config/celery.py; without, runtime.inprocess).
    assert coach <= {
        "config/celery.py",
        "runtime/inprocess.py",
        "ai_worker/dispatch.py",
        "learning/tutor.py",
        "ai_worker/rank_cache.py",
        "ai_worker/context.py",  # the ranking's key holds its unit (issue 44)
        "ai_worker/grading.py",
        "learning/receivers.py",
        "learning/tasks.py",
    }, sorted(coach)
    print(
        f"\nEnd turn walk, site files outside games/engine/: warned {len(warned.outside_engine())}"
        f" (with the engine {len(warned.files)}), tutor off {len(plain.outside_engine())}"
        f" (with the engine {len(plain.files)}); the coach's own: {sorted(coach)}"
    )
