"""The post-game review: every turn of both sides, one level deeper than the Expert.

Every decision is ranked one ply deeper than the Expert plays, every play
it lists valued alike (``ai_worker.analysis.analyse_turn``), so the Expert's
own moves can be found wrong and a play's value never depends on whether it
was made.
Luck is measured at the review's depth: the roll's best play at the Expert's
depth against the average of the 21 rolls' (the position's value one ply
deeper).

Every figure is in the judgement unit of the turn's cube and score
(``ai_worker.context``): cubeless in a single game, cubeful money equity per
unit of the cube in a money game, normalized money equivalents (EMG) in a
match, where each turn also stores its luck in match winning chances
(``luck_mwc``) and the mover's cubeless chance to win the match after it.

``run_analysis`` is what ``learning.tasks.analyse_game`` runs. It is
idempotent per game: a finished analysis is left alone, a half-done one (a
worker that died) starts again from the first turn it has not stored.
Progress goes to the game's sockets through ``games.live.broadcast.send_to_game``
after each turn and when the job ends (done or failed); the review page reads
``analysis_status`` once each time its socket opens.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from ai_worker import analysis, grading, rank_cache
from ai_worker.analysis import review_ply
from ai_worker.context import CubeContext, mwc_of
from ai_worker.ranking import RankFn, default_rank
from games.engine import Dice, Play, Position, play_leading_to
from games.live import broadcast
from games.models import Game, Status, Turn
from learning.models import AnalysisState, CubeAnalysis, GameAnalysis, TurnAnalysis
from learning.review import cube as cube_review
from learning.review.pr import pr_figures

log = logging.getLogger(__name__)

SIDES = ("light", "dark")


def ensure_analysis(game: Game) -> GameAnalysis | None:
    """The game's analysis row, created (pending) for a finished game."""
    if game.status != Status.FINISHED:
        return None
    row, _created = GameAnalysis.objects.get_or_create(
        game=game, defaults={"ply": review_ply(), "turns_total": game.turns.count()}
    )
    return row


# A running review stores a turn every few hundred milliseconds; one silent
# for this long was lost with its worker and may be taken over.
STALE_AFTER = timedelta(seconds=60)


def claim(row: GameAnalysis) -> bool:
    """Mark the review running, unless it is done or another job is on it."""
    now = timezone.now()
    takeable = Q(state__in=(AnalysisState.PENDING, AnalysisState.FAILED)) | Q(
        state=AnalysisState.RUNNING, updated_at__lt=now - STALE_AFTER
    )
    claimed = GameAnalysis.objects.filter(takeable, pk=row.pk).update(
        state=AnalysisState.RUNNING, updated_at=now
    )
    return claimed == 1


def needs_queueing(row: GameAnalysis) -> bool:
    """Whether the review may be queued again: it failed, or nothing has
    moved for a while (a job lost before it started, or a game from before
    the review job existed)."""
    if row.state == AnalysisState.FAILED:
        return True
    if row.state == AnalysisState.DONE:
        return False
    if row.queued_at is None and row.game.imported_from_id is not None:
        return False  # an imported game's review waits its turn (learning.study.queue)
    return row.updated_at < timezone.now() - STALE_AFTER


def queue_analysis(game: Game) -> bool:
    """Ready a missing, failed or lost review of a finished game to run again
    (pending, its clock restarted); True when the caller should queue it.
    A second call on a readied review says False (``claim`` guards the rest)."""
    row = GameAnalysis.objects.filter(game=game).first()
    if row is None:
        return ensure_analysis(game) is not None
    if not needs_queueing(row):
        return False
    readied = GameAnalysis.objects.filter(pk=row.pk, updated_at=row.updated_at).update(
        state=AnalysisState.PENDING, message="", updated_at=timezone.now()
    )
    return readied == 1


@dataclass
class _Job:
    """One run of a game's review: what is stored already, what is left."""

    row: GameAnalysis
    game: Game
    turns: list[Turn]
    decisions: list[cube_review.CubeDecision]
    done: set[int]  # turn numbers stored
    judged: set[tuple[int, str]]  # (before_turn, decision) stored
    deadline: float | None = None  # time.monotonic() when the slice ends

    def check_time(self) -> None:
        """Raise ``_SliceOver`` once the slice's time is up (a slice does one item at least)."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _SliceOver

    @property
    def count(self) -> int:
        return len(self.done) + len(self.judged)

    @property
    def total(self) -> int:
        return len(self.turns) + len(self.decisions)

    def progress(self, state: str = AnalysisState.RUNNING) -> None:
        _progress(self.game.pk, self.count, self.total, state=state)


class _SliceOver(Exception):
    """The slice's time is up with turns left (``run_analysis``)."""


def run_analysis(
    game_id: int, rank: RankFn = default_rank, slice_seconds: float | None = None
) -> bool:
    """Analyse every stored turn of a finished game that is not analysed yet,
    then its cube decisions (a game with the cube).

    With ``slice_seconds``, stop once that long has gone by (after one turn
    at least), leave the review pending and say False: the caller queues the
    next slice, which resumes after the last stored turn. True otherwise
    (done, failed, or nothing for this job to do).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or (row := ensure_analysis(game)) is None:
        return True
    if not claim(row):
        return True
    started = time.monotonic()
    job = _Job(
        row,
        game,
        list(game.turns.order_by("number")),
        cube_review.cube_decisions(game),
        set(row.turns.values_list("number", flat=True)),
        {(c.before_turn, c.decision) for c in row.cube_decisions.all()},
        None if slice_seconds is None else started + slice_seconds,
    )
    # The progress counts the turns, then the cube decisions.
    GameAnalysis.objects.filter(pk=row.pk).update(
        turns_total=job.total, turns_done=job.count, ply=row.ply, updated_at=timezone.now()
    )
    try:
        _review_turns(job, rank)
        _review_cubes(job)
        _finish(row, time.monotonic() - started)
    except _SliceOver:
        # Pending again, so the next slice may claim it; its clock keeps the time spent.
        GameAnalysis.objects.filter(pk=row.pk, state=AnalysisState.RUNNING).update(
            state=AnalysisState.PENDING,
            seconds=F("seconds") + (time.monotonic() - started),
            updated_at=timezone.now(),
        )
        return False
    except Exception as exc:
        log.exception("analysis of game %s failed", game_id)
        GameAnalysis.objects.filter(pk=row.pk).update(
            state=AnalysisState.FAILED, message=str(exc)[:2000], updated_at=timezone.now()
        )
        job.progress(AnalysisState.FAILED)
        raise
    job.progress(AnalysisState.DONE)
    return True


def _review_turns(job: _Job, rank: RankFn) -> None:
    row, first = job.row, job.turns[0].number if job.turns else 0
    contexts = cube_review.turn_contexts(job.game)
    for turn in job.turns:
        if turn.number in job.done:
            continue
        context = contexts.get(turn.number)
        report = analyse_stored_turn(
            turn, row.ply, rank, opening=turn.number == first, context=context
        )
        _store(row, turn, report, context)
        job.done.add(turn.number)
        job.progress()
        job.check_time()


def _review_cubes(job: _Job) -> None:
    """Each cube decision at the review's depth (``cube_review.judge``)."""
    row = job.row
    for decision in job.decisions:
        if (decision.before_turn, decision.decision) in job.judged:
            continue
        cube_review.store(row, decision, cube_review.judge(decision, row.ply))
        job.judged.add((decision.before_turn, decision.decision))
        GameAnalysis.objects.filter(pk=row.pk).update(
            turns_done=job.count, updated_at=timezone.now()
        )
        job.progress()
        job.check_time()


def mover_positions(turn: Turn) -> tuple[Position, Position]:
    """(before, after) of a stored turn, both from the mover's side."""
    before = Position.from_position_id(turn.position_before)
    after = Position.from_position_id(turn.position_after)
    if turn.side == "dark":
        return before.swapped(), after.swapped()
    return before, after


def played_play(position: Position, dice: Dice, after: Position) -> Play | None:
    """The legal play that led from ``position`` to ``after`` (None for a pass)."""
    return play_leading_to(position, dice, after)


def analyse_stored_turn(
    turn: Turn,
    ply: int,
    rank: RankFn,
    *,
    opening: bool = False,
    context: CubeContext | None = None,
) -> analysis.TurnReport:
    """One stored turn reviewed at ``ply`` (see ``analysis.review_turn``) in
    ``context``'s unit (its cube and score: ``cube.turn_contexts``)."""
    before, after = mover_positions(turn)
    dice = Dice(turn.die1, turn.die2)
    played = played_play(before, dice, after) if turn.steps else None
    # The roll made ranked through the cache the tutor and the hint share.
    return analysis.review_turn(
        before,
        dice,
        played,
        ply=ply,
        rank=rank,
        opening=opening,
        shared=rank_cache.cached_rank,
        context=context,
    )


def _store(
    row: GameAnalysis,
    turn: Turn,
    report: analysis.TurnReport,
    context: CubeContext | None = None,
) -> None:
    win_light = report.win if turn.side == "light" else 1.0 - report.win
    stored = report.to_json()
    if context is not None and not context.match.is_money:
        # In a match the graph shows the chance to win the match, and the
        # luck is said in match winning chances too.
        if report.after is not None:
            mwc = cube_review.match_chance(report.after, context)
            if mwc is not None:
                stored["mwc_light"] = round(mwc if turn.side == "light" else 1.0 - mwc, 4)
        if report.luck is not None:
            stored["luck_mwc"] = round(mwc_of(context, report.luck), 5)
    with transaction.atomic():
        TurnAnalysis.objects.update_or_create(
            analysis=row,
            number=turn.number,
            defaults={
                "turn": turn,
                "side": turn.side,
                "forced": report.forced,
                "equity_lost": report.equity_lost,
                "error_class": report.error.value,
                "luck": report.luck,
                "win_light": win_light,
                "report": stored,
            },
        )
        GameAnalysis.objects.filter(pk=row.pk).update(
            turns_done=row.turns.count() + row.cube_decisions.count(), updated_at=timezone.now()
        )


def summarise(turns: Sequence[TurnAnalysis], cubes: Sequence[CubeAnalysis] = ()) -> dict[str, Any]:
    """Per side: the checker error rate per decision (``error_rate``), the cube
    error rate per cube decision (``cube``) and both together
    (``total_error_rate``), rating band, counts by class, luck, and the PR
    (``learning.review.pr.pr_figures``: checker, cube, overall, band)."""
    summary: dict[str, Any] = {}
    for side in SIDES:
        mine = [t for t in turns if t.side == side]
        cube = [c for c in cubes if c.side == side]
        losses = [(t.equity_lost, t.forced) for t in mine]
        cube_losses = [(c.equity_lost, c.trivial) for c in cube]
        rate = grading.error_rate(losses)
        total = grading.error_rate(losses + cube_losses)
        summary[side] = {
            "error_rate": rate,
            "rating": grading.rating_band(rate) if rate is not None else None,
            "decisions": sum(1 for t in mine if not t.forced),
            "turns": len(mine),
            "counts": _counts(t.error_class for t in mine),
            "luck": round(sum(t.luck or 0.0 for t in mine), 4),
            # In a match the same luck in match winning chances (None elsewhere).
            "luck_mwc": _luck_mwc(mine),
            "equity_lost": round(sum(t.equity_lost for t in mine), 4),
            "cube": {
                "error_rate": grading.error_rate(cube_losses),
                "decisions": sum(1 for c in cube if not c.trivial),
                "counts": _counts(c.error_class for c in cube),
                "equity_lost": round(sum(c.equity_lost for c in cube), 4),
            },
            "total_error_rate": total,
            "total_rating": grading.rating_band(total) if total is not None else None,
            "pr": pr_figures(side, turns, cubes),
        }
    return summary


def _luck_mwc(turns: Sequence[TurnAnalysis]) -> float | None:
    found = [t.report.get("luck_mwc") for t in turns if isinstance(t.report, dict)]
    known = [float(v) for v in found if v is not None]
    return round(sum(known), 5) if known else None


def _counts(classes: Iterable[str]) -> dict[str, int]:
    counts = {c.value: 0 for c in grading.ErrorClass if c is not grading.ErrorClass.NONE}
    for value in classes:
        if value in counts:
            counts[value] += 1
    return counts


def match_summary(game: Game) -> dict[str, Any] | None:
    """The same figures over every analysed game of ``game``'s match."""
    if game.match_id is None:
        return None
    rows = GameAnalysis.objects.filter(game__match_id=game.match_id, state=AnalysisState.DONE)
    turns = list(TurnAnalysis.objects.filter(analysis__in=rows))
    cubes = list(CubeAnalysis.objects.filter(analysis__in=rows))
    return {"games": rows.count(), **summarise(turns, cubes)}


def _finish(row: GameAnalysis, seconds: float) -> None:
    turns = list(row.turns.all())
    cubes = list(row.cube_decisions.all())
    GameAnalysis.objects.filter(pk=row.pk).update(
        state=AnalysisState.DONE,
        summary=summarise(turns, cubes),
        turns_done=len(turns) + len(cubes),
        seconds=row.seconds + seconds,
        message="",
        updated_at=timezone.now(),
    )


def _progress(game_id: int, done: int, total: int, state: str = AnalysisState.RUNNING) -> None:
    broadcast.send_to_game(
        game_id, {"type": "analysis", "state": str(state), "done": done, "total": total}
    )
