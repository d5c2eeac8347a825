"""教练模式, the services' side: a decision checked before it is committed
(docs/interfaces.md §6, the tutor: which services ask, the verdict, the
warning stored and its pending panel, 仍然这样走).

The check is in the service, not the page: a second tab, or the page
reloaded while the warning shows, is warned again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from accounts.preferences import tutor_level
from games.models import Game, Status
from games.signals import person_to_decide, tutor_check

# The error classes the tutor warns of, the least first (ai_worker.grading's).
LEVELS = ("doubtful", "bad", "very_bad")
OFF = "off"
WAIT_SECONDS = 1.0
# The socket asks the cache for a late ranking after 20 ms, then twice as
# long each time up to 200 ms: a ranking about to land is seen at once (a
# fixed 200 ms added up to that to a checked End turn), one that does not
# come costs 8 asks in the second, not 50 (each a thread hop and a Redis
# round trip: bench/tutor.py).
POLL_SECONDS = 0.02
POLL_MAX_SECONDS = 0.2

# How ``check`` waits for a ranking not there yet (``waiting``): WAIT, in
# the calling thread for up to WAIT_SECONDS (a service called directly);
# DEFER, not at all: ``RankingNotReadyError``, and the socket asks again off
# the database thread (games.live.consumers); NOW, not at all: unchecked.
WAIT, DEFER, NOW = "wait", "defer", "now"
_mode: ContextVar[str] = ContextVar("tutor_wait_mode", default=WAIT)


class RankingNotReadyError(Exception):
    """The decision's ranking is not there yet (``DEFER``): nothing was
    written; ``key`` is its cache entry, to wait for before asking again."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@contextmanager
def waiting(mode: str) -> Iterator[None]:
    """``check`` inside waits for its ranking as ``mode`` says."""
    token = _mode.set(mode)
    try:
        yield
    finally:
        _mode.reset(token)


# What the person did after a warning (``tutor_warnings[i]["outcome"]``).
PENDING = "pending"  # the warning shows; nothing committed yet
OVERRIDDEN = "overridden"  # 仍然这样走: committed as it was
CHANGED = "changed"  # undone and played otherwise (or acted otherwise)


@dataclass(frozen=True, slots=True)
class Decision:
    """What is about to be committed: a play or a cube action of LIGHT's."""

    kind: str  # "play" or "cube"
    position_id: str  # LIGHT's position before the decision
    dice: tuple[int, int] | None = None  # a play's roll
    result_id: str = ""  # a play's position after it (the mover's side)
    notation: str = ""  # a play's, in LIGHT's numbering
    action: str = ""  # a cube action: no_double, double, take, pass


@dataclass(frozen=True, slots=True)
class Verdict:
    """The tutor's judgement: ``ready`` False when the ranking was not there in time."""

    ready: bool
    key: str = ""  # not ready: the cache entry its ranking will be in
    error: str = "none"
    lost: float = 0.0
    best: str = ""  # the best play's notation, or the right cube action
    # The panel's words, in the active language: made only for a warning
    # shown (the reasons weighed by share cost tens of ms; bench/tutor.py),
    # not for an error under the person's level nor one played anyway.
    words: Callable[[], dict[str, Any]] = dict


def level_of(game: Game) -> str:
    return tutor_level(game.owner_id)


def on_for(game: Game) -> bool:
    return level_of(game) != OFF


def ask(game: Game, version: int) -> None:
    """Hand the person's decision at ``version`` to the tutor's ranking
    (``person_to_decide``); a roll to play goes with its position and dice,
    so that its ranking reads no row."""
    roll = game.dice if game.status == Status.PLAYING else None
    position_id = game.position_id if roll else ""
    person_to_decide.send(
        sender=Game, game_id=game.pk, version=version, position_id=position_id, dice=roll
    )


def warns(level: str, error: str) -> bool:
    """Whether an ``error`` class reaches the person's ``level``."""
    if level not in LEVELS or error not in LEVELS:
        return False
    return LEVELS.index(error) >= LEVELS.index(level)


def check(game: Game, decision: Decision, *, anyway: bool = False) -> bool:
    """True if ``decision`` may be committed now; False if it is warned of.

    Either way the game's ``tutor_warnings`` are kept up to date, and what
    the command's reply is to say is left in ``game.tutor_reply`` (the
    warning, or that the ranking was not ready and the turn went unchecked,
    with the command 仍然这样走 sends).
    """
    game.__dict__.pop("tutor_reply", None)
    level = level_of(game)
    if level == OFF:
        return True
    mode = _mode.get()
    verdict = _verdict(game, decision, 0.0)
    if not verdict.ready and verdict.key and mode != NOW:
        # Nothing may be ranking it (the tutor switched on mid-turn, a lost
        # message, an evicted entry): it is asked for now, then waited for.
        ask(game, game.version)
        if mode == DEFER:
            raise RankingNotReadyError(verdict.key)
        verdict = _verdict(game, decision, WAIT_SECONDS)
    game.tutored = True
    number = _decision_number(game)
    command = "end_turn" if decision.kind == "play" else ANYWAY_COMMANDS[decision.action]
    if not verdict.ready:
        message = _("The tutor's ranking was not ready in time: this went unchecked.")
        game.__dict__["tutor_reply"] = {"unchecked": True, "message": message, "command": command}
        return True
    if not warns(level, verdict.error):
        _settle(game, number, decision.kind, CHANGED)
        return True
    entry = _entry(game, number, decision, verdict)
    if anyway:
        _record(game, {**entry, "outcome": OVERRIDDEN})
        return True
    # The panel is kept with the warning while it is pending, at the version
    # the command saves (every state at that version shows it).
    version, words = game.version + 1, verdict.words()
    panel = {"version": version, "command": command, "words": words}
    _record(game, {**entry, "outcome": PENDING, **panel})
    game.__dict__["tutor_reply"] = {"warning": words, "version": version, "command": command}
    return False


def pending_warning(game: Game) -> dict[str, Any] | None:
    """The state's ``tutor`` (docs/interfaces.md §6): the last warning, if
    still pending at the version it was saved at, as the reply had it."""
    warnings = game.tutor_warnings
    if not warnings:
        return None
    last = warnings[-1]
    if last.get("outcome") != PENDING or last.get("version") != game.version:
        return None
    return {"warning": last["words"], "version": last["version"], "command": last["command"]}


# The command that sends a decision again with "anyway" (仍然这样走): a play
# is committed by End turn (also when its last step was to end the turn).
ANYWAY_COMMANDS = {"no_double": "roll", "double": "double", "take": "take", "pass": "pass"}
# What a pending warning keeps for its panel; dropped once it is settled.
PANEL_KEYS = ("version", "command", "words")


def reply_of(game: Game) -> dict[str, Any] | None:
    """What the command that ran on ``game`` is to tell the page of the tutor."""
    reply: dict[str, Any] | None = game.__dict__.get("tutor_reply")
    return reply


def _verdict(game: Game, decision: Decision, wait: float) -> Verdict:
    answers = tutor_check.send(sender=Game, game=game, decision=decision, wait=wait)
    for _receiver, answer in answers:
        if isinstance(answer, Verdict):
            return answer
    return Verdict(ready=False)


def _decision_number(game: Game) -> int:
    """The number of the Turn the decision comes before (or is)."""
    last = game.last_turn
    return (int(last["number"]) if last else 0) + 1


def _entry(game: Game, number: int, decision: Decision, verdict: Verdict) -> dict[str, Any]:
    return {
        "turn": number,
        "kind": decision.kind,
        "dice": list(decision.dice) if decision.dice else None,
        "played": decision.notation or decision.action,
        "best": verdict.best,
        "error": verdict.error,
        "lost": round(verdict.lost, 4),
    }


def _record(game: Game, entry: dict[str, Any]) -> None:
    """Store ``entry``, replacing the pending warning of the same decision;
    one pending of another play of the same turn was followed (``CHANGED``)."""
    kept = []
    for w in game.tutor_warnings:
        if _pending_of(w, entry["turn"], entry["kind"]):
            if w.get("played") == entry["played"]:
                continue
            w = _settled(w, CHANGED)
        kept.append(w)
    game.tutor_warnings = [*kept, entry]


def _settle(game: Game, number: int, kind: str, outcome: str) -> None:
    """A decision committed unwarned after a warning of the same turn: followed."""
    if not any(_pending_of(w, number, kind) for w in game.tutor_warnings):
        return
    game.tutor_warnings = [
        _settled(w, outcome) if _pending_of(w, number, kind) else w for w in game.tutor_warnings
    ]


def _pending_of(warning: dict[str, Any], number: int, kind: str) -> bool:
    return (
        warning.get("outcome") == PENDING
        and warning.get("turn") == number
        and warning.get("kind") == kind
    )


def _settled(warning: dict[str, Any], outcome: str) -> dict[str, Any]:
    """``warning`` with what the person did, without its panel (kept small)."""
    kept = {k: v for k, v in warning.items() if k not in PANEL_KEYS}
    return {**kept, "outcome": outcome}
