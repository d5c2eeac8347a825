"""Make a network's chances consistent with the position they describe.

Neural networks now and then say things the board rules out: gammons for a
side whose opponent has already borne a checker off, a backgammon where no
checker is left to be caught, a "92% gammon" in a race the mover wins by one
point on every roll. GNU Backgammon cleans every evaluation with its
``SanityCheck``; ``sane_probs`` does the same job for bgsage's output, with
its own provable bounds:

- every chance inside [0, 1]; gammons ≤ wins, backgammons ≤ gammons;
- no gammon (nor backgammon) for a side whose opponent has borne off;
- in a race (no contact) no backgammon for a side when no opponent checker is
  left in its home board;
- in a race, a certain win (or loss) when the slower side cannot finish
  before the faster one on any dice, counted in rolls: at least
  ``min_rolls`` (the pips at 24 a roll, the checkers at 4 a roll), at most
  ``max_rolls`` (every roll moves at least two pips until the last checker
  is off).

The chances are those of the side that just moved, before the opponent's
roll (bgsage's post-move convention), so the opponent rolls first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil

from ai_worker.features import Board, has_contact


@dataclass(frozen=True, slots=True)
class Probs:
    """Win, gammon and backgammon chances of the side that just moved."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def equity(self) -> float:
        """Cubeless money equity: one point a win, two a gammon, three a backgammon."""
        return (
            2.0 * self.win
            - 1.0
            + self.win_gammon
            + self.win_backgammon
            - self.lose_gammon
            - self.lose_backgammon
        )


def _clamp(value: float) -> float:
    value = float(value)
    return 0.0 if value != value else 1.0 if value > 1.0 else value if value > 0.0 else 0.0


def min_rolls(side: tuple[int, ...]) -> int:
    """The fewest rolls that can bear off every checker of ``side`` (its own
    numbering, index 24 its bar): 6-6 moves 24 pips and takes off 4.

    >>> min_rolls((2,) + (0,) * 24), min_rolls((0,) * 5 + (5,) + (0,) * 19)
    (1, 2)
    """
    pips = sum(p * side[p - 1] for p in range(1, 26))
    return max(ceil(pips / 24), ceil(sum(side) / 4))


def max_rolls(side: tuple[int, ...]) -> int:
    """The most rolls bearing off ``side`` can take with no contact: each die
    moves a checker at least one pip (nothing blocks it), so every roll but
    the last removes at least two pips.

    >>> max_rolls((2,) + (0,) * 24), max_rolls((3,) + (0,) * 24)
    (1, 2)
    """
    pips = sum(p * side[p - 1] for p in range(1, 26))
    return ceil(pips / 2)


def sane_probs(board: Board, chances: Probs) -> Probs:
    """``chances`` for the board after a play (mover's side, opponent to roll),
    cleaned of everything the position rules out (see the module docstring).

    >>> from games.engine import Position
    >>> me = (2,) + (0,) * 24            # two checkers on the ace point
    >>> opp = (0,) * 22 + (2, 0, 0)        # two far away, 13 already off
    >>> sane_probs(Position(me, opp), Probs(0.7, 0.9, 0.2, 0.1, 0.0))
    Probs(win=1.0, win_gammon=0.0, win_backgammon=0.0, lose_gammon=0.0, lose_backgammon=0.0)
    """
    me, opp = board.me, board.opp
    race = not has_contact(board)
    facts = (
        sum(me) < 15,
        sum(opp) < 15,
        race and max_rolls(me) < min_rolls(opp),
        race and max_rolls(opp) <= min_rolls(me),
        race and not any(opp[18:25]),
        race and not any(me[18:25]),
    )
    raw = chances
    return Probs(
        *_clean(
            facts,
            (raw.win, raw.win_gammon, raw.win_backgammon, raw.lose_gammon, raw.lose_backgammon),
        )
    )


Chances = tuple[float, float, float, float, float]


def sane_board26(board: Sequence[int], chances: Sequence[float]) -> Chances:
    """``sane_probs`` for bgsage's 26-point board (``ai_worker.evaluator.to_board26``:
    the mover's checkers positive, 25 its bar, 0 the opponent's bar) and its
    five chances (in ``Probs``' order), without building a ``Position`` or a
    ``Probs``: the search cleans every leaf with it.

    >>> board = [0, 2, -2] + [0] * 23   # the same race as above
    >>> sane_board26(board, (0.7, 0.9, 0.2, 0.1, 0.0))
    (1.0, 0.0, 0.0, 0.0, 0.0)
    """
    me = opp = pips = opp_pips = top = 0
    low = 0 if board[0] else 25  # the opponent's rearmost checker, in the mover's numbering
    point = 0
    for n in board[1:25]:
        point += 1
        if n > 0:
            me += n
            pips += point * n
            top = point
        elif n:
            opp -= n
            opp_pips -= (25 - point) * n
            if point < low:
                low = point
    if board[25]:
        me += board[25]
        pips += 25 * board[25]
        top = 25
    opp += board[0]
    opp_pips += 25 * board[0]
    race = top <= low
    facts = (
        me < 15,
        opp < 15,
        race and ceil(pips / 2) < max(ceil(opp_pips / 24), ceil(opp / 4)),
        race and ceil(opp_pips / 2) <= max(ceil(pips / 24), ceil(me / 4)),
        race and low > 6,  # no opponent checker in the mover's home board or on the bar
        race and top < 19,
    )
    return _clean(facts, chances)


# What the rules need to know of a position (see the module docstring), in
# this order: the mover has borne off (it cannot lose a gammon), the opponent
# has, a race the mover wins on any dice, one it loses on any dice, a race
# with no opponent checker left in the mover's home board or on the bar (no
# backgammon for the mover), and the same for the opponent.
_Facts = tuple[bool, bool, bool, bool, bool, bool]


def _clean(facts: _Facts, chances: Sequence[float]) -> Chances:
    me_off, opp_off, sure_win, sure_loss, no_win_bg, no_lose_bg = facts
    win, wg, wb, lg, lb = (_clamp(c) for c in chances[:5])
    if opp_off:
        wg = wb = 0.0
    if me_off:
        lg = lb = 0.0
    # The opponent rolls first: its n-th roll comes before the mover's n-th.
    if sure_win:
        win = 1.0
    elif sure_loss:
        win = 0.0
    # Backgammons need a checker left in the winner's home board or bar.
    if no_win_bg:
        wb = 0.0
    if no_lose_bg:
        lb = 0.0
    wg = min(wg, win)
    lg = min(lg, 1.0 - win)
    return (win, wg, min(wb, wg), lg, min(lb, lg))


def settled(board: Board, probs: Probs) -> bool:
    """Whether ``probs`` (already sane) are a certainty: a sure single win or
    loss, which no deeper search can change."""
    if probs.win == 1.0:
        return sum(board.opp) < 15
    if probs.win == 0.0:
        return sum(board.me) < 15
    return False
