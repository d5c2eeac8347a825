"""An N-ply search whose every node is sane: the endgames bgsage's search misses.

bgsage's own N-ply search (``MultiPlyStrategy``, 2.0.20260907) already
cleans most of its nodes: every leaf and every average goes through its
``clamp_probs_to_board`` (no gammon for a side whose opponent has borne off,
no backgammon in a race with nobody left to catch), and once
``multipy_set_bearoff_db`` is called a bear-off the database covers is its
exact value at any depth. What it does not apply are two of
``ai_worker.sanity``'s rules: gammons ≤ wins, and a race one side wins on
any dice valued as certain. The second is the one that moves values (a
network says "99.6%" where the race is decided), and only in short races:
see ``may_be_decided``. Those positions are searched here, every node cleaned
by ``ai_worker.sanity.sane_board26``; all others by bgsage.

The search is bgsage's: for each of the opponent's 21 rolls it picks the
opponent's best play at 1-ply and values it one ply less, the last ply by
the network. Here every leaf is cleaned before the opponent chooses, every
average is cleaned again, a bear-off in the database is exact at any depth
(the 1-ply strategy is bgsage's ``BearoffStrategy``), and a finished game is
its result. The opponent's plays are bgsage's ``possible_moves``, all of
them valued (bgsage's PubEval pre-filter keeps 15 of more than 20). In a
race this gives bgsage's own values to about 0.001; with contact bgsage's
engine picks its network by each reply's board rather than by the board
before it, and the two searches differ by a few hundredths, which is one
more reason contact stays with bgsage (``bench/analysis.py --audit``).

Boards are bgsage's 26-point lists (``ai_worker.evaluator.to_board26``),
from the side that just moved, opponent to roll; chances are that side's.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil
from typing import Any

from ai_worker.features import has_contact
from ai_worker.sanity import Chances, Probs, min_rolls, sane_board26
from games.engine import ROLLS, Position


def may_be_decided(board: Position, ply: int) -> bool:
    """Whether some node of a ``ply``-deep search from ``board`` (after a
    play, opponent to roll) can be a race decided on any dice, the rule
    bgsage's search does not apply.

    A race stays a race and pips only go down, by at most 24 a roll: within
    the search the opponent rolls ``ply // 2`` times, the mover
    ``(ply - 1) // 2`` times, and a side's fewest rolls to finish
    (``min_rolls``) never grow. A race is decided when one side's most rolls
    (half its pips) do not exceed the other's fewest.

    >>> from games.engine import Position
    >>> short = Position((2,) + (0,) * 24, (0,) * 5 + (3,) + (0,) * 19)
    >>> may_be_decided(short, 2), may_be_decided(Position.start(), 3)
    (True, False)
    """
    if has_contact(board):
        return False
    mine, theirs = board.pips()
    mover_rolls, opp_rolls = (ply - 1) // 2, ply // 2
    return ceil(max(0, mine - 24 * mover_rolls) / 2) <= min_rolls(board.opp) or ceil(
        max(0, theirs - 24 * opp_rolls) / 2
    ) <= min_rolls(board.me)


class SaneSearch:
    """Searches sharing one memory of the nodes seen, as bgsage's position
    cache does: use one for one decision's plays, then drop it."""

    def __init__(self, strategy: Any, db: Any, *, clean: bool = True) -> None:
        """``strategy`` is the 1-ply evaluator (``ai_worker.evaluator``'s
        ``BearoffStrategy``), ``db`` its bear-off database (or ``None``).
        ``clean=False`` runs the same search on the network's raw outputs,
        nothing cleaned: the yardstick for what the cleaning does."""
        import bgbot_cpp

        self._strategy = strategy
        self._db = db
        self._clean = clean
        self._cpp = bgbot_cpp
        self._seen: dict[tuple[tuple[int, ...], int], Chances] = {}

    def probs(self, board: Sequence[int], pre: Sequence[int], ply: int) -> Probs:
        """The chances of the side that just moved to ``board`` from ``pre``,
        searched ``ply`` deep."""
        if ply < 1:
            raise ValueError(f"ply must be at least 1, not {ply}")
        value = self._value(list(board), list(pre), ply)
        return Probs(*(sane_board26(board, value) if self._clean else value))

    def _value(self, board: list[int], pre: list[int], ply: int) -> Chances:
        over = self._cpp.check_game_over(board)
        if over:
            return _finished(over)
        if ply == 1 or self._db is not None and self._db.is_bearoff(board):
            return self._leaf(board, pre)
        key = (tuple(board), ply)
        if key not in self._seen:
            self._seen[key] = self._average(board, ply)
        return self._seen[key]

    def _leaf(self, board: list[int], pre: list[int]) -> Chances:
        raw = self._strategy.evaluate_board(board, pre)["probs"]
        return self._sane(board, (raw[0], raw[1], raw[2], raw[3], raw[4]))

    def _sane(self, board: Sequence[int], chances: Chances) -> Chances:
        return sane_board26(board, chances) if self._clean else chances

    def _average(self, board: list[int], ply: int) -> Chances:
        """The opponent's 21 rolls, each answered by its best play at 1-ply,
        that play valued ``ply - 1`` deep; the weighted mean, cleaned."""
        opp_pre = self._cpp.flip_board(board)
        total = [0.0] * 5
        for d1, d2, weight in ROLLS:
            reply, chances = self._best_reply(opp_pre, d1, d2)
            if ply > 2 and not self._cpp.check_game_over(reply):
                chances = self._value(reply, opp_pre, ply - 1)
            # The opponent's chances, turned back into the mover's.
            mine = (1.0 - chances[0], chances[3], chances[4], chances[1], chances[2])
            for k in range(5):
                total[k] += weight * mine[k]
        return self._sane(
            board, (total[0] / 36, total[1] / 36, total[2] / 36, total[3] / 36, total[4] / 36)
        )

    def replies(self, board: Sequence[int]) -> tuple[list[int], list[list[list[int]]]]:
        """The opponent's side of ``board`` (the side that just moved, opponent
        to roll) and, for each of its 21 rolls (``ROLLS``), its plays:
        ``ai_worker.attribution``'s shots, one roll deeper."""
        opp_pre = self._cpp.flip_board(list(board))
        return opp_pre, [self._cpp.possible_moves(opp_pre, d1, d2) for d1, d2, _w in ROLLS]

    @staticmethod
    def hits(opp_pre: list[int], plays: list[list[int]]) -> bool:
        """Whether one of a roll's ``plays`` puts a checker of the side that
        moved on the bar."""
        return any(reply[0] > opp_pre[0] for reply in plays)

    def reply_equity(self, opp_pre: list[int], plays: list[list[int]]) -> float:
        """The equity of the side that moved after the opponent's best of a
        roll's ``plays`` at 1-ply, as ``_average`` picks it."""
        _reply, chances = self._best_of(plays, opp_pre)
        return -Probs(*chances).equity

    def _best_reply(self, opp_pre: list[int], d1: int, d2: int) -> tuple[list[int], Chances]:
        return self._best_of(self._cpp.possible_moves(opp_pre, d1, d2), opp_pre)

    def _best_of(self, replies: list[list[int]], opp_pre: list[int]) -> tuple[list[int], Chances]:
        best: tuple[float, list[int], Chances] | None = None
        for reply in replies:
            over = self._cpp.check_game_over(reply)
            c = _finished(over) if over else self._leaf(reply, opp_pre)
            equity = 2.0 * c[0] - 1.0 + c[1] + c[2] - c[3] - c[4]
            if best is None or equity > best[0]:
                best = (equity, reply, c)
        assert best is not None  # possible_moves gives the unchanged board for a dance
        return best[1], best[2]


def _finished(result: int) -> Chances:
    """bgsage's ``check_game_over`` code (1..3 a single win, gammon,
    backgammon for the side that moved; negative a loss) as chances."""
    size = abs(result)
    won = (1.0, float(size >= 2), float(size >= 3), 0.0, 0.0)
    return won if result > 0 else (0.0, 0.0, 0.0, won[1], won[2])
