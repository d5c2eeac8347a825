from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.tiers import DEFAULT_TIER, tier_choices


class User(AbstractUser):
    """A player. Guests are real accounts marked ``is_guest`` until they sign up."""

    is_guest = models.BooleanField(default=False)

    @property
    def display_name(self) -> str:
        if self.is_guest:
            return str(_("Guest"))
        return self.username


class BoardDirection(models.TextChoices):
    RIGHT = "right", _("Home board on the right")
    LEFT = "left", _("Home board on the left")


class AnimationSpeed(models.TextChoices):
    OFF = "off", _("No animation")
    SLOW = "slow", _("Slow")
    NORMAL = "normal", _("Normal")
    FAST = "fast", _("Fast")


class BoardTheme(models.TextChoices):
    WOOD = "wood", _("Wood")
    # Black, white, yellow and blue: told apart without red and green.
    CONTRAST = "contrast", _("High contrast (also for colour-blind players)")
    DARK = "dark", pgettext_lazy("board theme", "Dark")


class Language(models.TextChoices):
    # Blank: follow the browser's Accept-Language.
    BROWSER = "", _("Browser's language")
    ZH_HANS = "zh-hans", "简体中文"
    EN = "en", "English"


class GameKind(models.TextChoices):
    """The lobby's game types (``games.models.Game.kind`` uses the same choices).

    单局 the beginners' game without the cube; 现金局 money with the cube;
    比赛 a match to N points.
    """

    SINGLE = "single", pgettext_lazy("game type", "Single game")
    MONEY = "money", pgettext_lazy("game type", "Money game")
    MATCH = "match", pgettext_lazy("game type", "Match")


class Tutor(models.TextChoices):
    """教练模式: the least error class the tutor stops a play or a cube
    decision for before it is committed (the review's classes)."""

    OFF = "off", pgettext_lazy("tutor", "Off")
    DOUBTFUL = "doubtful", _("Warn on doubtful plays and worse")
    BAD = "bad", _("Warn on bad plays and worse")
    VERY_BAD = "very_bad", _("Warn on very bad plays only")


MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 15)
DEFAULT_MATCH_LENGTH = 5


def match_length_choices() -> list[tuple[int, str]]:
    return [(n, str(n)) for n in MATCH_LENGTHS]


class Preferences(models.Model):
    """One player's lobby preferences; a missing row means every default."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="preferences",
    )
    auto_end_turn = models.BooleanField(_("End the turn when the dice are used up"), default=True)
    show_pips = models.BooleanField(_("Show the pip count"), default=True)
    default_tier = models.CharField(
        _("Default strength"), max_length=16, choices=tier_choices(), default=DEFAULT_TIER.value
    )
    board_direction = models.CharField(
        _("Board direction"),
        max_length=8,
        choices=BoardDirection.choices,
        default=BoardDirection.RIGHT,
    )
    animation_speed = models.CharField(
        _("Animation speed"),
        max_length=8,
        choices=AnimationSpeed.choices,
        default=AnimationSpeed.NORMAL,
    )
    highlight_legal = models.BooleanField(_("Highlight legal destinations"), default=True)
    auto_forced = models.BooleanField(
        _("Play forced moves for me (when only one play is legal)"), default=False
    )
    auto_bear_off = models.BooleanField(
        _("Bear off for me when every play is equivalent"), default=False
    )
    sound = models.BooleanField(_("Sound: dice, checkers and hits"), default=False)
    board_theme = models.CharField(
        _("Board theme"), max_length=12, choices=BoardTheme.choices, default=BoardTheme.WOOD
    )
    language = models.CharField(
        _("Language"), max_length=8, choices=Language.choices, default="", blank=True
    )
    game_kind = models.CharField(
        _("Game type"), max_length=6, choices=GameKind.choices, default=GameKind.SINGLE
    )
    match_length = models.PositiveSmallIntegerField(
        _("Match length"), choices=match_length_choices(), default=DEFAULT_MATCH_LENGTH
    )
    jacoby = models.BooleanField(
        _("Jacoby rule in money games (gammons count only once the cube is turned)"),
        default=True,
    )
    # Off for a new player: the course teaches the moves first, and its last
    # lesson offers the tutor (learning/course); see docs/interfaces.md.
    tutor = models.CharField(
        _("Tutor mode"), max_length=8, choices=Tutor.choices, default=Tutor.OFF
    )
    last_move_arrows = models.BooleanField(
        _("Show the computer's last move as arrows"), default=True
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"
