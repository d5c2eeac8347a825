"""The computer's turn as plain code: play it, count its attempts, give up, sweep.

``tasks`` (the Celery tasks) and ``watchdog`` (the timer and the loop) both
use this module and neither imports the other's callers: the floors inside
``ai_worker`` are ``turns`` → ``tasks`` → ``watchdog`` → ``receivers``, with
``dispatch`` (generic sending) beside them.

A turn: ``services.computer_due`` says what DARK is to do (play the dice,
rolled and stored as the turn passed, so a retry reuses them; decide on the
cube; answer a double or a resignation), the policy or ``ai_worker.cube``
chooses for the game's tier with noise seeded by the game, and
``services.finish_computer_turn`` / ``finish_computer_cube`` /
``answer_resignation`` apply it with the version check. A
duplicate or stale call changes nothing. Attempts per (game, version) are
counted in the game's row (``services.count_computer_attempt``), so a
restored database never meets counts a kept cache remembers; past
``MAX_ATTEMPTS`` the game is marked failed.

A turn is stuck when DARK has been on turn for ``STUCK_AFTER`` with no move
(the worker died, the message was lost, the broker was down). Each sweep
re-queues it; after ``MAX_REQUEUES`` re-queues, or once its task has started
``MAX_ATTEMPTS`` times, the game is marked failed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from ai_worker.cube import (
    CubeContext,
    choose_cubeful_play,
    double_decision,
    resign_accepted,
    take_decision,
)
from ai_worker.policy import choose_play
from games import services
from games.models import Game

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 4  # task starts per (game, version), redeliveries included
STUCK_AFTER = timedelta(seconds=60)
# A turn whose task never started while the broker's queue is empty was lost
# with the broker's data (Redis killed and started empty): re-queued after
# this, so with a sweep every 10 s the loss is mended within 25 s.
LOST_AFTER = timedelta(seconds=15)
MAX_REQUEUES = 3


def seed_key(game_id: int) -> str:
    """The noise seed: the same position in the same game gets the same play."""
    return f"game:{game_id}"


def run_computer_turn(
    game_id: int,
    version: int,
    due: services.ComputerDue | None = None,
    read: Game | None = None,
) -> bool:
    """Do what DARK is to do in ``game_id`` at ``version``; True if applied.

    Its checker play, its cube decision before the roll (no double rolls the
    dice: the play is the next version's task), its answer to a double, or
    its answer to a resignation. ``due``: what ``start`` read (else read
    now); ``read``: the row it read, which the finish writes back at that
    version (``services.finish_computer_turn``).
    """
    if due is None:
        due = services.computer_due(game_id, version)
    if due is None:
        return False  # stale or duplicate: the version moved on
    seed = seed_key(game_id)
    if due.task == "resign":
        accept = due.cube is None or resign_accepted(due.position, _context(due), due.offered)
        return services.answer_resignation(game_id, version, accept, read)
    if due.task == "cube":
        decision = double_decision(due.position, _context(due), due.tier, seed)
        return services.finish_computer_cube(game_id, version, decision.action.value, read)
    if due.task == "answer":
        decision = take_decision(due.position, _context(due), due.tier, seed)
        return services.finish_computer_cube(game_id, version, decision.action.value, read)
    assert due.dice is not None
    # The engine and policy's own time for this turn, stored with the turn's
    # counts: bench/live.py takes it out of the reply it measures.
    began = time.perf_counter()
    if due.cube is None:
        play = choose_play(due.position, due.dice, due.tier, seed)
    else:
        play = choose_cubeful_play(due.position, due.dice, _context(due), due.tier, seed)
    engine_ms = 1000 * (time.perf_counter() - began)
    return services.finish_computer_turn(game_id, version, play, read, engine_ms)


def _context(due: services.ComputerDue) -> CubeContext:
    assert due.cube is not None
    return CubeContext(due.cube, due.match, due.mover)


def start(game_id: int, version: int) -> services.ComputerStart:
    """Record one more start of this turn's task and read what it is to do,
    in one locked read (its ``starts`` 0, its ``due`` None for a stale or
    duplicate task, which changes nothing)."""
    return services.start_computer_turn(game_id, version)


def count_attempt(game_id: int, version: int) -> int:
    """Record one more start of this turn's task; returns the count so far
    (0 for a stale or duplicate task, which changes nothing)."""
    return services.count_computer_attempt(game_id, version, "starts")


def attempts(game_id: int, version: int) -> int:
    return services.computer_attempts(game_id, version)["starts"]


def give_up(game_id: int, version: int) -> bool:
    """Mark the game failed (only if still waiting on this very turn)."""
    failed = services.fail_computer_turn(game_id, version)
    if failed:
        log.error("computer turn of game %s v%s failed for good", game_id, version)
    return failed


def sweep(
    requeue: Callable[[int, int], None],
    stuck_after: timedelta = STUCK_AFTER,
    lost_after: timedelta | None = None,
) -> int:
    """Deal with every stuck turn once: ``requeue(game_id, version)`` or fail it.

    With ``lost_after`` (the caller saw the broker's queue empty), a turn
    whose task never started and was never re-queued is re-queued once it
    has waited that long: its message is nowhere to wait in.
    Returns how many were re-queued.
    """
    requeued = 0
    seen: set[int] = set()
    for game_id, version in services.stuck_games(stuck_after):
        seen.add(game_id)
        counts = services.computer_attempts(game_id, version)
        if counts["requeues"] >= MAX_REQUEUES or counts["starts"] >= MAX_ATTEMPTS:
            give_up(game_id, version)
            continue
        services.count_computer_attempt(game_id, version, "requeues")
        log.warning("re-queueing stuck computer turn of game %s v%s", game_id, version)
        requeue(game_id, version)
        requeued += 1
    if lost_after is not None:
        for game_id, version in services.stuck_games(lost_after):
            counts = services.computer_attempts(game_id, version)
            if game_id in seen or counts["starts"] or counts["requeues"]:
                continue
            services.count_computer_attempt(game_id, version, "requeues")
            log.warning("re-queueing lost computer turn of game %s v%s", game_id, version)
            requeue(game_id, version)
            requeued += 1
    return requeued
