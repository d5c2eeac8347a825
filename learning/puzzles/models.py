"""The puzzles' rows (练习题, issue 47): the puzzles, each person's puzzle
rating, each person's first attempt at a puzzle and their first try at
one of their game's errors again.

``learning.models`` imports this module so Django sees the models. A
guest's rating and attempts stay theirs at sign-up: the guest account
becomes the named account. Rows are written only by
``learning.puzzles.attempts`` (answers), ``learning.puzzles.retry`` (tries
again) and ``learning.puzzles.bank`` / ``learning.puzzles.personal``
(puzzles).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

# Glicko-2's starting point (lichess's for puzzles: 1500, 500, 0.09).
START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09


class Puzzle(models.Model):
    """A position and a question whose answers a rollout confirmed.

    ``kind`` "checker": ``die1``/``die2`` rolled, ``answers`` the Position
    IDs the accepted plays lead to, ``ranking`` the review's ranking of
    every play ([notation, result, equity, chances, ply], best first).
    ``kind`` "cube": ``question`` "double" or "take", ``answers`` the
    accepted actions, ``ranking`` the review's cube advice
    (``CubeAdvice.to_json``), ``context`` the cube and the score
    (``learning.board.input.context_json``, the doubler light).
    ``tags`` holds the themes as " a b c " so a filter is one LIKE.
    An ``owner`` makes it one of that person's own errors: theirs only.
    """

    key = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=7)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="own_puzzles",
    )
    position_id = models.CharField(max_length=14)
    die1 = models.PositiveSmallIntegerField(default=0)
    die2 = models.PositiveSmallIntegerField(default=0)
    question = models.CharField(max_length=6, blank=True)
    context = models.JSONField(default=dict, blank=True)
    turn = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=8)
    tags = models.CharField(max_length=255, default=" ")
    answers = models.JSONField(default=list)
    ranking = models.JSONField(default=list)
    rollout = models.JSONField(default=dict)  # learning.puzzles.verify's verdict and means
    status = models.CharField(max_length=9)  # confirmed (rated) or close (never rated)
    source = models.CharField(max_length=40, blank=True)
    tiers = models.JSONField(default=dict, blank=True)  # each tier's solve rate
    rating = models.FloatField(default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    volatility = models.FloatField(default=START_VOLATILITY)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "owner", "rating"], name="puzzle_pick"),
        ]

    def __str__(self) -> str:
        return f"Puzzle {self.pk} {self.key} ({self.status}, {self.rating:.0f})"

    @property
    def rated(self) -> bool:
        return self.status == "confirmed"


class PuzzleRating(models.Model):
    """A person's Glicko-2 puzzle rating."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    rating = models.FloatField(default=START_RATING)
    deviation = models.FloatField(default=START_DEVIATION)
    volatility = models.FloatField(default=START_VOLATILITY)
    attempts = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating:.0f} ± {self.deviation:.0f}"


class PuzzleAttempt(models.Model):
    """A person's first answer to a puzzle: the one that counts, once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="tries")
    solved = models.BooleanField()
    answer = models.CharField(max_length=40)  # the play's notation or the cube action
    lost = models.FloatField(null=True, blank=True)  # the answer's loss, when ranked
    theme = models.CharField(max_length=40, blank=True)  # what was trained ("" the mix)
    rated = models.BooleanField(default=True)
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    puzzle_before = models.FloatField()
    puzzle_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "puzzle"], name="one_attempt_per_puzzle")
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="attempt_user_time")]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.puzzle_id}: {'solved' if self.solved else 'failed'}"


class RetryAnswer(models.Model):
    """A person's first try at one of their game's errors again (再试一次):
    the one that goes to practice's queue, once (``learning.puzzles.retry``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="retry_answers"
    )
    turn = models.OneToOneField(
        "learning.TurnAnalysis", on_delete=models.CASCADE, related_name="retry_answer"
    )
    solved = models.BooleanField()
    answer = models.CharField(max_length=40)  # the play's notation
    lost = models.FloatField(null=True, blank=True)  # against the review's best, when ranked
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} retried {self.turn_id}: {'right' if self.solved else 'wrong'}"
