"""bgsage's networks, loaded once a process, and its board.

One set of strategies per process (the 1-ply network, exact in the bear-off
database, and a search per depth), loaded on first use; ``warm_up`` loads
them before the first decision. ``to_board26`` / ``from_board26`` convert
between the engine's ``Position`` and bgsage's 26-point board.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from games.engine import Position

MAX_PLY = 3


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

    def bearoff_db(self) -> Any:
        self.one_ply()
        return self._bearoff_db

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


networks = _Networks()


def warm_up(ply: int = 1) -> None:
    """Load the networks needed for ``ply`` now rather than on the first move."""
    networks.one_ply()
    if ply >= 2:
        networks.multi_ply(ply)
