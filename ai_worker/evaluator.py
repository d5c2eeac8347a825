"""Rank the legal plays of a position with bgsage's network.

Our engine decides what is legal (``games.engine.legal_plays``); bgsage only
evaluates the board each play leads to. Its own move generator differs from
the rules in a rare bear-off case and returns the unchanged board when no
move exists, so it is never asked for moves here.

For ply >= 2 every play is scored at 1-ply, the few best go through the N-ply
search (the filter bgsage itself uses), and no play may stay among the
``shown`` best (two by default, every play a page lists when it asks) on a
1-ply value alone: the best play is always an N-ply value, and every play a
page shows is valued by the same search whether or not it was played. The N-ply
search is bgsage's, whose nodes are cleaned and whose bear-offs are exact
once it has the database; a short race, where it would miss a result decided
on any dice, goes to ``ai_worker.search.SaneSearch`` instead (see its module).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from ai_worker.features import has_contact
from ai_worker.sanity import Probs, sane_probs, settled
from ai_worker.search import SaneSearch, may_be_decided
from games.engine import Dice, Play, Position, legal_plays

T = TypeVar("T")

FILTER_MAX_PLAYS = 5
FILTER_THRESHOLD = 0.08
MAX_PLY = 3


@dataclass(frozen=True, slots=True)
class RankedPlay:
    play: Play
    equity: float  # cubeless money equity for the mover after the play
    probs: Probs  # made sane: ``ai_worker.sanity.sane_probs``
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


_networks = _Networks()

# Where a search of 2-ply or deeper runs: on the asking thread, unless the
# site routes it at start-up (``ai_worker.dispatch.wire``: without a broker the
# runtime sends it to a child process). This module never knows which; the
# route gets a module-level function and picklable arguments.
Route = Callable[..., Any]
_route: Route | None = None


def route_searches(route: Route | None) -> None:
    """Send this process's deep searches through ``route(fn, *args)`` (None: run them here)."""
    global _route
    _route = route


def _search(fn: Callable[..., T], *args: Any) -> T:
    return fn(*args) if _route is None else cast("T", _route(fn, *args))


def warm_up(ply: int = 1) -> None:
    """Load the networks needed for ``ply`` now rather than on the first move."""
    _networks.one_ply()
    if ply >= 2:
        _networks.multi_ply(ply)


def rank_plays(
    position: Position,
    dice: Dice,
    ply: int = 1,
    keep: Play | None = None,
    width: int = FILTER_MAX_PLAYS,
    shown: int = 2,
) -> list[RankedPlay]:
    """Every legal play, best first, with the mover's equity after it.

    At ``ply`` >= 2 the play with ``keep``'s result (the one a player made)
    is always searched at full depth, so its loss is measured like for like;
    ``width`` is how many of the 1-ply best are searched, and the ``shown``
    best always end up searched: a play's value is the same N-ply value
    whether it was played or not.

    >>> from games.engine import Dice, Position
    >>> ranked = rank_plays(Position.start(), Dice(3, 1))
    >>> ranked[0].play.notation()
    '8/5 6/5'
    """
    if not 1 <= ply <= MAX_PLY:
        raise ValueError(f"ply must be 1..{MAX_PLY}, not {ply}")
    if ply > 1:
        return _search(_ranked, position, dice, ply, keep, width, shown)
    return _ranked(position, dice, ply, keep, width, shown)


def _ranked(
    position: Position, dice: Dice, ply: int, keep: Play | None, width: int, shown: int
) -> list[RankedPlay]:
    plays = legal_plays(position, dice)
    if not plays:
        return []
    pre = to_board26(position)
    ranked = _sorted([_score(_networks.one_ply(), play, pre, 1) for play in plays])
    if ply > 1 and len(ranked) > 1:
        ranked = _deepen(ranked, pre, ply, keep, width, shown)
    return _level_bearoffs(ranked)


def at_depth(position: Position, ranked: RankedPlay, ply: int) -> RankedPlay:
    """``ranked`` (a play of ``rank_plays(position, ...)``) valued at ``ply``
    if the filter left it shallower: one play searched, as ``keep`` would
    have been (the tutor's ranking is made before the play is known)."""
    if ranked.ply >= ply or ply <= 1:
        return ranked
    return _search(_at_depth, position, ranked, ply)


def _at_depth(position: Position, ranked: RankedPlay, ply: int) -> RankedPlay:
    strategy, lock = _networks.multi_ply(ply)
    with lock:
        try:
            return _score_deep(strategy, sane_search(), ranked, to_board26(position), ply)
        finally:
            strategy.clear_cache()


def with_searched(ranked: Sequence[RankedPlay], searched: RankedPlay) -> list[RankedPlay]:
    """``ranked`` with ``searched`` (one of its plays, ``at_depth``) in its
    place, in order."""
    result = searched.play.result
    return _sorted([searched if r.play.result == result else r for r in ranked])


def bearoff_rolls(position: Position) -> float | None:
    """The mover's expected rolls to bear off (bgsage's one-sided database),
    or ``None`` when a checker of the mover is outside its home board."""
    db = _networks.bearoff_db()
    if db is None or any(position.me[6:]):
        return None
    return float(db.get_mean_rolls(to_board26(position), 0))


def bearoff_exact(board: list[int]) -> tuple[float, ...] | None:
    """The bear-off database's exact chances for bgsage's ``board`` after a
    play (opponent to roll), or ``None`` where it does not reach."""
    db = _networks.bearoff_db()
    if db is None or not db.is_bearoff(board):
        return None
    return tuple(float(p) for p in db.lookup_probs(board, True))


def _level_bearoffs(ranked: list[RankedPlay]) -> list[RankedPlay]:
    """Bearing off in a race against an opponent not yet home (where the
    two-sided database does not reach), plays that leave the same expected
    number of rolls leave the same race: give them the same (best) value, so
    two equal plays are never told apart by the network's noise."""
    groups: dict[float, RankedPlay] = {}
    keys: dict[int, float] = {}
    for r in ranked:
        result = r.play.result
        if has_contact(result) or not any(result.opp[6:]):
            continue
        rolls = bearoff_rolls(result)
        if rolls is None:
            continue
        keys[id(r)] = key = round(rolls, 6)
        best = groups.get(key)
        if best is None or (best.ply, best.equity) < (r.ply, r.equity):
            groups[key] = r
    if not keys:
        return ranked
    levelled = [
        replace(r, equity=groups[keys[id(r)]].equity, probs=groups[keys[id(r)]].probs)
        if id(r) in keys
        else r
        for r in ranked
    ]
    return _sorted(levelled)


def value_unmoved(position: Position, ply: int = 1) -> tuple[float, Probs]:
    """(equity, chances) for the mover when it leaves ``position`` unchanged
    (it dances, or has no play): the board valued at ``ply`` with the
    opponent to roll, as ``rank_plays`` values the board a play leads to, so
    a dance and the plays of the other rolls are valued alike."""
    if not 1 <= ply <= MAX_PLY:
        raise ValueError(f"ply must be 1..{MAX_PLY}, not {ply}")
    board = to_board26(position)
    shallow = _value(_networks.one_ply(), position, board, board)
    if ply == 1 or settled(position, shallow):
        return shallow.equity, shallow
    return _search(_unmoved_deep, position, board, ply)


def _unmoved_deep(position: Position, board: list[int], ply: int) -> tuple[float, Probs]:
    if may_be_decided(position, ply):
        deep = sane_search().probs(board, board, ply)
        return deep.equity, deep
    strategy, lock = _networks.multi_ply(ply)
    with lock:
        try:
            deep = _value(strategy, position, board, board)
        finally:
            strategy.clear_cache()
    return deep.equity, deep


def sane_search(clean: bool = True) -> SaneSearch:
    """A search with every node cleaned on this process's networks (see
    ``ai_worker.search``); ``clean=False`` is the raw yardstick."""
    return SaneSearch(_networks.one_ply(), _networks.bearoff_db(), clean=clean)


def bgsage_chances(board: list[int], pre: list[int], ply: int) -> tuple[float, ...]:
    """bgsage's own chances for ``board`` (from ``pre``, bgsage's 26-point
    boards) at ``ply``, nothing cleaned here: its network at 1-ply (exact
    in the bear-off database), its N-ply search above. What the tests and
    ``bench/analysis.py --audit`` hold the cleaned search against."""
    if ply == 1:
        return tuple(float(p) for p in _networks.one_ply().evaluate_board(board, pre)["probs"][:5])
    strategy, lock = _networks.multi_ply(ply)
    with lock:
        try:
            raw = strategy.evaluate_board(board, pre)["probs"]
        finally:
            strategy.clear_cache()
    return tuple(float(p) for p in raw[:5])


def _value(strategy: Any, result: Position, board: list[int], pre: list[int]) -> Probs:
    raw = strategy.evaluate_board(board, pre)
    return sane_probs(result, Probs(*(float(p) for p in raw["probs"][:5])))


def _score(strategy: Any, play: Play, pre: list[int], ply: int) -> RankedPlay:
    probs = _value(strategy, play.result, to_board26(play.result), pre)
    return RankedPlay(play=play, equity=probs.equity, probs=probs, ply=ply)


def _score_deep(
    strategy: Any, sane: SaneSearch, shallow: RankedPlay, pre: list[int], ply: int
) -> RankedPlay:
    # A certain result (a sure win or loss, proved by the sanity rules) stays
    # certain; a race that may be decided inside the search is searched with
    # every node cleaned (bgsage's search would blur a sure result).
    result = shallow.play.result
    if settled(result, shallow.probs):
        return replace(shallow, ply=ply)
    if may_be_decided(result, ply):
        probs = sane.probs(to_board26(result), pre, ply)
        return RankedPlay(play=shallow.play, equity=probs.equity, probs=probs, ply=ply)
    return _score(strategy, shallow.play, pre, ply)


def _sorted(ranked: list[RankedPlay]) -> list[RankedPlay]:
    # Ties break on the resulting position so the order never depends on the
    # order the engine happened to list the plays in.
    return sorted(ranked, key=lambda r: (-r.equity, r.play.result.me, r.play.result.opp))


def _deepen(
    ranked: list[RankedPlay],
    pre: list[int],
    ply: int,
    keep: Play | None = None,
    width: int = FILTER_MAX_PLAYS,
    shown: int = 2,
) -> list[RankedPlay]:
    strategy, lock = _networks.multi_ply(ply)
    sane = sane_search()  # one for the decision: its plays share nodes
    best = ranked[0].equity
    chosen = [r for r in ranked if best - r.equity < FILTER_THRESHOLD][:width]
    if keep is not None:
        chosen += [r for r in ranked if r.play.result == keep.result and r not in chosen]
    with lock:
        try:
            deep = {id(r): _score_deep(strategy, sane, r, pre, ply) for r in chosen}
            merged = _sorted([deep.get(id(r), r) for r in ranked])
            # A play the filter skipped keeps a 1-ply value that is not
            # comparable with N-ply values: never let it stand among the
            # ``shown`` best (at least the top two).
            top = max(2, shown)
            while (stale := next((r for r in merged[:top] if r.ply < ply), None)) is not None:
                merged[merged.index(stale)] = _score_deep(strategy, sane, stale, pre, ply)
                merged = _sorted(merged)
        finally:
            strategy.clear_cache()
    return merged
