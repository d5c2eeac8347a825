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

With a ``context`` (the cube and the score, ``ai_worker.context``) every
value is in the judgement unit: the same cleaned 1-ply chances and filter,
each play's value cubeful (``ai_worker.cubeful``: Janowski at 1-ply,
bgsage's cube-aware tree deeper), per unit of the cube now. Without one it
is cubeless money equity, the single game's unit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from ai_worker import cubeful
from ai_worker.context import CubeContext
from ai_worker.features import has_contact
from ai_worker.networks import MAX_PLY as MAX_PLY
from ai_worker.networks import from_board26 as from_board26
from ai_worker.networks import networks as _networks
from ai_worker.networks import to_board26 as to_board26
from ai_worker.networks import warm_up as load_networks
from ai_worker.sanity import Probs, sane_probs, settled
from ai_worker.search import SaneSearch, may_be_decided
from games.engine import Dice, Play, Position, legal_plays

T = TypeVar("T")

FILTER_MAX_PLAYS = 5
FILTER_THRESHOLD = 0.08


@dataclass(frozen=True, slots=True)
class RankedPlay:
    play: Play
    equity: float  # the mover's after the play, in ``context``'s unit (ai_worker.context)
    probs: Probs  # made sane: ``ai_worker.sanity.sane_probs``
    ply: int = 1  # the depth this equity was computed at
    context: CubeContext | None = None  # the cube and score it was valued at (None: cubeless)


def warm_up(ply: int = 1) -> None:
    """Load the networks needed for ``ply`` now rather than on the first move
    (a child process that searches imports this module with them)."""
    load_networks(ply)


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


def rank_plays(
    position: Position,
    dice: Dice,
    ply: int = 1,
    keep: Play | None = None,
    width: int = FILTER_MAX_PLAYS,
    shown: int = 2,
    context: CubeContext | None = None,
) -> list[RankedPlay]:
    """Every legal play, best first, with the mover's equity after it, in
    ``context``'s unit (cubeless without one).

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
        return _search(_ranked, position, dice, ply, keep, width, shown, context)
    return _ranked(position, dice, ply, keep, width, shown, context)


def _ranked(
    position: Position,
    dice: Dice,
    ply: int,
    keep: Play | None,
    width: int,
    shown: int,
    context: CubeContext | None,
) -> list[RankedPlay]:
    plays = legal_plays(position, dice)
    if not plays:
        return []
    pre = to_board26(position)
    one_ply = _networks.one_ply()
    ranked = _sorted([_in_unit(_score(one_ply, play, pre, 1), context) for play in plays])
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
    if ranked.context is not None:
        return _score_cubeful(ranked, to_board26(position), ply)
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


def value_unmoved(
    position: Position, ply: int = 1, context: CubeContext | None = None
) -> tuple[float, Probs]:
    """(equity, chances) for the mover when it leaves ``position`` unchanged
    (it dances, or has no play): the board valued at ``ply`` with the
    opponent to roll, as ``rank_plays`` values the board a play leads to, so
    a dance and the plays of the other rolls are valued alike."""
    if not 1 <= ply <= MAX_PLY:
        raise ValueError(f"ply must be 1..{MAX_PLY}, not {ply}")
    board = to_board26(position)
    shallow = _value(_networks.one_ply(), position, board, board)
    if context is not None:  # the board as a play's result, in the unit
        still = _in_unit(RankedPlay(Play((), position), shallow.equity, shallow), context)
        valued = still if ply == 1 else _score_cubeful(still, board, ply)
        return valued.equity, valued.probs
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


def _in_unit(ranked: RankedPlay, context: CubeContext | None) -> RankedPlay:
    """A 1-ply value (cleaned chances) in ``context``'s unit: bgsage's 1-ply
    cubeful equity of those chances (``cubeful.janowski``)."""
    if context is None:
        return ranked
    board = to_board26(ranked.play.result)
    equity = cubeful.janowski(board, _chances(ranked.probs), context)
    return replace(ranked, equity=equity, context=context)


def _chances(p: Probs) -> tuple[float, ...]:
    return (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon)


def _score_cubeful(shallow: RankedPlay, pre: list[int], ply: int) -> RankedPlay:
    """``shallow`` (a 1-ply value in its context's unit) searched at ``ply``
    by bgsage's cube-aware tree; a certain result stays as it is."""
    assert shallow.context is not None
    result = shallow.play.result
    if settled(result, shallow.probs):
        return replace(shallow, ply=ply)
    board = to_board26(result)
    chances, equity = cubeful.searched(
        _networks.one_ply(), _networks.bearoff_db(), board, pre, ply, shallow.context
    )
    probs = sane_probs(result, Probs(*chances))
    return replace(shallow, equity=equity, probs=probs, ply=ply)


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
    best = ranked[0].equity
    chosen = [r for r in ranked if best - r.equity < FILTER_THRESHOLD][:width]
    if keep is not None:
        chosen += [r for r in ranked if r.play.result == keep.result and r not in chosen]
    if ranked[0].context is not None:
        return _deepen_cubeful(ranked, chosen, pre, ply, shown)
    strategy, lock = _networks.multi_ply(ply)
    sane = sane_search()  # one for the decision: its plays share nodes
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


SEARCH_THREADS = 2  # bgsage's cube-aware trees, one a thread, as its checker_play runs them


def _deepen_cubeful(
    ranked: list[RankedPlay], chosen: list[RankedPlay], pre: list[int], ply: int, shown: int
) -> list[RankedPlay]:
    """``_deepen`` in the cube's unit: the chosen plays searched by bgsage's
    cube-aware tree, and no 1-ply value left among the ``shown`` best."""

    def search(plays: list[RankedPlay]) -> dict[int, RankedPlay]:
        deep = pool.map(lambda r: _score_cubeful(r, pre, ply), plays)
        return dict(zip(map(id, plays), deep, strict=True))

    with ThreadPoolExecutor(SEARCH_THREADS) as pool:
        deep = search(chosen)
        merged = _sorted([deep.get(id(r), r) for r in ranked])
        while stale := [r for r in merged[: max(2, shown)] if r.ply < ply]:
            deep = search(stale)
            merged = _sorted([deep.get(id(r), r) for r in merged])
    return merged
