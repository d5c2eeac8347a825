"""The analysis board's jobs: ranked plays for one roll or the 21 rolls.

``request_analysis`` finds or creates the ``BoardAnalysis`` row for a
position and roll (``request_cube_analysis``: for the cube action before the
roll, with the cube and the score) and queues ``learning.tasks.analyse_position`` on the
``analysis`` queue after commit (the in-process pool without a broker), so
the board never delays a game's moves. ``run_board_analysis`` is what that
task runs, through ``ai_worker.candidates.hint``, the same ranking and
reasons as the hints and the review, at the board's cube and score
(``learning.board.input.plays_context``: the setting as it stands, the default one, money with
the cube in the middle and no Jacoby rule, read as the single game without
the cube), and ``ai_worker.cube_advice`` for the cube action, as the cube
hint and the review judge it. ``learning.study.board_json`` words the
result for the page, and while the job waits, what it waits for
(``queued_ahead``, ``waited_seconds``). A job that is neither finished,
failed nor in the queue ``BOARD_JOB_LOST_SECONDS`` after it was queued or
started was lost (``is_lost``: its message dropped, or its worker killed: a
Redis message comes back only after the visibility timeout): the page is
told so in words, and asking again queues it anew. A burst of new jobs from
one visitor is refused (``burst_allowed``).

精确分析: ``request_cube_rollout`` queues a rollout of the cube action
(``ai_worker.rollout.rollout_cube``: bgsage's cubeful rollout, its row's ply
``ROLLOUT_PLY``), ``request_play_rollout`` one of a roll's plays (the
``rank_cache.SHOWN`` best of the review's ranking and the play made, if
given: ``ai_worker.rollout.rollout_plays``, cubeless as the ranking), on the
same study queue, one per visitor at a time and a budget a day
(``study_queue.rollout_allowed``). Its progress, the trials done, is kept
in the cache while it runs (``rollout_progress``) and read by the page's
polling; its figures replace the N-ply ones, each with its standard error,
the plays ranked again by them and the play made judged by them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from ai_worker import candidates, luck
from ai_worker.analysis import review_ply
from ai_worker.context import context_key
from ai_worker.cube import CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, advice_from, advise
from ai_worker.ranking import RankFn, default_rank
from games.engine import ROLLS, Dice, Play, Position, double_refusal, legal_plays
from learning.board.input import ALL_ROLLS, context_json, read_context, stored_context
from learning.models import AnalysisState, BoardAnalysis
from learning.study.queue import ROLLOUT_PLY
from learning.study.rollouts import cube_rollout, play_rollout, progress_key
from learning.study.rollouts import rollout_progress as rollout_progress

TOP_PLAYS = 8
# The 21 rolls are ranked at 1-ply: 21 searches at Expert depth would keep
# the one in-process analysis thread busy for many seconds.
ALL_ROLLS_PLY = 1
# New jobs per visitor per window; a finished analysis asked again is free.
BURST_JOBS = 8
BURST_SECONDS = 30


def dice_key(dice: Dice | str) -> str:
    return ALL_ROLLS if dice == ALL_ROLLS else f"{dice.d1}{dice.d2}"  # type: ignore[union-attr]


def job_key(
    position: Position, dice: Dice | str, ply: int, context: CubeContext | None = None
) -> str:
    unit = "" if context is None else f":{context_key(context)}"
    return f"{position.position_id()}:{dice_key(dice)}:{ply}{unit}"


def ply_for(dice: Dice | str) -> int:
    return ALL_ROLLS_PLY if dice == ALL_ROLLS else review_ply()


def burst_allowed(visitor: str) -> bool:
    """Count one new job for ``visitor``; False once the window's share is used."""
    key = f"analysis-board-burst:{visitor}"
    cache.add(key, 0, BURST_SECONDS)
    try:
        return int(cache.incr(key)) <= BURST_JOBS
    except ValueError:  # the window expired between add and incr
        cache.add(key, 1, BURST_SECONDS)
        return True


def cube_key(position: Position, context: CubeContext, ply: int) -> str:
    return f"{position.position_id()}:cube:{ply}:{context.mover.value}:{context.key()}"


def find_job(
    position: Position, dice: Dice | str, context: CubeContext | None = None
) -> BoardAnalysis | None:
    key = job_key(position, dice, ply_for(dice), context)
    return BoardAnalysis.objects.filter(key=key).first()


def find_cube_job(position: Position, context: CubeContext) -> BoardAnalysis | None:
    return BoardAnalysis.objects.filter(key=cube_key(position, context, review_ply())).first()


def find_cube_rollout(position: Position, context: CubeContext) -> BoardAnalysis | None:
    return BoardAnalysis.objects.filter(key=cube_key(position, context, ROLLOUT_PLY)).first()


def play_rollout_key(
    position: Position, dice: Dice, played: Play | None, context: CubeContext | None = None
) -> str:
    """A roll's rollout; with the play made (a review's), its result after the
    roll; with a cube and score, their unit after a ``|``."""
    key = job_key(position, dice, ROLLOUT_PLY)
    key = key if played is None else f"{key}:{played.result.position_id()}"
    return key if context is None else f"{key}|{context_key(context)}"


def played_of(row: BoardAnalysis) -> Play | None:
    """The play made that a play rollout's key names (``play_rollout_key``)."""
    parts = row.key.split("|")[0].split(":")
    if len(parts) < 4:
        return None
    position = Position.from_position_id(row.position_id)
    return played_play(position, Dice(int(row.dice[0]), int(row.dice[1])), parts[3])


def played_play(position: Position, dice: Dice, result_id: str) -> Play | None:
    """The legal play of ``dice`` whose result (the mover's side) is ``result_id``."""
    for play in legal_plays(position, dice):
        if play.result.position_id() == result_id:
            return play
    return None


def find_play_rollout(
    position: Position, dice: Dice, played: Play | None, context: CubeContext | None = None
) -> BoardAnalysis | None:
    key = play_rollout_key(position, dice, played, context)
    return BoardAnalysis.objects.filter(key=key).first()


def request_analysis(
    position: Position,
    dice: Dice | str,
    enqueue: Callable[[int], None],
    requester: dict[str, Any] | None = None,
    context: CubeContext | None = None,
) -> BoardAnalysis:
    """The job for ``position`` and ``dice`` at ``context`` (``input.plays_context``),
    created and queued if new (or failed).

    ``enqueue`` is ``learning.tasks.enqueue_board_analysis`` (the tasks
    module imports this one), called after commit with the job's id."""
    ply = ply_for(dice)
    fields: dict[str, Any] = {
        "position_id": position.position_id(),
        "dice": dice_key(dice),
        "ply": ply,
    }
    if context is not None:
        fields["cube"] = {**context_json(context), "side": context.mover.value}
    key = job_key(position, dice, ply, context)
    return _request(key, {**fields, **(requester or {})}, enqueue)


def request_cube_analysis(
    position: Position,
    context: CubeContext,
    enqueue: Callable[[int], None],
    requester: dict[str, Any] | None = None,
) -> BoardAnalysis:
    """The job for the cube action of ``position``'s side on roll with ``context``."""
    ply = review_ply()
    cube = {**context_json(context), "side": context.mover.value}
    fields = {"position_id": position.position_id(), "dice": "", "cube": cube, "ply": ply}
    return _request(cube_key(position, context, ply), {**fields, **(requester or {})}, enqueue)


def request_cube_rollout(
    position: Position,
    context: CubeContext,
    enqueue: Callable[[int], None],
    requester: dict[str, Any] | None = None,
) -> BoardAnalysis:
    """The rollout job (精确分析) of the cube action of ``position``'s side on roll."""
    cube = {**context_json(context), "side": context.mover.value}
    fields = {"position_id": position.position_id(), "dice": "", "cube": cube, "ply": ROLLOUT_PLY}
    key = cube_key(position, context, ROLLOUT_PLY)
    return _request(key, {**fields, **(requester or {})}, enqueue)


def request_play_rollout(
    position: Position,
    dice: Dice,
    played: Play | None,
    enqueue: Callable[[int], None],
    requester: dict[str, Any] | None = None,
    context: CubeContext | None = None,
) -> BoardAnalysis:
    """The rollout job (精确分析) of the plays of ``dice`` (and ``played``), at
    ``context`` (``input.plays_context``)."""
    fields: dict[str, Any] = {
        "position_id": position.position_id(),
        "dice": dice_key(dice),
        "ply": ROLLOUT_PLY,
    }
    if context is not None:
        fields["cube"] = {**context_json(context), "side": context.mover.value}
    key = play_rollout_key(position, dice, played, context)
    return _request(key, {**fields, **(requester or {})}, enqueue)


def _request(key: str, fields: dict[str, Any], enqueue: Callable[[int], None]) -> BoardAnalysis:
    try:
        with transaction.atomic():
            row, created = BoardAnalysis.objects.get_or_create(key=key, defaults=fields)
    except IntegrityError:  # two requests raced to create it
        row, created = BoardAnalysis.objects.get(key=key), False
    if created or row.state == AnalysisState.FAILED or is_lost(row):
        now = timezone.now()
        BoardAnalysis.objects.filter(pk=row.pk).update(state=AnalysisState.PENDING, updated_at=now)
        row.state, row.updated_at = AnalysisState.PENDING, now
        transaction.on_commit(lambda: enqueue(row.pk))
    return row


def waited_seconds(row: BoardAnalysis) -> int:
    """Seconds since the job was queued, or since it started running."""
    return max(0, int((timezone.now() - row.updated_at).total_seconds()))


# How many jobs are ahead of a job in its queue (None: not there), counted
# on the queue of the task that runs it. ``learning.tasks``, which queues the
# jobs and imports this module, hands its count in when it is loaded (the
# app's receivers load it at start-up): this module never imports the tasks.
_count_ahead: Callable[[int], int | None] | None = None


def count_ahead_with(count: Callable[[int], int | None]) -> None:
    """Set how ``queued_ahead`` counts a job's place (``learning.tasks``)."""
    global _count_ahead
    _count_ahead = count


def queued_ahead(row: BoardAnalysis) -> int | None:
    """How many jobs are ahead of a pending job in its queue (None: not there)."""
    if _count_ahead is None:
        raise RuntimeError("learning.tasks is not loaded: it hands in the queue's count")
    return _count_ahead(row.pk)


def is_lost(row: BoardAnalysis, ahead: int | None = None) -> bool:
    """Waiting too long, and not in the queue: its message or worker is gone."""
    if row.state not in (AnalysisState.PENDING, AnalysisState.RUNNING):
        return False
    beat = cache.get(progress_key(row.pk)) if row.ply == ROLLOUT_PLY else None
    if beat is not None and time.time() - beat[2] < settings.BOARD_JOB_LOST_SECONDS:
        return False  # a rollout that told its progress lately is alive, however long it runs
    if waited_seconds(row) < settings.BOARD_JOB_LOST_SECONDS:
        return False
    if row.state == AnalysisState.PENDING and ahead is None:
        ahead = queued_ahead(row)
    return row.state == AnalysisState.RUNNING or ahead is None


def run_board_analysis(job_id: int, rank: RankFn = default_rank) -> None:
    """Rank the plays of one job and store them; idempotent."""
    row = BoardAnalysis.objects.filter(pk=job_id).first()
    if row is None or row.state == AnalysisState.DONE:
        return
    BoardAnalysis.objects.filter(pk=row.pk).update(
        state=AnalysisState.RUNNING, updated_at=timezone.now()
    )
    position = Position.from_position_id(row.position_id)
    try:
        if not row.dice and row.ply == ROLLOUT_PLY:
            context = read_context(row.cube, row.cube["side"])
            result: dict[str, Any] = {"cube": cube_rollout(row.pk, position, context)}
        elif not row.dice:
            context = read_context(row.cube, row.cube["side"])
            result = {"cube": _cube_action(position, context, row.ply)}
        elif row.ply == ROLLOUT_PLY:
            dice = Dice(int(row.dice[0]), int(row.dice[1]))
            judged = stored_context(row)
            result = play_rollout(row.pk, position, dice, played_of(row), judged, TOP_PLAYS)
        elif row.dice == ALL_ROLLS:
            result = {"rolls": _all_rolls(position, row.ply, rank, stored_context(row))}
        else:
            dice = Dice(int(row.dice[0]), int(row.dice[1]))
            plays = candidates.hint(position, dice, row.ply, TOP_PLAYS, rank, stored_context(row))
            result = {"plays": [c.to_json() for c in plays]}
    except Exception:
        BoardAnalysis.objects.filter(pk=row.pk).update(
            state=AnalysisState.FAILED, updated_at=timezone.now()
        )
        raise
    BoardAnalysis.objects.filter(pk=row.pk).update(
        state=AnalysisState.DONE, result=result, updated_at=timezone.now()
    )


def _cube_action(position: Position, context: CubeContext, ply: int) -> dict[str, Any]:
    """The doubler's advice and the taker's, from one cubeful evaluation; or
    why the side on roll may not double."""
    refusal = double_refusal(context.cube, context.match, context.mover)
    if refusal is not None:
        return {"refusal": str(refusal)}
    double = advise(position, context, DOUBLE, ply)
    take = advice_from(double.equities, context, TAKE, ply, double.market_losers)
    return {"double": double.to_json(), "take": take.to_json()}


def _all_rolls(
    position: Position, ply: int, rank: RankFn, context: CubeContext | None = None
) -> list[dict[str, Any]]:
    """The best play of each roll; a roll that cannot move is valued as the
    board left as it is (as ``ai_worker.luck`` values it)."""
    rolls = []
    dance: float | None = None
    for d1, d2, weight in ROLLS:
        best = candidates.hint(position, Dice(d1, d2), ply, 1, rank, context)
        if best:
            equity = best[0].equity
        else:
            dance = luck.static_value(position, ply, context)[0] if dance is None else dance
            equity = dance
        play = best[0].to_json() if best else None
        rolls.append({"dice": [d1, d2], "weight": weight, "equity": equity, "play": play})
    return rolls
