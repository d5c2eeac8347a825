"""A game against the computer and its finished turns.

Every position is stored from LIGHT's side (the person's), as a gnubg
Position ID; DARK plays on ``position.swapped()``. Only ``games.services``
writes these rows.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine import Position
from games.engine import ResultKind as EngineResultKind
from games.tiers import DEFAULT_TIER, tier_choices

# The opening position seen from either side (the board is symmetric).
START_POSITION_ID = Position.start().position_id()


class SideChoice(models.TextChoices):
    LIGHT = "light", _("You")
    DARK = "dark", _("Computer")


class Status(models.TextChoices):
    # "opening" lasts through the starter's first turn, played with the
    # two opening dice; the board shows them as one die per side.
    OPENING = "opening", _("Opening roll")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", pgettext_lazy("game status", "Failed")


class ResultKind(models.TextChoices):
    """The engine's result kinds (``games.engine.ResultKind``) with their labels."""

    SINGLE = EngineResultKind.SINGLE.value, _("Single game")
    GAMMON = EngineResultKind.GAMMON.value, _("Gammon")
    BACKGAMMON = EngineResultKind.BACKGAMMON.value, _("Backgammon")


class GameQuerySet(models.QuerySet["Game"]):
    def unfinished(self) -> GameQuerySet:
        return self.filter(status__in=(Status.OPENING, Status.PLAYING))


class Game(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    tier = models.CharField(max_length=16, choices=tier_choices(), default=DEFAULT_TIER.value)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPENING)
    turn = models.CharField(max_length=5, choices=SideChoice.choices, default=SideChoice.LIGHT)
    position_id = models.CharField(max_length=14, default=START_POSITION_ID)
    # [d1, d2] for the side on turn, or null before they are rolled.
    dice = models.JSONField(null=True, blank=True)
    # Steps made so far this turn: [[src, dst, die], ...] in the mover's numbering.
    steps = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=1)
    # The state's "last_turn" (games.steps.turn_json of the latest Turn row),
    # kept with it in the same transaction so a state needs no extra query.
    last_turn = models.JSONField(null=True, blank=True)
    # [[light, dark], ...]: every opening roll, ties included, last one decides.
    opening_rolls = models.JSONField(default=list, blank=True)
    winner = models.CharField(max_length=5, choices=SideChoice.choices, blank=True)
    result_kind = models.CharField(max_length=10, choices=ResultKind.choices, blank=True)
    points = models.PositiveSmallIntegerField(default=0)
    resigned = models.BooleanField(default=False)
    hints_used = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the computer's turn was handed over (queued); the watchdog looks
    # for turns that stayed DARK's for too long.
    computer_turn_started_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    # Not a field: the state games.services last broadcast for this instance,
    # so the command that made the change can reply without rebuilding it.
    sent_state: dict[str, Any] | None = None
    # Not a field: the column values games.services read under the row lock,
    # so a transition writes only the columns it changed.
    loaded_values: dict[str, Any] | None = None

    class Meta:
        ordering = ["-updated_at"]
        indexes = [
            models.Index(fields=["owner", "status", "-updated_at"], name="game_owner_status"),
            models.Index(fields=["owner", "-finished_at"], name="game_owner_finished"),
            models.Index(fields=["status", "turn", "computer_turn_started_at"], name="game_stuck"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.tier}, {self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.FAILED)


class Turn(models.Model):
    """One finished turn of either side (a pass when ``notation`` is empty)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=SideChoice.choices)
    die1 = models.PositiveSmallIntegerField()
    die2 = models.PositiveSmallIntegerField()
    notation = models.CharField(max_length=64, blank=True)
    # [[src, dst, die], ...] in the mover's numbering (25 bar, 0 off).
    steps = models.JSONField(default=list, blank=True)
    position_before = models.CharField(max_length=14)
    position_after = models.CharField(max_length=14)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="turn_unique_number"),
        ]
        indexes = [models.Index(fields=["side", "created_at"], name="turn_side_created")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number} {self.side} {self.die1}{self.die2} {self.notation}"

    @property
    def dice(self) -> tuple[int, int]:
        return (self.die1, self.die2)
