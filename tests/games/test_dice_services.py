"""Dice drawn from committed seeds (games.services.dice, docs/dice.md): the
order and numbering of rolls, the commitment shown before the start, a test's
own dice source, and a person's seed that cannot be used."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from games import reading, services
from games.engine import Position, Side, fairdice, legal_plays
from games.live.commands import CommandError as SocketCommandError
from games.live.commands import bad_seed_message, parse_command
from games.models import DiceSource, Game, NextDiceSeed, Turn
from tests.conftest import dark_turn
from tests.games.conftest import DiceQueue

pytestmark = pytest.mark.django_db


def _seed(game: Game) -> bytes:
    return bytes.fromhex(game.server_seed)


def _play_first(game: Game) -> Game:
    """The person's first legal play, step by step, then the end of the turn."""
    play = legal_plays(reading.position_of(game), reading.current_turn(game).dice)[0]
    for step in play.steps:
        game = services.make_step(game.pk, game.owner, game.version, step.src, step.dst, step.die)
    if game.turn == Side.LIGHT.value:
        game = services.end_turn(game.pk, game.owner, game.version)
    return game


def _computer_plays_first(game: Game) -> None:
    """The computer's first turn, played as its task plays it."""
    due = dark_turn(game.pk, game.version)
    assert due is not None
    plays = legal_plays(*due)
    services.finish_computer_turn(game.pk, game.version, plays[0] if plays else None)


def test_every_roll_is_drawn_from_the_seeds_in_order(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    shown = services.next_commitment(user)
    game = services.start_game(user, "beginner", person_seed="my-seed")
    assert game.dice_commitment == shown  # the seed whose commitment the lobby showed
    assert fairdice.commitment(_seed(game)) == shown and game.person_seed == "my-seed"
    expected = [list(fairdice.roll_of(_seed(game), "my-seed", r)) for r in range(game.rolls_drawn)]
    assert game.opening_rolls == expected  # the opening rolls are rolls 0, 1, ...
    assert game.rolls_drawn == len(game.opening_rolls)
    if game.turn == Side.LIGHT.value:
        game = _play_first(game)
    else:
        _computer_plays_first(game)
    game = Game.objects.get(pk=game.pk)
    first = Turn.objects.get(game=game, number=1)
    assert first.roll == len(game.opening_rolls) - 1  # the first turn plays the last opening roll
    # The next side's roll is drawn as the turn passes (a person with no
    # play passes on, and the computer's is drawn too).
    assert game.rolls_drawn >= len(game.opening_rolls) + 1
    assert list(fairdice.roll_of(_seed(game), "my-seed", game.rolls_drawn - 1)) == game.dice
    for turn in Turn.objects.filter(game=game).exclude(roll=None):
        assert fairdice.roll_of(_seed(game), "my-seed", turn.roll) == turn.dice
    assert services.next_commitment(user) != shown  # the next game has a seed of its own


def test_a_game_from_a_position_numbers_only_the_rolls_it_drew(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game_from(user, "beginner", Position.start(), dice=[3, 1])
    game = _play_first(game)
    game = Game.objects.get(pk=game.pk)
    assert Turn.objects.get(game=game, number=1).roll is None  # given, not drawn
    assert game.rolls_drawn == 1
    assert list(fairdice.roll_of(_seed(game), game.person_seed, 0)) == game.dice


def test_a_tests_own_dice_still_win(user: Any, dice: DiceQueue) -> None:
    dice.queue(6, 1)
    game = services.start_game(user, "beginner")
    assert game.opening_rolls == [[6, 1]]
    assert game.dice_source == DiceSource.SEEDS and game.rolls_drawn == 1


def test_a_seed_that_cannot_be_used_is_refused_in_words_and_nothing_starts(user: Any) -> None:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    client.get("/")
    pending = NextDiceSeed.objects.get(owner=user).seed
    answer = client.post("/games/new/", {"tier": "beginner", "dice_seed": "两颗 骰子"}, follow=True)
    assert answer.redirect_chain == [("/", 302)]
    with translation.override("zh-hans"):
        said = bad_seed_message()
    assert "骰子种子只能由" in said and said in answer.content.decode()
    assert not Game.objects.filter(owner=user).exists()
    assert NextDiceSeed.objects.get(owner=user).seed == pending  # still the next game's
    with pytest.raises(SocketCommandError) as refused:
        parse_command('{"type": "next_game", "id": "n1", "version": 3, "seed": "a b"}')
    assert refused.value.code == "bad_command" and refused.value.message == said


def test_the_verify_command_checks_a_finished_game_roll_by_roll(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "beginner", person_seed="cmd")
    with pytest.raises(CommandError, match="not over"):
        call_command("verify_dice", game.pk)
    game = services.resign(game.pk, user, Game.objects.get(pk=game.pk).version)
    out = StringIO()
    call_command("verify_dice", game.pk, stdout=out)
    assert "commitment: matches" in out.getvalue()
    assert f"roll {game.rolls_drawn - 1}:" in out.getvalue()
    opening = game.opening_rolls[0]
    bad = [opening[0] % 6 + 1, opening[1]]
    Game.objects.filter(pk=game.pk).update(opening_rolls=[bad, *game.opening_rolls[1:]])
    out = StringIO()
    with pytest.raises(CommandError, match="not every roll"):
        call_command("verify_dice", game.pk, stdout=out)
    assert f"roll 0: played {bad[0]}-{bad[1]}" in out.getvalue()
    Game.objects.filter(pk=game.pk).update(dice_source=DiceSource.BEFORE)
    with pytest.raises(CommandError, match="before dice commitments"):
        call_command("verify_dice", game.pk)


def test_a_visitors_first_game_uses_the_commitment_the_lobby_showed(
    client: Client, held_computer_turns: list[tuple[int, int]]
) -> None:
    lobby = client.get("/").content.decode()
    shown = sorted(set(re.findall(r"[0-9a-f]{64}", lobby)))
    assert len(shown) == 1  # shown, and in the form that sends it back
    assert shown[0] in client.get("/").content.decode()  # the same on a second look
    form = {"tier": "beginner", "dice_seed": "first-game", "commitment": shown[0]}
    answer = client.post("/games/new/", form)
    game = Game.objects.get(pk=int(answer.url.strip("/").split("/")[-1]))
    assert game.dice_commitment == shown[0] and game.person_seed == "first-game"
    assert "next_dice_seed" not in client.session
    assert shown[0] not in client.get("/").content.decode()  # the next game has its own
