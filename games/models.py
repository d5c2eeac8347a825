"""A game against the computer, its finished turns and cube actions, and matches.

Every position is stored from LIGHT's side (the person's), as a gnubg
Position ID; DARK plays on ``position.swapped()``. Only ``games.services``
writes these rows.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import MATCH_LENGTHS
from accounts.models import GameKind as GameKind  # the lobby's choices, one table
from games.engine import Position
from games.engine import ResultKind as EngineResultKind
from games.tiers import DEFAULT_TIER, tier_choices

# The opening position seen from either side (the board is symmetric).
START_POSITION_ID = Position.start().position_id()


class SideChoice(models.TextChoices):
    LIGHT = "light", _("You")
    DARK = "dark", _("Computer")


class Status(models.TextChoices):
    """Each status's meaning is docs/interfaces.md §4's (``deciding`` and ``doubled``: §4a)."""

    OPENING = "opening", _("Opening roll")
    PLAYING = "playing", _("Playing")
    DECIDING = "deciding", _("Roll or double")
    DOUBLED = "doubled", _("Doubled")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", pgettext_lazy("game status", "Failed")


class ResultKind(models.TextChoices):
    """The engine's result kinds (``games.engine.ResultKind``) with their labels."""

    SINGLE = EngineResultKind.SINGLE.value, _("Single game")
    GAMMON = EngineResultKind.GAMMON.value, _("Gammon")
    BACKGAMMON = EngineResultKind.BACKGAMMON.value, _("Backgammon")


class CubeActionKind(models.TextChoices):
    DOUBLE = "double", pgettext_lazy("cube action", "Double")
    TAKE = "take", pgettext_lazy("cube action", "Take")
    PASS = "pass", pgettext_lazy("cube action", "Pass")


class DiceSource(models.TextChoices):
    """Where a game's dice came from, and so whether they can be checked
    (docs/dice.md: seeds, and the games before them or imported)."""

    SEEDS = "seeds", _("Committed seeds")
    BEFORE = "before", _("Started before dice commitments")
    IMPORTED = "imported", _("Imported from a match file")


UNFINISHED = (Status.OPENING, Status.PLAYING, Status.DECIDING, Status.DOUBLED)


class SeedFrom(models.TextChoices):
    """Where a game's person seed came from (docs/dice.md, "A start without a seed")."""

    PERSON = "person", _("Sent with the start")
    SERVER = "server", _("Drawn by the server")


class Match(models.Model):
    """A match to ``length`` points: its games in order (``games``); its score
    and ``crawford`` are those of its current game (or, once a game is over,
    of the next one)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="matches"
    )
    tier = models.CharField(max_length=16, choices=tier_choices(), default=DEFAULT_TIER.value)
    length = models.PositiveSmallIntegerField()
    score_light = models.PositiveSmallIntegerField(default=0)
    score_dark = models.PositiveSmallIntegerField(default=0)
    crawford = models.BooleanField(default=False)
    winner = models.CharField(max_length=5, choices=SideChoice.choices, blank=True)
    # The other side's name, for a match imported from a file ("" = the computer).
    opponent_name = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(length__in=MATCH_LENGTHS), name="match_length_allowed"
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} to {self.length} ({self.score_light}-{self.score_dark})"

    @property
    def is_over(self) -> bool:
        return bool(self.winner)


class ImportedFile(models.Model):
    """A match file a user imported: the same file (by its text's SHA-256) is
    imported once per user, and the study queue's budgets count its games
    (``learning.study.queue``) by owner and by the address it came from."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_files"
    )
    sha256 = models.CharField(max_length=64)
    address = models.GenericIPAddressField(null=True, blank=True)
    # The file's players as its games are stored: LIGHT's name, then DARK's.
    light_player = models.CharField(max_length=64, blank=True)
    dark_player = models.CharField(max_length=64, blank=True)
    # The owner said they played the side stored as LIGHT (their column in the
    # file): only then do its games count as theirs (GameQuerySet.own_record).
    # False: a study object, in no count, graph or practice of the owner's.
    claimed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "sha256"], name="imported_file_once"),
        ]
        indexes = [models.Index(fields=["address"], name="imported_file_address")]

    def __str__(self) -> str:
        return f"File {self.sha256[:12]} imported by {self.owner_id}"


def own_record(prefix: str = "") -> Q:
    """The games that are the owner's own record: played on the site, or
    imported from a file with the owner's side named (``ImportedFile.claimed``).
    ``prefix`` is the path to the game from another model (``"analysis__game__"``)."""
    return Q(**{f"{prefix}imported_from__isnull": True}) | Q(
        **{f"{prefix}imported_from__claimed": True}
    )


class GameQuerySet(models.QuerySet["Game"]):
    def unfinished(self) -> GameQuerySet:
        return self.filter(status__in=UNFINISHED)

    def own_record(self) -> GameQuerySet:
        """The owner's own games: every count, graph and practice of theirs reads these."""
        return self.filter(own_record())

    def studies(self) -> GameQuerySet:
        """Imported games with no side named: study objects, kept apart."""
        return self.filter(imported_from__isnull=False, imported_from__claimed=False)


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
    # Steps made so far this turn, as games.steps.stored_steps writes them.
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
    # 教练模式: whether the tutor checked any decision of this game (the
    # history's filter), and its warnings in order (docs/interfaces.md §6).
    tutored = models.BooleanField(default=False)
    tutor_warnings = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the computer's turn was handed over (queued); the watchdog looks
    # for turns that stayed DARK's for too long.
    computer_turn_started_at = models.DateTimeField(null=True, blank=True)
    # The computer's turn at one version: its task's starts and the
    # watchdog's requeues (docs/interfaces.md §2, ``ai_worker.turns``).
    computer_attempts = models.JSONField(default=dict, blank=True)
    # Why the game stopped, when it failed: the computer gave up on its turn,
    # or the row itself could not be read (games.row_checks), said for the
    # log and the page; "" while nothing failed.
    failure = models.CharField(max_length=300, blank=True, default="")
    # What the game is played for. The single game has no cube (the cube
    # columns keep their defaults); money and match games have one.
    kind = models.CharField(max_length=6, choices=GameKind.choices, default=GameKind.SINGLE)
    cube_value = models.PositiveSmallIntegerField(default=1)
    cube_owner = models.CharField(max_length=5, choices=SideChoice.choices, blank=True)  # "" centre
    # The side whose double is pending ("" = none); status is then "doubled".
    cube_offered = models.CharField(max_length=5, choices=SideChoice.choices, blank=True)
    jacoby = models.BooleanField(default=False)  # money games only
    # The game ended on a passed double (docs/interfaces.md §4a).
    passed = models.BooleanField(default=False)
    # A resignation the person offered and the computer has yet to answer:
    # the result kind offered ("" = none), worth that kind times the cube.
    resign_offer = models.CharField(max_length=10, choices=ResultKind.choices, blank=True)
    # The kind of the last offer the computer refused (the page says so),
    # cleared by the person's next command.
    resign_refused = models.CharField(max_length=10, choices=ResultKind.choices, blank=True)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="games"
    )
    match_game = models.PositiveSmallIntegerField(null=True, blank=True)  # 1, 2, … in its match
    # The match score when this game began, and whether it is the Crawford game.
    score_light = models.PositiveSmallIntegerField(default=0)
    score_dark = models.PositiveSmallIntegerField(default=0)
    crawford = models.BooleanField(default=False)
    # The match file the game was imported from (null: played on the site).
    imported_from = models.ForeignKey(
        ImportedFile, on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    # The dice you can prove (docs/dice.md); ``rolls_drawn`` is the next roll's number.
    dice_source = models.CharField(
        max_length=8, choices=DiceSource.choices, default=DiceSource.SEEDS
    )
    server_seed = models.CharField(max_length=64, blank=True)
    dice_commitment = models.CharField(max_length=64, blank=True)
    person_seed = models.CharField(max_length=64, blank=True)
    # Who gave the person seed: sent with the start (``person``), drawn by the
    # server because none was sent (``server``: the dice prove nothing to the
    # person), or "" for a game stored before this was noted.
    person_seed_from = models.CharField(
        max_length=6, choices=SeedFrom.choices, blank=True, default=""
    )
    rolls_drawn = models.PositiveIntegerField(default=0)
    # The last roll drawn and never played, as it was shown, once the game
    # ended on it (a resignation): its proof checks it like the others.
    unplayed_dice = models.JSONField(null=True, blank=True)
    # The verify page's share link (``/learn/verify/shared/<token>/``), made
    # when the owner asks for one; "" until then.
    share_token = models.CharField(max_length=43, blank=True, default="")

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
            # Not updated_at, which every command writes: in no index, a step
            # updates the row in place (migration 0009).
            models.Index(fields=["owner", "status"], name="game_owner_status"),
            models.Index(fields=["owner", "-finished_at"], name="game_owner_finished"),
            models.Index(fields=["status", "turn", "computer_turn_started_at"], name="game_stuck"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["match", "match_game"], name="game_unique_match_game"),
            models.UniqueConstraint(
                fields=["share_token"],
                condition=~Q(share_token=""),
                name="game_unique_share_token",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.kind}, {self.tier}, {self.status})"

    @property
    def is_study(self) -> bool:
        """Imported with no side named: a study object, not the owner's game."""
        source = self.imported_from
        return source is not None and not source.claimed

    @property
    def file_players(self) -> tuple[str, str] | None:
        """An imported game's players as the file names them (LIGHT's, DARK's)."""
        source = self.imported_from
        if source is None or not (source.light_player or source.dark_player):
            return None
        return source.light_player, source.dark_player

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.FAILED)

    @property
    def has_cube(self) -> bool:
        return self.kind != GameKind.SINGLE


class Turn(models.Model):
    """One finished turn of either side (a pass when ``notation`` is empty)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=SideChoice.choices)
    die1 = models.PositiveSmallIntegerField()
    die2 = models.PositiveSmallIntegerField()
    notation = models.CharField(max_length=64, blank=True)
    # As games.steps.stored_steps writes them.
    steps = models.JSONField(default=list, blank=True)
    position_before = models.CharField(max_length=14)
    position_after = models.CharField(max_length=14)
    # The number of the game's roll these dice are; null when they were not
    # drawn from the game's seeds (docs/dice.md).
    roll = models.PositiveIntegerField(null=True, blank=True)
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


class CubeAction(models.Model):
    """One cube action of either side, in order with the game's turns
    (``before_turn``, ``value``: docs/interfaces.md §4a, "Replay")."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cube_actions")
    number = models.PositiveIntegerField()
    before_turn = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=SideChoice.choices)
    action = models.CharField(max_length=6, choices=CubeActionKind.choices)
    value = models.PositiveSmallIntegerField()
    position_id = models.CharField(max_length=14)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="cube_action_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.before_turn} {self.side} {self.action} {self.value}"


class NextDiceSeed(models.Model):
    """The server seed of a person's next game, drawn before they give theirs
    (docs/dice.md, "The two seeds"); the game that starts takes it
    (``games.services.dice.seed_game``) and the next one is drawn afresh."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="next_dice_seed"
    )
    seed = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"next dice seed of user {self.owner_id}"
