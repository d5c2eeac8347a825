"""What the analysis worker found: per game, per turn, and hints.

Rows here are written only by ``learning.review.game`` and ``learning.hints``
(run by the Celery tasks in ``learning.tasks``); views read them.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class AnalysisState(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Analysing")
    DONE = "done", _("Done")
    FAILED = "failed", pgettext_lazy("analysis state", "Failed")


class ErrorClass(models.TextChoices):
    """ai_worker.grading.ErrorClass values (GNU Backgammon's marks)."""

    NONE = "none", _("Good")
    DOUBTFUL = "doubtful", _("Doubtful")
    BAD = "bad", _("Bad")
    VERY_BAD = "very_bad", _("Very bad")


class GameAnalysis(models.Model):
    """The review of one finished game; progress counts analysed turns."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    state = models.CharField(
        max_length=8, choices=AnalysisState.choices, default=AnalysisState.PENDING
    )
    ply = models.PositiveSmallIntegerField(default=2)
    turns_total = models.PositiveIntegerField(default=0)
    turns_done = models.PositiveIntegerField(default=0)
    # Per side ("light" / "dark"): error rate, decisions, luck, counts by class.
    summary = models.JSONField(default=dict, blank=True)
    seconds = models.FloatField(default=0.0)
    message = models.TextField(blank=True)
    # An imported game's review waits unqueued until it is fed to the queue
    # (learning.study.queue.feed_imports); null: held, or a played game's.
    queued_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        done = f"{self.turns_done}/{self.turns_total}"
        return f"Analysis of game {self.game_id} ({self.state} {done})"

    @property
    def progress(self) -> float:
        if self.state == AnalysisState.DONE:
            return 1.0
        return self.turns_done / self.turns_total if self.turns_total else 0.0

    def error_rate(self, side: str) -> float | None:
        value = self.summary.get(side, {}).get("error_rate")
        return None if value is None else float(value)


class TurnAnalysis(models.Model):
    """One turn of either side, reviewed: alternatives, loss, class, luck."""

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="turns")
    turn = models.OneToOneField("games.Turn", on_delete=models.CASCADE, related_name="analysis")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=5)
    forced = models.BooleanField(default=False)
    equity_lost = models.FloatField(default=0.0)
    error_class = models.CharField(
        max_length=8, choices=ErrorClass.choices, default=ErrorClass.NONE
    )
    luck = models.FloatField(null=True, blank=True)
    # The person's (LIGHT's) chance to win after this turn, for the graph.
    win_light = models.FloatField(default=0.5)
    # ai_worker.analysis.TurnReport.to_json(): alternatives with reasons, etc.
    report = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["analysis", "number"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "number"], name="turn_analysis_number"),
        ]

    def __str__(self) -> str:
        return f"{self.analysis.game_id}#{self.number} {self.error_class} {self.equity_lost:.3f}"


class CubeAnalysis(models.Model):
    """One cube decision of either side, reviewed (``learning.review.cube``):
    the doubler's (double / no double) or the taker's (take / pass)."""

    analysis = models.ForeignKey(
        GameAnalysis, on_delete=models.CASCADE, related_name="cube_decisions"
    )
    before_turn = models.PositiveIntegerField()  # as games.CubeAction.before_turn
    side = models.CharField(max_length=5)  # the side that decided
    decision = models.CharField(max_length=6)  # "double" or "take"
    action = models.CharField(max_length=9)  # no_double / double / take / pass
    best = models.CharField(max_length=9)  # no_double / double / too_good / take / pass
    equity_lost = models.FloatField(default=0.0)
    error_class = models.CharField(
        max_length=8, choices=ErrorClass.choices, default=ErrorClass.NONE
    )
    # A right no-double far from the doubling window: not counted in the rate.
    trivial = models.BooleanField(default=False)
    report = models.JSONField(default=dict, blank=True)  # CubeAdvice.to_json()

    class Meta:
        ordering = ["analysis", "before_turn", "decision"]
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "before_turn", "decision"], name="cube_analysis_decision"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.analysis.game_id}@{self.before_turn} {self.side} {self.action}"


class Hint(models.Model):
    """The best plays for the person's roll at one version of a game, or the
    right cube action when the person is to double or to answer a double."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="hints")
    version = models.PositiveIntegerField()
    state = models.CharField(
        max_length=8, choices=AnalysisState.choices, default=AnalysisState.PENDING
    )
    dice = models.JSONField(null=True, blank=True)
    # [Candidate.to_json(), ...] best first, steps in display numbering.
    candidates = models.JSONField(default=list, blank=True)
    # A hint on a cube decision (to double, or to take): CubeAdvice.to_json().
    cube = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="hint_game_version"),
        ]

    def __str__(self) -> str:
        return f"Hint for game {self.game_id} v{self.version} ({self.state})"
