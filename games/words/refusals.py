"""Why a step was refused, in words, in the active language.

``describe_refusal`` is shared by the live game, the board and the learning
pages, so every ``RefusalCode`` is phrased once, here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine import Refusal, RefusalCode


def _points(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return pgettext("list separator", ", ").join(str(v) for v in value)
    return str(value)


def _no_checker(p: Mapping[str, Any]) -> str:
    return _("You have no checker on point %(point)s.") % {"point": p.get("point", "?")}


def _must_enter_first(p: Mapping[str, Any]) -> str:
    n = int(p.get("on_bar", 1))
    return ngettext(
        "You have %(n)d checker on the bar: enter it before moving any other.",
        "You have %(n)d checkers on the bar: enter them before moving any other.",
        n,
    ) % {"n": n}


def _point_blocked(p: Mapping[str, Any]) -> str:
    n = int(p.get("count", 2))
    return ngettext(
        "Point %(point)s is blocked: the computer has %(n)d checker there.",
        "Point %(point)s is blocked: the computer has %(n)d checkers there.",
        n,
    ) % {"point": p.get("point", "?"), "n": n}


def _bear_off_outside(p: Mapping[str, Any]) -> str:
    n = int(p.get("count", 1))
    return ngettext(
        "You cannot bear off yet: %(n)d checker is still outside your home board"
        " (points %(points)s).",
        "You cannot bear off yet: %(n)d checkers are still outside your home board"
        " (points %(points)s).",
        n,
    ) % {"n": n, "points": _points(p.get("points", ()))}


def _bear_off_not_highest(p: Mapping[str, Any]) -> str:
    return _(
        "A %(die)s may bear off a checker from a lower point only when none is"
        " higher; you still have a checker on point %(highest)s, move that first."
    ) % {"die": p.get("die", "?"), "highest": p.get("highest", "?")}


def _must_use_both(p: Mapping[str, Any]) -> str:
    return _(
        "That step would leave your %(die)s unplayable; both dice must be used when they can be."
    ) % {"die": p.get("die", "?")}


def _must_use_larger(p: Mapping[str, Any]) -> str:
    return _(
        "Only one die can be played, so it must be the larger one (%(larger)s, not %(smaller)s)."
    ) % {"larger": p.get("larger", "?"), "smaller": p.get("smaller", "?")}


def _no_such_die(p: Mapping[str, Any]) -> str:
    return _("No remaining die moves %(distance)s points (dice left: %(remaining)s).") % {
        "distance": p.get("distance", "?"),
        "remaining": _points(p.get("remaining", ())),
    }


def _wrong_direction(p: Mapping[str, Any]) -> str:
    return _(
        "Checkers move from higher points to lower ones: %(src)s to %(dst)s goes backwards."
    ) % {"src": p.get("src", "?"), "dst": p.get("dst", "?")}


def _turn_complete(p: Mapping[str, Any]) -> str:
    return _("Your dice are used up: end the turn or undo a step.")


def _nothing_to_undo(p: Mapping[str, Any]) -> str:
    return _("There is no step to undo.")


_PHRASES: dict[RefusalCode, Callable[[Mapping[str, Any]], str]] = {
    RefusalCode.NO_CHECKER: _no_checker,
    RefusalCode.MUST_ENTER_FIRST: _must_enter_first,
    RefusalCode.POINT_BLOCKED: _point_blocked,
    RefusalCode.BEAR_OFF_OUTSIDE: _bear_off_outside,
    RefusalCode.BEAR_OFF_NOT_HIGHEST: _bear_off_not_highest,
    RefusalCode.MUST_USE_BOTH: _must_use_both,
    RefusalCode.MUST_USE_LARGER: _must_use_larger,
    RefusalCode.NO_SUCH_DIE: _no_such_die,
    RefusalCode.WRONG_DIRECTION: _wrong_direction,
    RefusalCode.TURN_COMPLETE: _turn_complete,
    RefusalCode.NOTHING_TO_UNDO: _nothing_to_undo,
}


def describe_refusal(refusal: Refusal) -> str:
    """The reason for ``refusal`` as a sentence in the active language."""
    phrase = _PHRASES.get(RefusalCode(refusal.code))
    if phrase is None:  # a code added to the engine but not phrased yet
        return _("That step is not allowed.")
    return phrase(refusal.params)


def refusal_params_json(refusal: Refusal) -> dict[str, Any]:
    """The refusal's parameters as JSON-ready values (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dict(refusal.params).items()}
