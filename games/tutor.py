"""教练模式, the seam between the writer and the teacher (docs/interfaces.md
§6, the tutor): the decision about to be committed, the verdict on it, the
one judge that gives it, and the warning as the state shows it.

``learning`` installs the judge at start-up (``LearningConfig.ready``):
``judge(game, decision)`` gives the verdict of a ranking already made, a
lookup that never waits; ``ranking(game)`` says whether the ranking of the
person's open decision is there, and if not, how to look for it. The writer
(``games.services``' coach) records the verdict on the row; the socket waits
for a late ranking before it runs the command (``games.live.consumers``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils.translation import gettext as _

from accounts.preferences import tutor_level
from games.engine import Display, Position
from games.models import Game, Status
from games.signals import person_to_decide

# The error classes the tutor warns of, the least first (ai_worker.grading's).
LEVELS = ("doubtful", "bad", "very_bad")
OFF = "off"
# How long the socket waits for a ranking not there yet before it runs the
# command anyway (then unchecked): it looks after 20 ms, then twice as long
# each time up to 200 ms (a ranking about to land is seen at once, one that
# does not come costs 8 looks in the second: bench/tutor.py).
WAIT_SECONDS = 1.0
POLL_SECONDS = 0.02
POLL_MAX_SECONDS = 0.2

# What the person did after a warning (``tutor_warnings[i]["outcome"]``).
PENDING = "pending"  # the warning shows; nothing committed yet
OVERRIDDEN = "overridden"  # 仍然这样走: committed as it was
CHANGED = "changed"  # undone and played otherwise (or acted otherwise)
UNCHECKED = "unchecked"  # committed with no ranking to check it against

# The command that sends a decision again with "anyway" (仍然这样走): a play
# is committed by End turn (also when its last step was to end the turn).
ANYWAY_COMMANDS = {"no_double": "roll", "double": "double", "take": "take", "pass": "pass"}
# The socket commands that may commit a decision the tutor checks.
CHECKED_COMMANDS = frozenset({"step", "end_turn", *ANYWAY_COMMANDS.values()})


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
    """The judge's answer: ``ready`` False when the ranking is not there."""

    ready: bool
    error: str = "none"
    lost: float = 0.0
    best: str = ""  # the best play's notation, or the right cube action
    # The best play's steps as the board draws them (display numbering).
    best_steps: tuple[dict[str, Any], ...] = field(default=())


class Judge(Protocol):
    """The verdict on ``decision`` from its ranking as it is now (never waits)."""

    def __call__(self, game: Game, decision: Decision) -> Verdict: ...


class Ranking(Protocol):
    """None when the ranking of ``game``'s open decision is there (or there is
    none to make); else a look, callable from any thread, True once it is."""

    def __call__(self, game: Game) -> Callable[[], bool] | None: ...


def _no_judge(game: Game, decision: Decision) -> Verdict:
    return Verdict(ready=False)


def _no_ranking(game: Game) -> Callable[[], bool] | None:
    return None


@dataclass(slots=True)
class _Installed:
    judge: Judge = _no_judge
    ranking: Ranking = _no_ranking


_installed = _Installed()


def install(judge: Judge, ranking: Ranking) -> None:
    """Set the judge (``LearningConfig.ready``; without it nothing is checked)."""
    _installed.judge, _installed.ranking = judge, ranking


def judge(game: Game, decision: Decision) -> Verdict:
    return _installed.judge(game, decision)


def ranking(game: Game) -> Callable[[], bool] | None:
    return _installed.ranking(game)


def level_of(game: Game) -> str:
    return tutor_level(game.owner_id)


def on_for(game: Game) -> bool:
    return level_of(game) != OFF


def warns(level: str, error: str) -> bool:
    """Whether an ``error`` class reaches the person's ``level``."""
    if level not in LEVELS or error not in LEVELS:
        return False
    return LEVELS.index(error) >= LEVELS.index(level)


def ask(game: Game, version: int) -> None:
    """Hand the person's decision at ``version`` to the tutor's ranking
    (``person_to_decide``); a roll of a single game goes with its position
    and dice, so that its ranking reads no row (with the cube, the ranking's
    unit needs the cube and the score: the row is read)."""
    roll = game.dice if game.status == Status.PLAYING and not game.has_cube else None
    position_id = game.position_id if roll else ""
    person_to_decide.send(
        sender=Game, game_id=game.pk, version=version, position_id=position_id, dice=roll
    )


def unworded(game: Game) -> bool:
    """A warning pending at the game's version, its words not made yet."""
    last = game.tutor_warnings[-1] if game.tutor_warnings else None
    return (
        last is not None
        and last.get("outcome") == PENDING
        and last.get("version") == game.version
        and not last.get("words")
    )


def pending_warning(game: Game) -> dict[str, Any] | None:
    """The state's ``tutor`` (docs/interfaces.md §6): what the tutor made of
    the decision of the game's version, read from its last entry: a warning
    still to be answered (its words once they are made, in each language),
    or that the decision went through unchecked. None otherwise."""
    warnings = game.tutor_warnings
    last = warnings[-1] if warnings else None
    if last is None or last.get("version") != game.version:
        return None
    said = {"version": last["version"], "command": last["command"]}
    if last.get("outcome") == UNCHECKED:
        message = _("The tutor's ranking was not ready in time: this went unchecked.")
        return {"unchecked": True, "message": message, **said}
    if last.get("outcome") != PENDING:
        return None
    facts = {k: last[k] for k in ("kind", "error", "lost", "played", "best") if k in last}
    warning = {**facts, "best_steps": last.get("best_steps", []), "words": last.get("words", {})}
    if last.get("kind") == "play":
        # The board as it was before the person's move, where the best play's
        # arrows start (the steps of the move stay on the row).
        before = Display.from_position(Position.from_position_id(game.position_id))
        warning["before"] = before.to_json()
    return {"warning": warning, **said}
