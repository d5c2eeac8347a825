"""Why a step was refused, in words, in the active language: every
``RefusalCode`` phrased once, for the live game, the board and the learning pages.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy, pgettext

from games.engine import Refusal, RefusalCode

# Each code's sentence, filled in from the refusal's params (the engine's,
# games/engine/turn.py); a plural one is chosen by the count ``n``.
_SENTENCES: dict[RefusalCode, Promise] = {
    RefusalCode.NO_CHECKER: gettext_lazy("You have no checker on point %(point)s."),
    RefusalCode.MUST_ENTER_FIRST: ngettext_lazy(
        "You have %(n)d checker on the bar: enter it before moving any other.",
        "You have %(n)d checkers on the bar: enter them before moving any other.",
        "n",
    ),
    RefusalCode.POINT_BLOCKED: ngettext_lazy(
        "Point %(point)s is blocked: the computer has %(n)d checker there.",
        "Point %(point)s is blocked: the computer has %(n)d checkers there.",
        "n",
    ),
    RefusalCode.BEAR_OFF_OUTSIDE: ngettext_lazy(
        "You cannot bear off yet: %(n)d checker is still outside your home board"
        " (points %(points)s).",
        "You cannot bear off yet: %(n)d checkers are still outside your home board"
        " (points %(points)s).",
        "n",
    ),
    RefusalCode.BEAR_OFF_NOT_HIGHEST: gettext_lazy(
        "A %(die)s may bear off a checker from a lower point only when none is"
        " higher; you still have a checker on point %(highest)s, move that first."
    ),
    RefusalCode.MUST_USE_BOTH: gettext_lazy(
        "That step would leave your %(die)s unplayable; both dice must be used when they can be."
    ),
    RefusalCode.MUST_USE_LARGER: gettext_lazy(
        "Only one die can be played, so it must be the larger one (%(larger)s, not %(smaller)s)."
    ),
    RefusalCode.NO_SUCH_DIE: gettext_lazy(
        "No remaining die moves %(distance)s points (dice left: %(remaining)s)."
    ),
    RefusalCode.WRONG_DIRECTION: gettext_lazy(
        "Checkers move from higher points to lower ones: %(src)s to %(dst)s goes backwards."
    ),
    RefusalCode.TURN_COMPLETE: gettext_lazy("Your dice are used up: end the turn or undo a step."),
    RefusalCode.NOTHING_TO_UNDO: gettext_lazy("There is no step to undo."),
}
# The param that counts the checkers of a plural sentence.
_COUNTS = {
    RefusalCode.MUST_ENTER_FIRST: "on_bar",
    RefusalCode.POINT_BLOCKED: "count",
    RefusalCode.BEAR_OFF_OUTSIDE: "count",
}


def describe_refusal(refusal: Refusal) -> str:
    """The reason for ``refusal`` as a sentence in the active language."""
    code = RefusalCode(refusal.code)
    sentence = _SENTENCES.get(code)
    if sentence is None:  # a code added to the engine but not phrased yet
        return _("That step is not allowed.")
    values = {key: _listed(value) for key, value in refusal.params.items()}
    if code in _COUNTS:
        values["n"] = int(values[_COUNTS[code]])
    return str(sentence % values)


def _listed(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return pgettext("list separator", ", ").join(str(v) for v in value)
    return value
