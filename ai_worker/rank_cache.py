"""One ranking per decision, shared by the tutor, the hints and the reviews.

The plays for (position, dice) ranked at a depth, and the cube advice for
(position, cube and score, decision) at a depth, are kept in the site's
cache (Redis in production, the process's memory in zero set-up) for
``KEEP_SECONDS``: the tutor's ranking, computed while the person thinks
(``learning.tutor``), is what the hint shows, what End turn is checked
against, and what the review reads first for that turn. The checker
ranking is in the judgement unit of its cube and score (``context``,
``ai_worker.context``: cubeless without the cube, cubeful money equity, or
normalized money equivalents at a match score), which is part of its key
(``context_key``); so is the cube advice's.

A ranking asked with ``keep`` (the play made, which the review values at
full depth) and ``shown`` (the best plays a page lists) is taken from the
cache only if those plays were searched at the depth asked; otherwise it is
ranked again with them (and stored so).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache

from ai_worker.context import CubeContext, context_key
from ai_worker.cube_advice import CubeAdvice, advise
from ai_worker.ranking import Ranked, RankFn, default_rank
from games.engine import Dice, Play, Position, Side

KEEP_SECONDS = 3600
SHOWN = 5  # the best plays a hint and a review list, all searched at full depth


def plays_key(position: Position, dice: Dice, ply: int, context: CubeContext | None = None) -> str:
    high, low = max(dice.d1, dice.d2), min(dice.d1, dice.d2)
    unit = context_key(context)
    return f"rank:plays:{ply}:{position.position_id()}:{high}{low}:{unit}"


def cube_key(position: Position, context: CubeContext, decision: str, ply: int) -> str:
    # The context is frozen dataclasses of values: its repr is its identity.
    digest = hashlib.sha1(repr(context).encode()).hexdigest()[:16]
    return f"rank:cube:{ply}:{position.position_id()}:{decision}:{digest}"


def ranked_plays(
    position: Position,
    dice: Dice,
    ply: int,
    keep: Play | None = None,
    rank: RankFn = default_rank,
    shown: int = 2,
    context: CubeContext | None = None,
) -> Sequence[Ranked]:
    """``rank(position, dice, ply, keep, shown, context)``, from the cache
    when it holds it."""
    key = plays_key(position, dice, ply, context)
    found: Sequence[Ranked] | None = cache.get(key)
    if found is not None and _kept(found, keep, ply, shown):
        return found
    ranked = list(rank(position, dice, ply, keep, shown, context))
    cache.set(key, ranked, KEEP_SECONDS)
    return ranked


def remember_plays(position: Position, dice: Dice, ply: int, ranked: Sequence[Ranked]) -> None:
    """Keep ``ranked`` as the ranking of (position, dice) at ``ply`` (one more
    of its plays searched at ``ply``: ``learning.tutor``), under the unit its
    plays were valued in."""
    context = getattr(ranked[0], "context", None) if ranked else None
    cache.set(plays_key(position, dice, ply, context), list(ranked), KEEP_SECONDS)


def _kept(ranked: Sequence[Ranked], keep: Play | None, ply: int, shown: int) -> bool:
    """The cached ranking serves if its ``shown`` best and ``keep`` were all
    searched at ``ply`` (one value per play: issue 31)."""
    if any(getattr(r, "ply", ply) < ply for r in ranked[:shown]):
        return False
    if keep is None:
        return True
    return any(r.play.result == keep.result and getattr(r, "ply", ply) >= ply for r in ranked)


def cached_rank(rank: RankFn = default_rank) -> RankFn:
    """``rank`` through the cache (the shape hints and reviews take); only
    the real ranking is kept there, never a test's or a bench's own."""
    if rank is not default_rank:
        return rank

    def through(
        position: Position,
        dice: Dice,
        ply: int,
        keep: Play | None = None,
        shown: int = 2,
        context: CubeContext | None = None,
    ) -> Sequence[Ranked]:
        return ranked_plays(position, dice, ply, keep, rank, shown, context)

    return through


def peek_plays(
    position: Position, dice: Dice, ply: int, context: CubeContext | None = None
) -> Sequence[Ranked] | None:
    """The ranking if it is already there (never computes)."""
    found: Sequence[Ranked] | None = cache.get(plays_key(position, dice, ply, context))
    return found


def holds(key: str) -> bool:
    """Whether the cache holds the ranking or advice of ``key`` (``plays_key``,
    ``cube_key``), without fetching it."""
    return bool(cache.has_key(key))


def cube_advice(position: Position, context: CubeContext, decision: str, ply: int) -> CubeAdvice:
    """``advise(position, context, decision, ply)``, from the cache when it holds it."""
    key = cube_key(position, context, decision, ply)
    found: CubeAdvice | None = cache.get(key)
    if found is not None:
        return found
    advice = advise(position, context, decision, ply)
    cache.set(key, advice, KEEP_SECONDS)
    return advice


def peek_cube(
    position: Position, context: CubeContext, decision: str, ply: int
) -> CubeAdvice | None:
    """The cube advice if it is already there (never computes)."""
    found: CubeAdvice | None = cache.get(cube_key(position, context, decision, ply))
    return found


def game_context(game: Any, mover: Side = Side.LIGHT) -> CubeContext | None:
    """The cube and score ``mover``'s decision in ``game`` (a ``games.Game``)
    is judged at now: None in a single game (cubeless), else its cube (the
    value and owner now) and its match or money game (Jacoby as set)."""
    from games.reading import cube_of, match_of

    cube = cube_of(game)
    return None if cube is None else CubeContext(cube, match_of(game), mover)
