"""The computer's cube turn: double or roll before its roll, take or pass the
person's double, answer a resignation; in-process and each exactly once."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from django.utils import translation

from ai_worker import dispatch, tasks, turns
from games import services
from games.engine import Position, Side
from games.live.state import build_state
from games.models import CubeAction, Game, GameKind, Status, Turn
from tests.ai.conftest import doubled
from tests.boards import board

# LIGHT has two checkers left on its 1-point; DARK has all fifteen far away:
# LIGHT's double is a pass, and DARK, on roll, has nothing to double for.
LIGHT_WINS = board(light={1: 2}, dark={13: 15})
DARK_GAMMONS = board(light={6: 15}, dark={24: 2})
# The same with LIGHT on its midpoint: the network says "backgammon" (99.9%),
# the sanity rules know none is possible.
DARK_GAMMONS_FROM_AFAR = board(light={13: 15}, dark={24: 2})


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def cube_rows(game: Game) -> list[tuple[str, str, int]]:
    return [(a.side, a.action, a.value) for a in CubeAction.objects.filter(game=game)]


def money(dark_game: Any, resign: str = "", **fields: Any) -> Game:
    """A money game with the computer on turn; with ``resign`` the person has
    offered to resign that kind (``services.resign``), for the computer to answer."""
    fields.setdefault("kind", GameKind.MONEY)
    # The Expert's cube has no noise, so each decision below is certain (a
    # Casual's noise doubles at the start in about 1 game of 40).
    fields.setdefault("tier", "expert")
    game: Game = dark_game(**fields)
    if resign:
        game = services.resign(game.pk, game.owner, game.version, resign)
    return game


@pytest.mark.django_db
def test_at_the_start_the_computer_does_not_double_it_rolls_and_then_plays(
    dark_game: Any,
) -> None:
    game = money(dark_game, dice=None)
    assert (game.status, game.dice) == (Status.DECIDING, None)
    assert turns.run_computer_turn(game.pk, game.version)
    assert not turns.run_computer_turn(game.pk, game.version)  # duplicate
    rolled = fresh(game)
    assert (rolled.version, rolled.status, rolled.turn) == (game.version + 1, "playing", "dark")
    assert rolled.dice is not None and cube_rows(game) == []
    assert turns.run_computer_turn(game.pk, rolled.version)
    played = fresh(game)
    assert (played.version, played.turn) == (game.version + 2, "light")
    assert Turn.objects.filter(game=game, side="dark").count() == 1


@pytest.mark.django_db
def test_the_computer_takes_an_early_double_and_passes_a_hopeless_one(user: Any) -> None:
    early = doubled(user)
    assert turns.run_computer_turn(early.pk, early.version)
    assert not turns.run_computer_turn(early.pk, early.version)
    taken = fresh(early)
    assert (taken.cube_value, taken.cube_owner, taken.turn) == (2, "dark", "light")
    assert cube_rows(early) == [("light", "double", 2), ("dark", "take", 2)]

    late = doubled(user, LIGHT_WINS)
    assert turns.run_computer_turn(late.pk, late.version)
    passed = fresh(late)
    assert (passed.status, passed.winner, passed.points, passed.passed) == (
        "finished",
        "light",
        1,
        True,
    )
    assert cube_rows(late) == [("light", "double", 2), ("dark", "pass", 2)]


@pytest.mark.django_db
def test_the_computer_accepts_a_resignation_worth_what_it_expects_and_refuses_less(
    dark_game: Any,
) -> None:
    # DARK is on roll and far behind: a single is more than it expects.
    lost = money(dark_game, position=LIGHT_WINS, resign="single")
    assert turns.run_computer_turn(lost.pk, lost.version)
    assert not turns.run_computer_turn(lost.pk, lost.version)
    after = fresh(lost)
    assert (after.status, after.winner, after.points, after.resigned) == (
        "finished",
        "dark",
        1,
        True,
    )
    # DARK bears off its last two checkers with none of LIGHT's off:
    # it expects a gammon, refuses a single and takes the gammon.
    gammon = money(dark_game, position=DARK_GAMMONS, jacoby=False, resign="single")
    assert turns.run_computer_turn(gammon.pk, gammon.version)
    after = fresh(gammon)
    assert (after.status, after.resign_refused, after.resign_offer) == ("playing", "single", "")
    with translation.override("zh-hans"):
        message = build_state(after)["message"]
    assert message == "电脑不接受你的认输：它估计能赢得更多。请继续下。"
    offered = services.resign(gammon.pk, gammon.owner, after.version, "gammon")
    assert turns.run_computer_turn(gammon.pk, offered.version)
    after = fresh(gammon)
    assert (after.status, after.winner, after.result_kind, after.points) == (
        "finished",
        "dark",
        "gammon",
        2,
    )


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_BROKER_URL="")
def test_in_process_the_persons_double_is_answered_once(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = Position.start()
    game = services.start_game_from(user, "casual", start, Side.LIGHT, kind=GameKind.MONEY)
    assert game.status == Status.DECIDING
    rolls = iter([3, 1])
    monkeypatch.setattr(services.dice, "roll_die", lambda: next(rolls))
    game = services.double(game.pk, user, game.version)  # on commit: the computer is due
    assert dispatch.wait_idle(60)
    tasks.enqueue_computer_turn(game.pk, game.version)  # a duplicate delivery
    assert dispatch.wait_idle(60)
    after = fresh(game)
    assert (after.cube_value, after.cube_owner, after.status) == (2, "dark", "playing")
    assert (after.version, after.dice) == (game.version + 1, [3, 1])
    assert cube_rows(game) == [("light", "double", 2), ("dark", "take", 2)]


@pytest.mark.django_db
def test_a_gammon_resignation_is_judged_on_sane_chances(dark_game: Any) -> None:
    game = money(dark_game, position=DARK_GAMMONS_FROM_AFAR, jacoby=False, resign="gammon")
    assert turns.run_computer_turn(game.pk, game.version)
    after = fresh(game)
    assert (after.status, after.winner, after.result_kind, after.points) == (
        "finished",
        "dark",
        "gammon",
        2,
    )
