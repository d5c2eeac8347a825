"""The analysis board's 精确分析 jobs (``learning.study.board`` runs them):
a cube action or a roll's plays rolled out by bgsage (``ai_worker.rollout``),
the plays at the board's cube and score, their progress kept in the cache
for the page's polling (``rollout_progress``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

from ai_worker import candidates, rank_cache
from ai_worker.analysis import review_ply
from ai_worker.attribution import weighed
from ai_worker.context import CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, advice_from
from ai_worker.features import position_features
from ai_worker.grading import ErrorClass, classify
from ai_worker.ranking import default_rank
from ai_worker.rollout import ROLLOUT_TRIALS, rollout_cube, rollout_plays
from games.engine import Dice, Play, Position, double_refusal
from learning.study.queue import ROLLOUT_PLY


def progress_key(job_id: int) -> str:
    return f"board-rollout-progress:{job_id}"


def rollout_progress(job_id: int) -> dict[str, int] | None:
    """The trials a running rollout has done, as its task last said."""
    found = cache.get(progress_key(job_id))
    return None if found is None else {"done": int(found[0]), "total": int(found[1])}


def _progress(job_id: int) -> Callable[[int, int], None]:
    """A rollout's ``progress(done, total)``: kept in the cache for the page."""

    def progress(done: int, total: int) -> None:
        cache.set(progress_key(job_id), (done, total, time.time()), 3600)

    return progress


def cube_rollout(job_id: int, position: Position, context: CubeContext) -> dict[str, Any]:
    """The cube action from a cubeful rollout, its progress kept in the cache."""
    refusal = double_refusal(context.cube, context.match, context.mover)
    if refusal is not None:
        return {"refusal": str(refusal)}
    rolled = rollout_cube(position, context, progress=_progress(job_id))
    double = advice_from(rolled.equities, context, DOUBLE, ROLLOUT_PLY)
    take = advice_from(rolled.equities, context, TAKE, ROLLOUT_PLY)
    rollout = {
        "trials": rolled.trials,
        "no_double_se": round(rolled.no_double_se, 4),
        "double_take_se": round(rolled.double_take_se, 4),
    }
    return {"double": double.to_json(), "take": take.to_json(), "rollout": rollout}


def play_rollout(
    job_id: int,
    position: Position,
    dice: Dice,
    played: Play | None,
    context: CubeContext | None = None,
    top: int = 8,
) -> dict[str, Any]:
    """The shown plays of ``dice`` (the ``SHOWN`` best of the ranking the page
    showed, and ``played``) rolled out at ``context``, ranked again by the
    rollout, each with the reasons and comparisons against the rollout's best
    and its standard error."""
    if played is None:  # the analysis board's list (its ``top`` plays): its best
        ranked = default_rank(position, dice, review_ply(), shown=top, context=context)
    else:  # the review's: its shown best and the play made, as it ranked them
        ranked = rank_cache.ranked_plays(
            position, dice, review_ply(), keep=played, shown=rank_cache.SHOWN, context=context
        )
    plays = [r.play for r in ranked[: rank_cache.SHOWN]]
    if played is not None and all(p.result != played.result for p in plays):
        plays.append(played)
    if len(plays) < 2:  # nothing to compare: no rollout
        return {"plays": [c.to_json() for c in candidates.hint(position, dice, review_ply())]}
    rolled = rollout_plays(position, dice, plays, progress=_progress(job_id), context=context)
    before = position_features(position)
    shown = candidates.with_comparisons(
        position, [candidates.candidate(position, r, before) for r in rolled], context
    )
    made = next((i for i, r in enumerate(rolled) if played and r.play.result == played.result), 0)
    if made and classify(shown[0].equity - shown[made].equity) is not ErrorClass.NONE:
        # An error by the rollout: its reasons lead with the difference that
        # carries most of the gap, as the review orders a played error's.
        shown[made] = weighed(position, dice, shown[made], shown[0])
    rollout = {
        "trials": ROLLOUT_TRIALS,
        "played": None if played is None else played.result.position_id(),
    }
    se = [round(r.se, 4) for r in rolled]
    return {
        "plays": [{**c.to_json(), "se": e} for c, e in zip(shown, se, strict=True)],
        "rollout": rollout,
    }
