"""The course's rows: each person's progress through each lesson.

``learning.models`` imports this module so Django sees the model. The row
belongs to the user; a guest's rows stay theirs at sign-up, since the guest
account becomes the named account.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_seed() -> int:
    """The seed of a run's quiz (``learning.course.quiz``)."""
    return secrets.randbelow(2**31)


class LessonProgress(models.Model):
    """``stars``: the best finished run (0 before the first); ``task`` and
    ``misses``: where the current run stands and how many tries it missed,
    ``task_misses`` of them on its current task (two bring a hint);
    ``seed``: the current run's quiz."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lessons"
    )
    lesson = models.CharField(max_length=40)
    stars = models.PositiveSmallIntegerField(default=0)
    task = models.PositiveSmallIntegerField(default=0)
    misses = models.PositiveSmallIntegerField(default=0)
    task_misses = models.PositiveSmallIntegerField(default=0)
    seed = models.PositiveIntegerField(default=new_seed)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "lesson"], name="one_progress_per_lesson")
        ]

    def __str__(self) -> str:
        return f"{self.owner_id} {self.lesson}: {self.stars} stars"
