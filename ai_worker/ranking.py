"""The seam between the analysis and the evaluator: what a ranking gives.

``ai_worker.evaluator.rank_plays`` is the real ranking; tests and benchmarks
may pass any function of the same shape (``RankFn``). A ranking takes the
cube and the score (``context``, ``ai_worker.context``): its equities are
then in the judgement unit (cubeful money equity per cube, or normalized
money equivalents at the match score), cubeless without one. One ranking
serves the review, the hints, the tutor, practice and the analysis board,
so a play is judged the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ai_worker.context import CubeContext
from games.engine import Dice, Play, Position


class Probs(Protocol):
    @property
    def win(self) -> float: ...

    @property
    def win_gammon(self) -> float: ...

    @property
    def win_backgammon(self) -> float: ...

    @property
    def lose_gammon(self) -> float: ...

    @property
    def lose_backgammon(self) -> float: ...


class Ranked(Protocol):
    """What ``ai_worker.evaluator.RankedPlay`` gives: the play and its value."""

    @property
    def play(self) -> Play: ...

    @property
    def equity(self) -> float: ...

    @property
    def probs(self) -> Probs: ...


class RankFn(Protocol):
    """Rank every legal play at ``ply``, best first; ``keep`` (the play made)
    and the ``shown`` best are valued at full depth, each by the same search
    (see ``ai_worker.evaluator.rank_plays``), in ``context``'s unit."""

    def __call__(
        self,
        position: Position,
        dice: Dice,
        ply: int,
        keep: Play | None = None,
        shown: int = 2,
        context: CubeContext | None = None,
    ) -> Sequence[Ranked]: ...


def default_rank(
    position: Position,
    dice: Dice,
    ply: int,
    keep: Play | None = None,
    shown: int = 2,
    context: CubeContext | None = None,
) -> Sequence[Ranked]:
    from ai_worker.evaluator import rank_plays

    return rank_plays(position, dice, ply, keep, shown=shown, context=context)


# The luck table needs only each roll's best play: two searched plays do.
LUCK_WIDTH = 2


def luck_rank(
    position: Position,
    dice: Dice,
    ply: int,
    keep: Play | None = None,
    shown: int = 2,
    context: CubeContext | None = None,
) -> Sequence[Ranked]:
    """``default_rank`` narrowed for the luck table (see ``LUCK_WIDTH``)."""
    from ai_worker.evaluator import rank_plays

    return rank_plays(position, dice, ply, keep, width=LUCK_WIDTH, shown=shown, context=context)
