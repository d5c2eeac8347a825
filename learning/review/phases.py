"""The phase of the game a decision belongs to, for practice and progress.

One rule for the whole study side, checked in this order: the bear-off (all
of the mover's checkers in its home board or off), the race (no more
contact), the opening (the first ``OPENING_TURNS`` turns of the game), else
the middle game. A cube decision (double / no double, take / pass) is the
phase ``CUBE`` of its own: it comes before a roll, so no board rule applies.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from ai_worker.features import position_features
from games.engine import Position

OPENING = "opening"
MIDDLE = "middle"
RACE = "race"
BEAROFF = "bearoff"
CUBE = "cube"
CHECKER_PHASES = (OPENING, MIDDLE, RACE, BEAROFF)  # what ``phase_of`` returns
PHASES = (*CHECKER_PHASES, CUBE)
# Three rolls a side: past them the opening book no longer decides the play.
OPENING_TURNS = 6

PHASE_LABELS: dict[str, Promise] = {
    OPENING: pgettext_lazy("game phase", "Opening"),
    MIDDLE: pgettext_lazy("game phase", "Middle game"),
    RACE: pgettext_lazy("game phase", "Race"),
    BEAROFF: pgettext_lazy("game phase", "Bear-off"),
    CUBE: pgettext_lazy("game phase", "Cube decisions"),
}


def phase_of(position: Position, turn_number: int) -> str:
    """The phase of a checker play from ``position`` (the mover's side) on that turn.

    >>> phase_of(Position.start(), 1)
    'opening'
    >>> phase_of(Position.start(), 9)
    'middle'
    """
    if not any(position.me[6:]):
        return BEAROFF
    if not position_features(position).contact:
        return RACE
    if turn_number <= OPENING_TURNS:
        return OPENING
    return MIDDLE
