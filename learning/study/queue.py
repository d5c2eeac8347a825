"""A fair share of the analysis worker: budgets for study work, imported
games' reviews fed one at a time, and how many reviews are ahead.

The computer's work has three queues (config/celery.py), taken in this
order by a worker that serves more than one: ``moves`` (the computer's
turns), ``hints`` (a game in progress: hints, the tutor), ``analysis``
(study: reviews, analysis-board jobs). A review runs in slices
(``REVIEW_SLICE_SECONDS``) and queues its next slice behind what came
meanwhile, so a hint waits for one slice at most and reviews of different
games take turns.

Imported games are study objects the person asked for in bulk: their
reviews are fed to the queue one per owner at a time (``feed_imports``),
so a 100-game file holds one place in the queue, not a hundred. Budgets
bound what one user, or one address (guests), may keep waiting:
``admit_import`` refuses an import whose games would pass it, and
``board_job_allowed`` a new analysis-board job, each with a message in
words.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game
from learning.models import AnalysisState, BoardAnalysis, GameAnalysis

WAITING = (AnalysisState.PENDING, AnalysisState.RUNNING)
ROLLOUT_PLY = 0  # a BoardAnalysis row's ply for a rollout (learning.study.board)
# A fed review whose row has not moved for this long was lost with its
# message (a worker or the broker gone): ``feed_stalled`` queues it again.
LOST_AFTER = timedelta(seconds=90)


class StudyQueueFullError(Exception):
    """The study queue's budget for this user or address is used up."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def budget(name: str) -> int:
    return int(settings.STUDY_BUDGETS[name])


def _imported_waiting() -> Q:
    return Q(game__imported_from__isnull=False, state__in=WAITING)


def admit_import(user_id: int, address: str | None) -> Callable[[int], None]:
    """``admit(count)`` for ``games.services.import_match_file``: raises
    ``StudyQueueFullError`` when ``count`` more imported games would pass the
    user's or the address's budget of reviews waiting."""

    def admit(count: int) -> None:
        # Counted by game: a review's row is made after the import commits.
        waiting = Game.objects.filter(imported_from__isnull=False).exclude(
            analysis__state__in=(AnalysisState.DONE, AnalysisState.FAILED)
        )
        mine = waiting.filter(owner_id=user_id).count()
        if mine + count > budget("imports_user"):
            raise StudyQueueFullError(_full_message(mine))
        if address:
            from_here = waiting.filter(imported_from__address=address).count()
            if from_here + count > budget("imports_address"):
                raise StudyQueueFullError(_full_message(from_here))

    return admit


def _full_message(waiting: int) -> str:
    return ngettext(
        "Your review queue is full (%(count)d imported game is still waiting for its "
        "review). Import again once the earlier ones are done.",
        "Your review queue is full (%(count)d imported games are still waiting for their "
        "reviews). Import again once the earlier ones are done.",
        waiting,
    ) % {"count": waiting}


def board_job_allowed(visitor: str, address: str | None) -> str | None:
    """None if ``visitor`` may queue another analysis-board job, else why not."""
    waiting = BoardAnalysis.objects.filter(state__in=WAITING)
    if waiting.filter(requested_by=visitor).count() >= budget("board_visitor") or (
        address and waiting.filter(address=address).count() >= budget("board_address")
    ):
        return _("You already have analyses waiting; this one can be asked for once they are done.")
    return None


def rollout_allowed(visitor: str) -> str | None:
    """None if ``visitor`` may start a rollout (精确分析), else why not: one of
    theirs is still waiting or running, or today's budget is spent."""
    mine = BoardAnalysis.objects.filter(requested_by=visitor, ply=ROLLOUT_PLY)
    if mine.filter(state__in=WAITING).exists():
        return _("A rollout of yours is still running; ask for this one once it is done.")
    since = timezone.now() - timedelta(days=1)
    count = budget("rollouts_day")
    if mine.filter(created_at__gte=since).count() >= count:
        return ngettext(
            "You have used your %(count)d rollout for the day; the N-ply analysis stays available.",
            "You have used your %(count)d rollouts for the day; the N-ply analysis stays "
            "available.",
            count,
        ) % {"count": count}
    return None


def feed_imports(owner_id: int, enqueue: Callable[[int], None]) -> bool:
    """Queue the owner's next imported game's review unless one of theirs is
    queued or running; True if one was queued (``enqueue(game_id)`` after commit)."""
    mine = GameAnalysis.objects.filter(_imported_waiting(), game__owner_id=owner_id)
    if mine.filter(queued_at__isnull=False).exists():
        return False
    following = mine.filter(queued_at__isnull=True).order_by("pk").first()
    if following is None:
        return False
    fed = GameAnalysis.objects.filter(pk=following.pk, queued_at__isnull=True).update(
        queued_at=timezone.now()
    )
    if fed != 1:
        return False  # another feed took it
    game_id = following.game_id
    transaction.on_commit(lambda: enqueue(game_id))
    return True


def feed_stalled(enqueue: Callable[[int], None]) -> int:
    """Each owner's imported reviews going again after a lost message: a fed
    review silent for ``LOST_AFTER`` is queued anew, an owner with held
    reviews and none fed is fed. The number of reviews queued."""
    lost_before = timezone.now() - LOST_AFTER
    queued = 0
    lost = GameAnalysis.objects.filter(
        _imported_waiting(), queued_at__lt=lost_before, updated_at__lt=lost_before
    )
    for row in lost:
        GameAnalysis.objects.filter(pk=row.pk).update(queued_at=timezone.now())
        enqueue(row.game_id)
        queued += 1
    owners = (
        GameAnalysis.objects.filter(_imported_waiting(), queued_at__isnull=True)
        .values_list("game__owner_id", flat=True)
        .distinct()
    )
    for owner_id in owners:
        queued += feed_imports(owner_id, enqueue)
    return queued


def reviews_ahead(row: GameAnalysis) -> int | None:
    """How many reviews run before this waiting one (None once it runs or ran).

    A played game's review waits for the reviews queued before it; an
    imported game's for the owner's imported games before it too, fed one
    at a time after them.
    """
    if row.state != AnalysisState.PENDING or row.turns_done:
        return None
    queued = GameAnalysis.objects.filter(state__in=WAITING).filter(
        Q(game__imported_from__isnull=True) | Q(queued_at__isnull=False)
    )
    game: Game = row.game
    if game.imported_from_id is None or row.queued_at is not None:
        return queued.filter(pk__lt=row.pk).count()
    held_before = GameAnalysis.objects.filter(
        _imported_waiting(), game__owner_id=game.owner_id, queued_at__isnull=True, pk__lt=row.pk
    ).count()
    return queued.count() + held_before
