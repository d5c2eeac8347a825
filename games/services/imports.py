"""Import a match file (``.mat``) as the owner's games: one transaction, all or
nothing (docs/interfaces.md §1, "Match files", and §2). Every game is replayed
through the engine first: only a file without a fault reaches the database,
and the caller's ``admit(count)`` may refuse it before anything is written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import MATCH_LENGTHS, GameKind
from games.engine import Side
from games.engine.matfile import ActionKind, MatchRecord, MatFileError, MatProblem, parse_mat
from games.engine.matfile import swapped as swap_columns
from games.engine.matreplay import EndHow, ReplayedGame, ReplayedTurn, replay_match
from games.models import CubeAction, DiceSource, Game, ImportedFile, Match, Status, Turn
from games.signals import game_finished
from games.steps import stored_steps, turn_json
from games.tiers import DEFAULT_TIER


class AlreadyImportedError(ValueError):
    """The owner imported this very file before (``when``); nothing stored."""

    def __init__(self, when: datetime) -> None:
        super().__init__("already imported")
        self.when = when


@dataclass(frozen=True)
class Imported:
    games: list[Game]
    match: Match | None
    left_out: int  # unfinished games not imported (the file's last)


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8, else Latin-1 (older programs' names)."""
    if b"\x00" in data:
        raise MatFileError(MatProblem.NOT_TEXT)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def import_match_file(
    owner: Any,
    text: str,
    side: Side | None = None,
    *,
    address: str | None = None,
    admit: Callable[[int], None] | None = None,
) -> Imported:
    """Store the file's games for ``owner``; ``MatFileError`` (nothing stored) on a fault.

    ``side``: the owner's column in the file, their games then; None: a study.

    ``AlreadyImportedError`` if ``owner`` imported the same text before;
    ``admit(number of games)``, if given, may raise to refuse the import.
    """
    record = parse_mat(text)
    if side is Side.DARK:
        record = swap_columns(record)
    if record.length and record.length not in MATCH_LENGTHS:
        raise MatFileError(MatProblem.UNSUPPORTED_LENGTH, params={"length": record.length})
    replayed = [game for game in replay_match(record).games if game.end is not None]
    if not replayed:
        raise MatFileError(MatProblem.NO_GAMES)
    # The SHA-256 of the text, its line ends made one kind.
    normal = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n"))
    digest = hashlib.sha256(normal.strip().encode("utf-8")).hexdigest()
    earlier = ImportedFile.objects.filter(owner=owner, sha256=digest).first()
    if earlier is not None:
        raise AlreadyImportedError(earlier.created_at)
    if admit is not None:
        admit(len(replayed))
    with transaction.atomic():
        source, created = ImportedFile.objects.get_or_create(
            owner=owner,
            sha256=digest,
            defaults={
                "address": address,
                "light_player": record.players[0][:64],
                "dark_player": record.players[1][:64],
                "claimed": side is not None,
            },
        )
        if not created:  # a twin upload won the race
            raise AlreadyImportedError(source.created_at)
        match = _store_match(owner, record, replayed) if record.length else None
        games = [_store_game(owner, game, match, n, source) for n, game in enumerate(replayed, 1)]
    for game in games:
        transaction.on_commit(partial(game_finished.send, sender=Game, game_id=game.pk))
    return Imported(games, match, len(record.games) - len(replayed))


def _store_match(owner: Any, record: MatchRecord, games: list[ReplayedGame]) -> Match:
    last = games[-1]
    assert last.end is not None
    after = last.match.after(last.end.winner, _points(last))
    winner = after.winner
    return Match.objects.create(
        owner=owner,
        tier=DEFAULT_TIER.value,
        length=record.length,
        score_light=after.light,
        score_dark=after.dark,
        crawford=after.crawford,
        winner=winner.value if winner else "",
        opponent_name=record.players[1][:64],
        finished_at=timezone.now() if winner else None,
    )


def _points(game: ReplayedGame) -> int:
    """The points the site counts: as the file says, at most what a match side needed."""
    assert game.end is not None
    away = game.match.away(game.end.winner)
    return min(game.end.points, away) if game.match.length else game.end.points


def _store_game(
    owner: Any, replayed: ReplayedGame, match: Match | None, number: int, source: ImportedFile
) -> Game:
    end = replayed.end
    assert end is not None
    starter = replayed.starter or Side.LIGHT
    first = replayed.turns[0].action.dice if replayed.turns else None
    opening = [first.high, first.low] if first else [1, 2]
    if starter is Side.DARK:
        opening.reverse()
    game = Game.objects.create(
        owner=owner,
        tier=DEFAULT_TIER.value,
        status=Status.FINISHED,
        turn=end.winner.value,
        position_id=replayed.board.position_id(),
        opening_rolls=[opening],
        winner=end.winner.value,
        result_kind=end.kind.value,
        points=_points(replayed),
        resigned=end.how is EndHow.RESIGNED,
        passed=end.how is EndHow.PASSED,
        kind=GameKind.MATCH if match else GameKind.MONEY,
        cube_value=replayed.cube.value,
        cube_owner=replayed.cube.owner.value if replayed.cube.owner else "",
        match=match,
        match_game=number if match else None,
        # A money session's running score is not kept: only a match has one.
        score_light=replayed.match.light if match else 0,
        score_dark=replayed.match.dark if match else 0,
        crawford=replayed.match.crawford,
        finished_at=timezone.now(),
        imported_from=source,
        dice_source=DiceSource.IMPORTED,
    )
    last = _store_turns(game, replayed.turns)
    if last is not None:
        game.last_turn = turn_json(last)
        game.save(update_fields=["last_turn"])
    return game


def _store_turns(game: Game, turns: tuple[ReplayedTurn, ...]) -> Turn | None:
    rows: list[Turn] = []
    cubes: list[CubeAction] = []
    offered = 0
    for replayed in turns:
        action = replayed.action
        if action.kind is ActionKind.ROLL:
            rows.append(_turn_row(game, len(rows) + 1, replayed))
            continue
        offered = action.cube if action.kind is ActionKind.DOUBLE else offered
        cubes.append(
            CubeAction(
                game=game,
                number=len(cubes) + 1,
                before_turn=len(rows) + 1,
                side=action.side.value,
                action=action.kind.value,  # the stored words are the file's kinds
                value=offered,
                position_id=replayed.board.position_id(),
            )
        )
    Turn.objects.bulk_create(rows)
    CubeAction.objects.bulk_create(cubes)
    return rows[-1] if rows else None


def _turn_row(game: Game, number: int, replayed: ReplayedTurn) -> Turn:
    action, play = replayed.action, replayed.play
    assert action.dice is not None and play is not None
    mover_after = play.result
    after = mover_after if action.side is Side.LIGHT else mover_after.swapped()
    return Turn(
        game=game,
        number=number,
        side=action.side.value,
        die1=action.dice.d1,
        die2=action.dice.d2,
        notation=play.notation(),
        steps=stored_steps(play.steps),
        position_before=replayed.board.position_id(),
        position_after=after.position_id(),
    )
