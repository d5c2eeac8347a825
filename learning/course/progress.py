"""Each person's stars and where their run through a lesson stands.

A run through a lesson counts the person's misses: a complete play or an
answer that misses the goal. A step the rules refuse is not one (nothing
moved; the refusal says why), nor is a tap on a checker that cannot move.
Finishing the last task (the
quiz's last, when the lesson has one) gives the run's stars (3 with no miss,
2 with one or two, else 1), keeps the best run's, and starts the next run
from the first task with a new quiz.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from learning.course.check import Verdict
from learning.course.lessons import LESSONS
from learning.course.models import LessonProgress, new_seed
from learning.course.quiz import lesson_tasks
from learning.course.shapes import Lesson

MAX_STARS = 3
# The most misses that still earn two stars.
TWO_STAR_MISSES = 2


def stars_for(misses: int) -> int:
    if misses == 0:
        return MAX_STARS
    return 2 if misses <= TWO_STAR_MISSES else 1


def rows_of(user: Any) -> dict[str, LessonProgress]:
    if not user.is_authenticated:
        return {}
    return {row.lesson: row for row in LessonProgress.objects.filter(owner=user)}


def next_lesson(user: Any) -> Lesson | None:
    """The first lesson not finished yet; None once every lesson has stars."""
    rows = rows_of(user)
    return next((lesson for lesson in LESSONS if not _stars(rows, lesson)), None)


def lesson_after(lesson: Lesson) -> Lesson | None:
    index = LESSONS.index(lesson)
    return LESSONS[index + 1] if index + 1 < len(LESSONS) else None


def _stars(rows: dict[str, LessonProgress], lesson: Lesson) -> int:
    row = rows.get(lesson.slug)
    return row.stars if row else 0


def course_map(user: Any) -> list[dict[str, Any]]:
    """Every lesson in order with its number, stars and address."""
    rows = rows_of(user)
    return [
        {
            "number": n,
            "slug": lesson.slug,
            "title": lesson.title,
            "stars": _stars(rows, lesson),
            "url": reverse("learning:lesson", args=[lesson.slug]),
        }
        for n, lesson in enumerate(LESSONS, 1)
    ]


def run_of(user: Any, lesson: Lesson) -> dict[str, int]:
    """Where the person's run through ``lesson`` stands (its row made if new)."""
    row, _created = LessonProgress.objects.get_or_create(owner=user, lesson=lesson.slug)
    return {
        "task": row.task,
        "misses": row.misses,
        "task_misses": row.task_misses,
        "stars": row.stars,
        "seed": row.seed,
    }


@dataclass(frozen=True)
class Recorded:
    """The run after a verdict: ``finished`` with ``run_stars`` when the last
    task was just done."""

    task: int
    misses: int
    stars: int
    finished: bool = False
    run_stars: int = 0
    task_misses: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "misses": self.misses,
            "task_misses": self.task_misses,
            "stars": self.stars,
            "finished": self.finished,
            "run_stars": self.run_stars,
        }


def record(user: Any, lesson: Lesson, index: int, verdict: Verdict) -> Recorded:
    """Count ``verdict`` on task ``index`` of the person's run (a task done
    again after it, or a partial play, changes nothing)."""
    with transaction.atomic():
        LessonProgress.objects.get_or_create(owner=user, lesson=lesson.slug)
        row = LessonProgress.objects.select_for_update().get(owner=user, lesson=lesson.slug)
        if index != row.task or verdict.state not in ("miss", "done"):
            return Recorded(row.task, row.misses, row.stars, task_misses=row.task_misses)
        if verdict.counts_as_miss:
            row.misses += 1
            row.task_misses += 1
            row.save(update_fields=["misses", "task_misses", "updated_at"])
            return Recorded(row.task, row.misses, row.stars, task_misses=row.task_misses)
        row.task += 1
        row.task_misses = 0
        total = len(lesson_tasks(lesson, row.seed))
        if row.task < total:
            row.save(update_fields=["task", "task_misses", "updated_at"])
            return Recorded(row.task, row.misses, row.stars)
        run_stars = stars_for(row.misses)
        row.stars = max(row.stars, run_stars)
        row.finished_at = timezone.now()
        misses, row.task, row.misses, row.seed = row.misses, 0, 0, new_seed()
        row.save()
        return Recorded(total, misses, row.stars, True, run_stars)
