"""A 3-point match to its end through games.services: doubles passed and taken,
the Crawford game without the cube, the post-Crawford double, the score capped."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine import legal_plays
from games.live.state import build_state
from games.models import Game, Match, Status
from tests.boards import board
from tests.conftest import dark_turn

pytestmark = pytest.mark.django_db


def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def open_with_light(user: Any, dice: Any, game: Game) -> Game:
    """LIGHT won the opening with 5-2 and plays 13/8 13/11: the turn passes."""
    services.make_step(game.pk, user, game.version, 13, 8)
    services.make_step(game.pk, user, game.version + 1, 13, 11)
    return reload(game)


def light_doubles_and_dark_passes(user: Any, dice: Any, game: Game) -> Game:
    """The computer, deciding, rolls 3-1 and plays; at the person's
    roll-or-double LIGHT doubles and the computer passes."""
    dice.queue(3, 1)
    assert services.finish_computer_cube(game.pk, game.version, "no_double")
    begun = dark_turn(game.pk, game.version + 1)
    assert begun is not None
    play = legal_plays(*begun)[0]
    assert services.finish_computer_turn(game.pk, game.version + 1, play)
    game = reload(game)
    assert (game.status, game.turn) == (Status.DECIDING, "light")
    game = services.double(game.pk, user, game.version)
    assert services.finish_computer_cube(game.pk, game.version, "pass")
    return reload(game)


def light_bears_off_last(user: Any, game: Game) -> Game:
    """A board where LIGHT's last checker goes off with DARK not off at all (a gammon)."""
    last = board(light={1: 1}, dark={24: 15}).position_id()
    Game.objects.filter(pk=game.pk).update(
        status=Status.PLAYING, turn="light", dice=[6, 5], steps=[], position_id=last
    )
    return services.make_step(game.pk, user, reload(game).version, 1, 0)


def next_game(user: Any, game: Game) -> Game:
    services.next_game(game.pk, user, game.version)
    match = Match.objects.get(pk=game.match_id)
    return match.games.get(match_game=(game.match_game or 0) + 1)


def test_a_three_point_match_to_its_end(user: Any, dice: Any, computer_queue: list) -> None:
    dice.queue(5, 2)
    game1 = open_with_light(user, dice, services.start_match(user, "casual", 3))
    game1 = light_doubles_and_dark_passes(user, dice, game1)
    match = Match.objects.get(pk=game1.match_id)
    assert (match.score_light, match.score_dark, match.crawford) == (1, 0, False)
    dice.queue(5, 2)
    single = services.start_game(user, "casual")
    with pytest.raises(services.CubeRefusedError) as refused:
        services.next_game(single.pk, user, single.version)
    assert refused.value.refusal_code == "not_a_match"

    dice.queue(5, 2)
    game2 = next_game(user, game1)
    assert next_game(user, game1).pk == game2.pk  # a repeated next_game starts nothing
    assert build_state(reload(game1))["match"]["next_game"] == game2.pk
    assert (game2.match_game, game2.score_light, game2.score_dark) == (2, 1, 0)
    with pytest.raises(services.CubeRefusedError) as refused:
        services.next_game(game2.pk, user, game2.version)
    assert refused.value.refusal_code == "not_finished"
    game2 = light_doubles_and_dark_passes(user, dice, open_with_light(user, dice, game2))
    match.refresh_from_db()
    assert (match.score_light, match.score_dark, match.crawford) == (2, 0, True)

    # Game 3, the Crawford game: nobody may double, the dice are rolled at once.
    dice.queue(5, 2, 4, 3)
    game3 = open_with_light(user, dice, next_game(user, game2))
    assert (game3.crawford, game3.status, game3.turn, game3.dice) == (
        True,
        "playing",
        "dark",
        [4, 3],
    )
    cube = build_state(game3)["cube"]
    assert (cube["may_double"], cube["why_not_code"]) == (False, "crawford_game")
    game3 = services.resign(game3.pk, user, game3.version, "single")
    assert services.answer_resignation(game3.pk, game3.version, accept=True)
    match.refresh_from_db()
    assert (match.score_light, match.score_dark, match.crawford) == (2, 1, False)

    # Game 4, post-Crawford: the trailer doubles at once; the leader's cube is dead.
    dice.queue(5, 2)
    game4 = open_with_light(user, dice, next_game(user, reload(game3)))
    assert (game4.crawford, game4.status, game4.turn) == (False, "deciding", "dark")
    assert build_state(game4)["match"]["post_crawford"] is True
    assert services.finish_computer_cube(game4.pk, game4.version, "double")
    game4 = reload(game4)
    assert build_state(game4)["cube"]["why_not_code"] == "dead_cube"
    dice.queue(6, 1)
    game4 = services.take(game4.pk, user, game4.version)
    assert (game4.cube_value, game4.cube_owner, game4.turn) == (2, "light", "dark")
    game4 = light_bears_off_last(user, game4)
    # A gammon at 2 is 4 points; LIGHT needed 1: the match ends 3-1.
    assert (game4.winner, game4.result_kind, game4.points) == ("light", "gammon", 1)
    match.refresh_from_db()
    assert (match.score_light, match.score_dark, match.winner) == (3, 1, "light")
    assert match.finished_at is not None
    state = build_state(game4)
    assert (state["match"]["over"], state["match"]["winner"]) == (True, "light")
    with pytest.raises(services.CubeRefusedError) as refused:
        services.next_game(game4.pk, user, game4.version)
    assert refused.value.refusal_code == "match_over"
    assert [g.match_game for g in match.games.order_by("match_game")] == [1, 2, 3, 4]
