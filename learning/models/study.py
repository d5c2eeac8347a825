"""The study side's rows: analysis-board jobs and practice positions.

``learning.models`` imports this module so Django sees the models.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from learning.models.analysis import AnalysisState


class BoardAnalysis(models.Model):
    """One analysis-board job: a position and its dice (or all 21 rolls).

    ``key`` is ``POSITION_ID:DICE:PLY`` (DICE is ``63`` or ``all``), so one
    position and roll is analysed once, whoever asks. The cube action before
    the roll is a job of its own: ``dice`` empty, ``cube`` the cube and the
    score (``board_input.context_json``) with the side on roll, all in the key.
    """

    key = models.CharField(max_length=64, unique=True)
    position_id = models.CharField(max_length=14)
    dice = models.CharField(max_length=3, blank=True)
    cube = models.JSONField(default=dict, blank=True)
    ply = models.PositiveSmallIntegerField()
    state = models.CharField(
        max_length=8, choices=AnalysisState.choices, default=AnalysisState.PENDING
    )
    # {"plays": [Candidate.to_json()...]}, {"rolls": [{"dice", "weight", "play"}...]}
    # or {"cube": {"double": CubeAdvice.to_json(), "take": ...} or {"refusal": code}}
    result = models.JSONField(default=dict, blank=True)
    # Who asked first (a user or an address, ``study_views.visitor_key``) and
    # from where: the study queue's budgets count the jobs still waiting.
    requested_by = models.CharField(max_length=64, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Board analysis {self.key} ({self.state})"


class PracticeItem(models.Model):
    """A decision of the person's, marked ? or ?? in a review, to practise:
    a checker play (``turn``) or a cube decision (``cube``, ``decision`` is
    ``double`` or ``take``; no dice, ``context`` the cube and the score).

    Spaced repetition: ``due`` is when it comes back; ``streak`` counts the
    right answers in a row (1, 3, 7, 21 days), a wrong answer resets it.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_items"
    )
    turn = models.OneToOneField(
        "learning.TurnAnalysis",
        on_delete=models.CASCADE,
        related_name="practice",
        null=True,
        blank=True,
    )
    cube = models.OneToOneField(
        "learning.CubeAnalysis",
        on_delete=models.CASCADE,
        related_name="practice",
        null=True,
        blank=True,
    )
    decision = models.CharField(max_length=6, blank=True)  # "" a play, "double" or "take"
    context = models.JSONField(default=dict, blank=True)  # a cube decision's cube and score
    # From the side on roll: the person's for a play or a double, the
    # doubler's (the computer's) when the person answers a double.
    position_id = models.CharField(max_length=14)
    die1 = models.PositiveSmallIntegerField(default=0)
    die2 = models.PositiveSmallIntegerField(default=0)
    error_class = models.CharField(max_length=8)
    phase = models.CharField(max_length=8)
    due = models.DateTimeField()
    streak = models.PositiveSmallIntegerField(default=0)
    answers = models.PositiveIntegerField(default=0)
    right = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due", "pk"]
        indexes = [models.Index(fields=["owner", "due"], name="practice_owner_due")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(turn__isnull=False, cube__isnull=True)
                | models.Q(turn__isnull=True, cube__isnull=False),
                name="practice_play_or_cube",
            )
        ]

    def __str__(self) -> str:
        what = self.decision or f"{self.die1}{self.die2}"
        return f"Practice {self.position_id} {what} due {self.due:%Y-%m-%d}"
