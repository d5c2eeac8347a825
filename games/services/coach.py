"""教练模式 in the writer: a decision checked before it is committed, the
verdict recorded on the row like any other state (docs/interfaces.md §6).

``check`` asks the one judge (``games.tutor.judge``, installed by
``learning``) for the verdict of the ranking as it is, and records it in
``Game.tutor_warnings``: a warning pending at the version the command saves
(the decision is not committed), 仍然这样走, a warning followed, or that
there was no ranking to check against. It never waits: a ranking that is not
there yet is waited for before the command runs (``ranking_awaited``, asked
by the socket). The warning's words are made after commit, as a job
(``rows.after_commit`` sends ``tutor_warned``), and stored by ``word_warning``.

The check is in the service, not the page: a second tab, or the page
reloaded while the warning shows, is warned again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from accounts.preferences import board_prefs
from games import tutor
from games.engine import IllegalStepError
from games.models import Game, Status
from games.reading import current_turn, person_deciding
from games.services import store
from games.services.rows import lock, peek_held
from games.tutor import CHANGED, OVERRIDDEN, PENDING, UNCHECKED, Decision, Verdict

# What a pending warning keeps for its panel; dropped once it is settled.
PANEL_KEYS = ("version", "command", "words", "best_steps")


def check(game: Game, decision: Decision, *, anyway: bool = False) -> bool:
    """True if ``decision`` may be committed now; False if it is warned of
    (the command then saves only the warning). Either way ``tutor_warnings``
    are kept up to date."""
    level = tutor.level_of(game)
    if level == tutor.OFF:
        return True
    verdict = tutor.judge(game, decision)
    game.tutored = True
    number = _decision_number(game)
    command = "end_turn" if decision.kind == "play" else tutor.ANYWAY_COMMANDS[decision.action]
    # Every state at the version the command saves shows what came of it.
    shown = {"version": game.version + 1, "command": command}
    if not verdict.ready:
        played = decision.notation or decision.action
        entry = {"turn": number, "kind": decision.kind, "played": played}
        _record(game, {**entry, "outcome": UNCHECKED, **shown})
        return True
    if not tutor.warns(level, verdict.error):
        _settle(game, number, decision.kind, CHANGED)
        return True
    entry = _entry(number, decision, verdict)
    if anyway:
        _record(game, {**entry, "outcome": OVERRIDDEN})
        return True
    _record(game, {**entry, "outcome": PENDING, **shown, "best_steps": list(verdict.best_steps)})
    return False


def word_warning(game_id: int, version: int, words: dict[str, dict[str, Any]]) -> bool:
    """Store the words (by language) of the warning pending at ``version``;
    False, nothing written, once the game moved on. The version does not
    change (the words are pushed to the page as an event, like a hint)."""
    with transaction.atomic():
        game = lock(game_id)
        if game.version != version or not tutor.unworded(game):
            return False
        warnings = list(game.tutor_warnings)
        warnings[-1] = {**warnings[-1], "words": words}
        game.tutor_warnings = warnings
        store.update(game, ["tutor_warnings", "updated_at"])
        return True


def ranking_awaited(
    game_id: int, version: int, kind: str, args: dict[str, Any]
) -> Callable[[], bool] | None:
    """What the socket is to wait for before it runs the command ``kind``
    made on ``version``: the tutor's ranking of the decision it would commit,
    when the tutor is on and it is not there yet (asked for again: nothing
    may be ranking it, the tutor switched on mid-turn, a lost message). None
    when there is nothing to wait for. Reads, writes nothing."""
    game = peek_held(game_id, version) or store.game(game_id)
    if game.version != version or not person_deciding(game, mid_turn=True):
        return None
    if not _commits(game, kind, args) or not tutor.on_for(game):
        return None
    if kind == "step" and not board_prefs(game.owner).get("auto_end_turn", True):
        return None  # the step that uses the dice does not end the turn
    look = tutor.ranking(game)
    if look is not None:
        tutor.ask(game, version)
    return look


def _commits(game: Game, kind: str, args: dict[str, Any]) -> bool:
    """Whether ``kind`` would commit the person's decision now, but for the
    automatic end of the turn, asked last (the writer decides for good; this
    only says whether to wait)."""
    if kind not in tutor.CHECKED_COMMANDS or args.get("anyway"):
        return False
    if game.status in (Status.DECIDING, Status.DOUBLED):
        return kind in tutor.ANYWAY_COMMANDS.values()
    if kind == "end_turn":
        return current_turn(game).complete
    if kind != "step":
        return False
    try:
        return current_turn(game).step(args["src"], args["dst"], args.get("die")).complete
    except IllegalStepError:
        return False


def _decision_number(game: Game) -> int:
    """The number of the Turn the decision comes before (or is)."""
    last = game.last_turn
    return (int(last["number"]) if last else 0) + 1


def _entry(number: int, decision: Decision, verdict: Verdict) -> dict[str, Any]:
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
