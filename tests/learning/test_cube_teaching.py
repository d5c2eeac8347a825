"""Cube decisions for a learner: the hint on a cube decision (H), its figures
taken from the real cubeful evaluation, in both languages.

Positions (from the side on roll, a money game with the Jacoby rule) whose
verdict bgsage gives at 1- and 2-ply alike, found in seeded playouts:
``NO_DOUBLE`` (52.6% wins: no double, take), ``DOUBLE_TAKE`` (60.8%, 27%
gammons), ``DOUBLE_PASS`` (72.9%, 33% gammons).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from ai_worker.cube import CubeAction, CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, advise
from games.engine import Cube, Match, Position, Side
from games.models import Game, GameKind, Status
from games.tiers import Tier, tier_spec
from learning import hints
from learning.models import Hint

NO_DOUBLE = "4HPwATDgc/ABMA"
DOUBLE_TAKE = "pi7wATCG1+ABMA"
DOUBLE_PASS = "d1bABBi8eYQJQA"
EXPERT = tier_spec(Tier.EXPERT).ply
MONEY = Match(jacoby=True)


@pytest.mark.parametrize(
    ("position_id", "best", "answer"),
    [
        (NO_DOUBLE, CubeAction.NO_DOUBLE, CubeAction.TAKE),
        (DOUBLE_TAKE, CubeAction.DOUBLE, CubeAction.TAKE),
        (DOUBLE_PASS, CubeAction.DOUBLE, CubeAction.PASS),
    ],
)
def test_the_advice_names_the_right_action_and_prices_the_others(
    position_id: str, best: CubeAction, answer: CubeAction
) -> None:
    position = Position.from_position_id(position_id)
    context = CubeContext(Cube(), MONEY, Side.LIGHT)
    advice = advise(position, context, DOUBLE, EXPERT)
    e = advice.equities
    assert advice.best is best
    assert advice.loss(best) == 0.0
    other = CubeAction.NO_DOUBLE if best is CubeAction.DOUBLE else CubeAction.DOUBLE
    assert advice.loss(other) == pytest.approx(abs(e.no_double - min(e.double_take, e.double_pass)))
    taker = advise(position, context, TAKE, EXPERT)
    assert taker.best is answer
    wrong = CubeAction.PASS if answer is CubeAction.TAKE else CubeAction.TAKE
    assert taker.loss(wrong) == pytest.approx(abs(e.double_take - e.double_pass))
    # The take point: money, no gammons at all would give Janowski's 21.4%;
    # gammons for the doubler raise it.
    assert advice.take_point is not None and 0.2 < advice.take_point < 0.4


def test_a_jacoby_free_money_game_with_many_gammons_is_too_good() -> None:
    # Every roll wins; 86% of them a gammon: too good, play on.
    position = Position.from_position_id("v1AMigL/twIAAA")
    advice = advise(position, CubeContext(Cube(), Match(), Side.LIGHT), DOUBLE, EXPERT)
    assert advice.best is CubeAction.TOO_GOOD
    assert advice.why.code == "too_good" and advice.why.params["gammon"] > 0.8
    assert advice.loss(CubeAction.DOUBLE) > 0.5


def cube_game(user: Any, position_id: str, status: str, **fields: Any) -> Game:
    return Game.objects.create(
        owner=user,
        status=status,
        turn="light",
        dice=None,
        kind=GameKind.MONEY,
        jacoby=True,
        position_id=position_id,
        opening_rolls=[[4, 2]],
        **fields,
    )


@pytest.mark.django_db
def test_a_hint_on_the_persons_double_gives_the_action_the_chances_and_why(
    user: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from games import services

    game = cube_game(user, DOUBLE_TAKE, Status.DECIDING)
    monkeypatch.setattr(
        "learning.tasks.enqueue_hint", lambda gid, version: hints.compute_hint(gid, version)
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.request_hint(game.pk, user, game.version)
    hint = Hint.objects.get(game=game, version=game.version)
    expected = advise(
        Position.from_position_id(DOUBLE_TAKE), CubeContext(Cube(), MONEY, Side.LIGHT), DOUBLE, 2
    ).to_json()
    assert hint.state == "done" and hint.cube == expected and hint.candidates == []
    e = expected["equities"]
    with translation.override("en"):
        body = hints.hint_json(hint)
    cube = body["cube"]
    assert cube["best"] == "double" and cube["title"] == "The right cube action: Double, take."
    chances, equities, take_point, why = cube["lines"]
    assert f"win {expected['probs']['win'] * 100:.1f}%" in chances
    assert f"gammon {expected['probs']['win_gammon'] * 100:.1f}%" in chances
    for key in ("no_double", "double_take", "double_pass"):
        assert f"{e[key]:+.3f}" in equities
    assert f"{expected['take_point'] * 100:.1f}%" in take_point
    gain = min(e["double_take"], e["double_pass"]) - e["no_double"]
    assert why.startswith("Double: ") and f"{gain:.3f}" in why
    with translation.override("zh-hans"):
        chinese = hints.hint_json(hint)["cube"]
    assert chinese["title"] == "正确的倍数骰决策：加倍，接受。"
    for text in chinese["lines"]:
        assert text.endswith("。") and not re.search(r"[A-Za-z]", text), text


@pytest.mark.django_db
def test_a_hint_when_the_computer_doubles_says_take_or_pass_from_the_persons_side(
    user: Any,
) -> None:
    # The computer (on roll, DARK) holds the DOUBLE_PASS position and doubled.
    light_side = Position.from_position_id(DOUBLE_PASS).swapped().position_id()
    game = cube_game(user, light_side, Status.DOUBLED, cube_offered="dark")
    hints.compute_hint(game.pk, game.version)
    hint = Hint.objects.get(game=game)
    with translation.override("en"):
        cube = hints.hint_json(hint)["cube"]
    assert (cube["decision"], cube["best"]) == ("take", "pass")
    assert cube["title"] == "The right cube action: Pass."
    probs = hint.cube["probs"]  # the doubler's: the person wins the rest
    assert f"win {(1 - probs['win']) * 100:.1f}%" in cube["lines"][0]
    take, pass_ = hint.cube["values"]["take"], hint.cube["values"]["pass"]
    assert pass_ == -1.0 and take < pass_
    assert f"take {take:+.3f}" in cube["lines"][1] and "pass -1.000" in cube["lines"][1]
    assert cube["lines"][2].startswith("Your take point at this score: ")
    assert cube["lines"][3].startswith("Pass: ")
