"""Rank the legal plays of a position with bgsage's network.

Our engine decides what is legal (``games.engine.legal_plays``); bgsage only
evaluates the board each play leads to. Its own move generator differs from
the rules in a rare bear-off case and returns the unchanged board when no
move exists, so it is never asked for moves here.

For ply >= 2 every play is scored at 1-ply, the few best go through the N-ply
search (the filter bgsage itself uses), and no play may stay in the top two
on a 1-ply value alone, so the best play is always an N-ply value.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Dice, Play, Position, legal_plays

FILTER_MAX_PLAYS = 5
FILTER_THRESHOLD = 0.08
MAX_PLY = 3


@dataclass(frozen=True, slots=True)
class Probs:
    """Chances for the side that just moved, before the opponent's roll."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


@dataclass(frozen=True, slots=True)
class RankedPlay:
    play: Play
    equity: float  # cubeless money equity for the mover after the play
    probs: Probs
    ply: int = 1  # the depth this equity was computed at


def to_board26(position: Position) -> list[int]:
    """bgsage's board from the side on roll: 1..24 its points (own checkers
    positive, opponent's negative), 25 its bar, 0 the opponent's bar.

    Both bar counts are non-negative (bgsage/gnubg.py documents it, and
    ``bgbot_cpp.possible_moves`` puts a hit checker at +1 on index 0).
    """
    me, opp = position.me, position.opp
    board = [0] * 26
    for point in range(1, 25):
        board[point] = me[point - 1] - opp[24 - point]
    board[25] = me[24]
    board[0] = opp[24]
    return board


def from_board26(board: Sequence[int]) -> Position:
    """The inverse of ``to_board26``: bgsage's board as an engine ``Position``."""
    me, opp = [0] * 25, [0] * 25
    for point in range(1, 25):
        if board[point] > 0:
            me[point - 1] = board[point]
        elif board[point] < 0:
            opp[24 - point] = -board[point]
    me[24], opp[24] = board[25], board[0]
    return Position(tuple(me), tuple(opp))


class _Networks:
    """One set of bgsage strategies per process, loaded on first use."""

    def __init__(self) -> None:
        self._load_lock = threading.Lock()
        self._one_ply: Any = None
        self._bearoff_db: Any = None
        self._multi: dict[int, Any] = {}
        # A MultiPlyStrategy keeps a position cache that is cleared after each
        # decision, so two decisions must not share one search at once.
        self._multi_locks = {ply: threading.Lock() for ply in range(2, MAX_PLY + 1)}

    def one_ply(self) -> Any:
        if self._one_ply is None:
            with self._load_lock:
                if self._one_ply is None:
                    self._one_ply = self._load_one_ply()
        return self._one_ply

    def multi_ply(self, ply: int) -> tuple[Any, threading.Lock]:
        if ply not in self._multi:
            self.one_ply()
            with self._load_lock:
                if ply not in self._multi:
                    self._multi[ply] = self._load_multi_ply(ply)
        return self._multi[ply], self._multi_locks[ply]

    def _load_one_ply(self) -> Any:
        import bgbot_cpp
        from bgsage.weights import bearoff_db_path, default_weights

        weights = default_weights()
        strategy = bgbot_cpp.create_strategy(
            weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
        )
        db_path = bearoff_db_path()
        if db_path:
            db = bgbot_cpp.BearoffDB()
            if db.load(db_path):
                self._bearoff_db = db
                # Exact bear-off probabilities where the database knows them.
                strategy = bgbot_cpp.BearoffStrategy(strategy, db)
        return strategy

    def _load_multi_ply(self, ply: int) -> Any:
        import bgbot_cpp
        from bgsage.weights import default_weights

        weights = default_weights()
        strategy = bgbot_cpp.create_multipy(
            weights.strategy_type,
            weights.weight_paths_list,
            weights.hidden_sizes_list,
            n_plies=ply,
            parallel_evaluate=True,
            parallel_threads=2,
        )
        if self._bearoff_db is not None:
            bgbot_cpp.multipy_set_bearoff_db(strategy, self._bearoff_db)
        return strategy


_networks = _Networks()


def warm_up(ply: int = 1) -> None:
    """Load the networks needed for ``ply`` now rather than on the first move."""
    _networks.one_ply()
    if ply >= 2:
        _networks.multi_ply(ply)


def rank_plays(position: Position, dice: Dice, ply: int = 1) -> list[RankedPlay]:
    """Every legal play, best first, with the mover's equity after it.

    >>> from games.engine import Dice, Position
    >>> ranked = rank_plays(Position.start(), Dice(3, 1))
    >>> ranked[0].play.notation()
    '8/5 6/5'
    """
    if not 1 <= ply <= MAX_PLY:
        raise ValueError(f"ply must be 1..{MAX_PLY}, not {ply}")
    plays = legal_plays(position, dice)
    if not plays:
        return []
    pre = to_board26(position)
    ranked = _sorted([_score(_networks.one_ply(), play, pre, 1) for play in plays])
    if ply == 1 or len(ranked) == 1:
        return ranked
    return _deepen(ranked, pre, ply)


def value_unmoved(position: Position) -> tuple[float, Probs]:
    """(equity, chances) for the mover when it leaves ``position`` unchanged
    (it dances, or has no play): the board valued at 1-ply, opponent to roll."""
    board = to_board26(position)
    result = _networks.one_ply().evaluate_board(board, board)
    return float(result["equity"]), Probs(*(float(p) for p in result["probs"][:5]))


def _score(strategy: Any, play: Play, pre: list[int], ply: int) -> RankedPlay:
    result = strategy.evaluate_board(to_board26(play.result), pre)
    probs = Probs(*(float(p) for p in result["probs"][:5]))
    return RankedPlay(play=play, equity=float(result["equity"]), probs=probs, ply=ply)


def _sorted(ranked: list[RankedPlay]) -> list[RankedPlay]:
    # Ties break on the resulting position so the order never depends on the
    # order the engine happened to list the plays in.
    return sorted(ranked, key=lambda r: (-r.equity, r.play.result.me, r.play.result.opp))


def _deepen(ranked: list[RankedPlay], pre: list[int], ply: int) -> list[RankedPlay]:
    strategy, lock = _networks.multi_ply(ply)
    best = ranked[0].equity
    chosen = [r for r in ranked if best - r.equity < FILTER_THRESHOLD][:FILTER_MAX_PLAYS]
    with lock:
        try:
            deep = {id(r): _score(strategy, r.play, pre, ply) for r in chosen}
            merged = _sorted([deep.get(id(r), r) for r in ranked])
            # A play the filter skipped keeps a 1-ply value that is not
            # comparable with N-ply values: never let it stand in the top two.
            while (stale := next((r for r in merged[:2] if r.ply < ply), None)) is not None:
                merged[merged.index(stale)] = _score(strategy, stale.play, pre, ply)
                merged = _sorted(merged)
        finally:
            strategy.clear_cache()
    return merged
