"""The computer's side of a game: what is due, its play, its failure; the walk
from the task's start to its finish is docs/architecture.md §2's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from games.engine import (
    Cube,
    Dice,
    IllegalPlayError,
    Match,
    Play,
    Position,
    Side,
    legal_plays,
    play_leading_to,
    result_points,
)
from games.engine import ResultKind as EngineResultKind
from games.models import Game, ResultKind, Status
from games.reading import computer_to_act, cube_of, match_of, position_of
from games.row_checks import row_damage
from games.services import store
from games.services.damage import mark_damaged
from games.services.doubling import offer_double, refuse_double, take_double
from games.services.person import accept_resignation
from games.services.rows import computer_command, lock
from games.services.turns import check_game_over, pass_to, record_turn, roll


@dataclass(frozen=True)
class ComputerDue:
    """What the computer is to do in a game at a version, and what it needs for it.

    ``task``: ``play`` (its checkers, ``dice`` rolled), ``cube`` (double or
    roll), ``answer`` (take or pass the person's double) or ``resign`` (accept
    the person's offer of ``offered`` points or play on). ``position`` is from
    ``mover``'s side: DARK's to play or double, the doubler's (LIGHT) to
    answer, the side on turn's for a resignation.
    """

    task: str
    position: Position
    mover: Side
    tier: str
    cube: Cube | None
    match: Match
    dice: Dice | None = None
    offered: int = 0


@dataclass(frozen=True)
class ComputerStart:
    """A computer turn's task started: its ``starts`` so far, what is ``due``,
    and the ``game`` row as the start read and wrote it (for the finish)."""

    starts: int
    due: ComputerDue | None
    game: Game | None = None


def start_computer_turn(game_id: int, version: int) -> ComputerStart:
    """Count one more start of DARK's turn made on ``version`` and say what is due,
    in one locked read: ``starts`` 0 and ``due`` None, nothing written, when
    the game no longer waits on that turn."""
    with transaction.atomic():
        # Kept: the person's reply waited on this commit's log flush (1-2.5 ms
        # on the loaded machine; bench/README.md, "7befca4"). The finish's
        # commit flushes it, the count with it; only a crash of PostgreSQL or
        # the machine in between may lose the count, as SQLite's
        # ``synchronous=NORMAL`` may any commit here (config/settings.py).
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
        game = lock(game_id)
        why = row_damage(game)
        if why is not None:  # stopped, and said on every open page of the game
            mark_damaged(game_id, why)
            return ComputerStart(0, None)
        starts = _count(game, version, "starts")
        if not starts:
            return ComputerStart(0, None)
        return ComputerStart(starts, _due(game), game)


def computer_due(game_id: int, version: int) -> ComputerDue | None:
    """The computer's task at ``version``; None when the version moved on."""
    game = store.game(game_id)  # a read: the finish re-checks
    if game.version != version or not computer_to_act(game):
        return None
    return _due(game)


def _due(game: Game) -> ComputerDue | None:
    """What the computer is to do in ``game`` (which waits on it)."""
    cube, match, light = cube_of(game), match_of(game), position_of(game)
    tier = game.tier
    if game.resign_offer:
        kind = EngineResultKind(game.resign_offer)
        offered = result_points(kind, cube, match, Side.DARK)
        turn = Side(game.turn)
        position = light if turn is Side.LIGHT else light.swapped()
        return ComputerDue("resign", position, turn, tier, cube, match, offered=offered)
    if game.status == Status.DECIDING:
        return ComputerDue("cube", light.swapped(), Side.DARK, tier, cube, match)
    if game.status == Status.DOUBLED:
        return ComputerDue("answer", light, Side.LIGHT, tier, cube, match)
    if game.dice is None:
        return None
    dice = Dice(*game.dice)
    return ComputerDue("play", light.swapped(), Side.DARK, tier, cube, match, dice=dice)


def finish_computer_cube(game_id: int, version: int, action: str, read: Game | None = None) -> bool:
    """Apply the computer's cube action: ``double`` / ``no_double`` / ``too_good``
    before its roll, ``take`` / ``pass`` on the person's double.

    ``read`` and ``False``: as ``rows.computer_command`` (also for an action
    that does not fit the moment).
    """

    def apply(game: Game) -> bool:
        if game.turn != Side.DARK.value or game.resign_offer:
            return False
        if game.status == Status.DECIDING and action in ("no_double", "too_good"):
            roll(game)
        elif game.status == Status.DECIDING and action == "double":
            offer_double(game, Side.DARK)
        elif game.status == Status.DOUBLED and action == "take":
            take_double(game, Side.DARK)
        elif game.status == Status.DOUBLED and action == "pass":
            refuse_double(game, Side.DARK)
        else:
            return False
        return True

    return computer_command(game_id, version, apply, read)


def answer_resignation(game_id: int, version: int, accept: bool, read: Game | None = None) -> bool:
    """The computer accepts the person's resignation offer, or refuses and play goes on."""

    def answer(game: Game) -> bool:
        if not game.resign_offer:
            return False
        if accept:
            accept_resignation(game, ResultKind(game.resign_offer))
        else:
            game.resign_refused = game.resign_offer
            game.resign_offer = ""
            if game.turn == Side.LIGHT.value:
                game.computer_turn_started_at = None
        return True

    return computer_command(game_id, version, answer, read)


def finish_computer_turn(
    game_id: int,
    version: int,
    play: Play | None,
    read: Game | None = None,
    engine_ms: float | None = None,
) -> bool:
    """Apply DARK's ``play`` (from DARK's side), store the Turn, hand over;
    ``IllegalPlayError`` (a ``ValueError``) for a play not legal here.
    ``read`` and ``False``: as ``rows.computer_command``. ``engine_ms``: the
    engine's time to choose ``play``, kept with the turn's counts (never
    shown) for bench/live.py."""

    def play_out(game: Game) -> bool:
        if game.turn != Side.DARK.value or game.dice is None:
            return False
        if engine_ms is not None:
            counts = _counts_at(game.computer_attempts, version)
            game.computer_attempts = {**counts, "engine_ms": round(engine_ms, 2)}
        before, dice = position_of(game), Dice(*game.dice)
        legal = None
        if play is None and legal_plays(before.swapped(), dice):
            raise IllegalPlayError("the computer must play: a legal play exists")
        if play is not None:
            legal = play_leading_to(before.swapped(), dice, play.result)
            if legal is None:
                raise IllegalPlayError(f"{play.notation()} is not legal with {dice}")
        dark_after = legal.result if legal is not None else before.swapped()
        record_turn(game, Side.DARK, legal, before, dark_after.swapped())
        if not check_game_over(game, dark_after, Side.DARK):
            pass_to(game, Side.LIGHT)
        return True

    return computer_command(game_id, version, play_out, read)


def fail_computer_turn(game_id: int, version: int) -> bool:
    """Give up on DARK's turn: the game is marked failed (the page says why)."""

    def fail(game: Game) -> bool:
        game.status = Status.FAILED
        game.failure = "the computer could not finish its turn"
        game.finished_at = timezone.now()
        return True

    return computer_command(game_id, version, fail)


def count_computer_attempt(game_id: int, version: int, kind: str) -> int:
    """One more ``kind`` (``"starts"`` or ``"requeues"``) of DARK's turn made on
    ``version``, written under the row lock without a new version (nothing
    the person sees changes); the count so far, or 0, nothing written, when
    the game no longer waits on that turn (a stale or duplicate task)."""
    with transaction.atomic():
        return _count(lock(game_id), version, kind)


def _count(game: Game, version: int, kind: str) -> int:
    """``count_computer_attempt`` on the locked ``game``."""
    if game.version != version or not computer_to_act(game):
        return 0
    counts = _counts_at(game.computer_attempts, version)
    counts[kind] = counts.get(kind, 0) + 1
    game.computer_attempts = counts
    store.update(game, ["computer_attempts"])
    return int(counts[kind])


def computer_attempts(game_id: int, version: int) -> dict[str, int]:
    """``{"starts": n, "requeues": m}`` so far for DARK's turn made on ``version``."""
    counts = _counts_at(store.game(game_id).computer_attempts, version)
    return {kind: int(counts.get(kind, 0)) for kind in ("starts", "requeues")}


def _counts_at(stored: dict[str, int] | None, version: int) -> dict[str, int]:
    """The stored counts if they are this version's, else none yet."""
    if stored and stored.get("version") == version:
        return dict(stored)
    return {"version": version}


def stuck_games(older_than: timedelta) -> list[tuple[int, int]]:
    """(game_id, version) of games waiting on the computer for ``older_than`` or more."""
    cutoff = timezone.now() - older_than
    waiting = Q(turn=Side.DARK.value) | ~Q(resign_offer="")
    rows = Game.objects.unfinished().filter(waiting, computer_turn_started_at__lte=cutoff)
    return list(rows.order_by("computer_turn_started_at").values_list("pk", "version"))
