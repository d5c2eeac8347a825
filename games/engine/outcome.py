"""Game over: winner, single / gammon / backgammon and the points."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.engine.position import CHECKERS, Position, Side


class ResultKind(enum.StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def points(self) -> int:
        return {"single": 1, "gammon": 2, "backgammon": 3}[self.value]


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: Side
    kind: ResultKind
    points: int


def outcome(position: Position, mover: Side) -> Outcome | None:
    """The result if the game is over; ``position`` is from ``mover``'s side.

    >>> outcome(Position.start(), Side.LIGHT) is None
    True
    >>> won = Position((0,) * 25, (0,) * 5 + (14,) + (0,) * 12 + (1,) + (0,) * 6)
    >>> outcome(won, Side.DARK)
    Outcome(winner=<Side.DARK: 'dark'>, kind=<ResultKind.BACKGAMMON: 'backgammon'>, points=3)
    """
    if sum(position.me) == 0:
        return _result(mover, position.opp)
    if sum(position.opp) == 0:
        return _result(mover.other, position.me)
    return None


def _result(winner: Side, loser: tuple[int, ...]) -> Outcome:
    """``loser`` is the losing side's half, from its own side."""
    if sum(loser) < CHECKERS:
        kind = ResultKind.SINGLE
    elif loser[24] or any(loser[18:24]):
        # The winner's home board is the loser's points 19..24.
        kind = ResultKind.BACKGAMMON
    else:
        kind = ResultKind.GAMMON
    return Outcome(winner, kind, kind.points)
