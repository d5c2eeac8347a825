"""Cube decisions for a learner: the hint on a cube decision (H), its figures
taken from the real cubeful evaluation, in both languages.

Positions (from the side on roll, a money game with the Jacoby rule) whose
verdict bgsage gives at 1- and 3-ply alike (the Expert's cube depth), found
in seeded playouts: ``NO_DOUBLE`` (52.6% wins: no double, take),
``DOUBLE_TAKE`` (67.1%, 22% gammons; GNU Backgammon 2-ply: double, take by
0.086), ``DOUBLE_PASS`` (72.9%, 33% gammons).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import override_settings
from django.utils import translation

from ai_worker.cube import CubeAction, CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, advise
from games import reading
from games.engine import Cube, Match, Position, Side
from games.models import Game, GameKind, Status
from games.tiers import Tier, tier_spec
from learning import hints
from learning.models import Hint

NO_DOUBLE = "4HPwATDgc/ABMA"
DOUBLE_TAKE = "yOfBARKw5+ADIA"
DOUBLE_PASS = "d1bABBi8eYQJQA"
EXPERT = tier_spec(Tier.EXPERT).cube_depth
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


def deciding(user: Any, position_id: str, turn: Side = Side.LIGHT) -> Game:
    """A money game (Jacoby) started through the services from the position,
    ``turn`` on roll and first deciding whether to double."""
    from games import services

    position = Position.from_position_id(position_id)
    game = services.start_game_from(user, "casual", position, turn, kind=GameKind.MONEY)
    assert game.status == Status.DECIDING
    return game


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_BROKER_URL="")
def test_a_hint_on_the_persons_double_gives_the_action_the_chances_and_why(user: Any) -> None:
    from ai_worker import dispatch
    from games import services

    game = deciding(user, DOUBLE_TAKE)
    # Asked as the socket does; on commit the hint runs on the in-process pool.
    services.request_hint(game.pk, user, game.version)
    assert dispatch.wait_idle(60)
    hint = Hint.objects.get(game=game, version=game.version)
    expected = advise(
        Position.from_position_id(DOUBLE_TAKE),
        CubeContext(Cube(), MONEY, Side.LIGHT),
        DOUBLE,
        EXPERT,
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
    from games import services

    light_side = Position.from_position_id(DOUBLE_PASS).swapped().position_id()
    game = deciding(user, light_side, Side.DARK)
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game.refresh_from_db()
    assert (game.status, game.cube_offered) == (Status.DOUBLED, "dark")
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


# ---------------------------------------------------------------- the review


@pytest.mark.django_db
def test_the_cube_decisions_of_both_sides_are_replayed_in_order(cube_game_played: Game) -> None:
    from learning.review.cube import cube_decisions

    found = [
        (d.before_turn, d.side.value, d.decision, d.action, d.context.cube.value)
        for d in cube_decisions(cube_game_played)
    ]
    assert found == [
        (2, "dark", "double", "no_double", 1),
        (3, "light", "double", "double", 1),
        (3, "dark", "take", "take", 1),
        (4, "dark", "double", "double", 2),
        (4, "light", "take", "pass", 2),
    ]


@pytest.mark.django_db
def test_the_review_judges_every_cube_decision_and_sums_the_rates_apart_and_together(
    cube_game_played: Game,
) -> None:
    from ai_worker.grading import classify
    from learning.models import CubeAnalysis, GameAnalysis
    from learning.review import game as review

    review.run_analysis(cube_game_played.pk)
    row = GameAnalysis.objects.get(game=cube_game_played)
    assert row.state == "done" and row.turns_done == row.turns_total == 3 + 5
    cubes = {(c.before_turn, c.decision): c for c in CubeAnalysis.objects.filter(analysis=row)}
    assert len(cubes) == 5
    take = cubes[(3, "take")]  # DARK took a double it should have passed
    e = take.report["equities"]
    assert take.best == "pass" and take.action == "take"
    assert take.equity_lost == pytest.approx(e["double_take"] - e["double_pass"], abs=1e-4)
    assert take.error_class == classify(take.equity_lost).value != "none"
    double = cubes[(3, "double")]  # LIGHT's double was right
    assert double.best == "double" and double.equity_lost == 0.0
    assert cubes[(2, "double")].trivial  # far behind: nothing to decide
    # Every decision judged at the review's depth (an even one taken one shallower).
    assert {c.report["ply"] for c in cubes.values()} == {row.ply - 1 + row.ply % 2}
    summary = row.summary
    dark = summary["dark"]
    counted = [c for c in cubes.values() if c.side == "dark" and not c.trivial]
    assert dark["cube"]["decisions"] == len(counted)
    assert dark["cube"]["error_rate"] == pytest.approx(
        sum(c.equity_lost for c in counted) / len(counted)
    )
    turns = [t for t in row.turns.all() if t.side == "dark" and not t.forced]
    together = (sum(t.equity_lost for t in turns) + sum(c.equity_lost for c in counted)) / (
        len(turns) + len(counted)
    )
    assert dark["total_error_rate"] == pytest.approx(together)


@pytest.mark.django_db
def test_the_review_page_shows_each_cube_decision_on_its_turn_and_the_rates(
    cube_game_played: Game, client_logged_in: Any
) -> None:
    from django.urls import reverse

    from learning.models import GameAnalysis
    from learning.review import game as review

    review.run_analysis(cube_game_played.pk)
    page = client_logged_in.get(
        reverse("learning:review", args=[cube_game_played.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    body = page.content.decode()
    assert "Checker play and the cube" in body
    replay = page.context["replay"]
    third = next(t for t in replay["turns"] if t["number"] == 3)
    assert [(c["side"], c["action"]) for c in third["cube"]] == [
        ("light", "double"),
        ("dark", "take"),
    ]
    took = third["cube"][1]
    assert took["verdict"] == "Take; the right action: Pass." and took["error"] != "none"
    assert took["why"] is None  # the computer's: no "you" sentence
    assert third["cube"][0]["why"].startswith("Double: ")
    # The double passed after the last turn is shown at the game's end.
    end = [(c["side"], c["action"]) for c in replay["end_cube"]]
    assert end == [("dark", "double"), ("light", "pass")]
    dark = GameAnalysis.objects.get(game=cube_game_played).summary["dark"]
    assert f"{dark['cube']['error_rate'] * 1000:.1f}" in body
    assert f"{dark['total_error_rate'] * 1000:.1f}" in body


def third_game_at_one_to_three(user: Any) -> Game:
    """A 5-point match through the services: LIGHT wins game 1 (its double
    passed), DARK game 2 (LIGHT resigns a backgammon); in game 3, at 1-3,
    LIGHT opens with 3-1, DARK rolls 6-4, then LIGHT resigns."""
    from unittest import mock

    from ai_worker.evaluator import rank_plays
    from games import services
    from games.engine import Dice
    from tests.learning.conftest import computer_plays, person_plays

    def opened(game: Game) -> Game:  # LIGHT 4 against DARK's 2: LIGHT plays 4-2
        ranked = rank_plays(reading.position_of(game), Dice(*game.dice), 1)
        return person_plays(game, ranked[0].play)

    def resigned(game: Game, kind: str) -> Game:
        game = services.resign(game.pk, user, game.version, kind)
        assert services.answer_resignation(game.pk, game.version, accept=True)
        return Game.objects.get(pk=game.pk)

    rolls = iter([4, 2, 3, 1, 4, 2, 3, 1, 6, 4])
    with mock.patch.object(services.dice, "roll_die", lambda: next(rolls)):
        first = opened(services.start_match(user, "casual", 5))
        assert services.finish_computer_cube(first.pk, first.version, "no_double")  # rolls 3-1
        first = computer_plays(Game.objects.get(pk=first.pk))
        first = services.double(first.pk, user, first.version)
        assert services.finish_computer_cube(first.pk, first.version, "pass")
        services.next_game(first.pk, user, Game.objects.get(pk=first.pk).version)
        second = resigned(opened(first.match.games.get(match_game=2)), "backgammon")
        services.next_game(second.pk, user, second.version)
        game = second.match.games.get(match_game=3)
        assert (game.score_light, game.score_dark, game.turns.count()) == (1, 3, 0)
        game = services.make_step(game.pk, user, game.version, 8, 5)
        game = services.make_step(game.pk, user, game.version, 6, 5)
        assert services.finish_computer_cube(game.pk, game.version, "no_double")  # rolls 6-4
        game = computer_plays(Game.objects.get(pk=game.pk))
        assert game.last_turn["dice"] == [6, 4]
        game = resigned(game, "single")
    assert game.turns.count() == 2 and game.is_over
    return game


@pytest.mark.django_db
def test_in_a_match_the_graph_shows_the_chance_to_win_the_match(user: Any) -> None:
    import bgbot_cpp

    from learning.review import game as review
    from learning.review.replay import replay_json

    game = third_game_at_one_to_three(user)
    review.run_analysis(game.pk)
    data = replay_json(game)
    assert data["match"] is True
    for turn in data["turns"]:
        report = game.turns.get(number=turn["number"]).analysis.report
        p = report["after"]  # the mover's chances after its play
        mover_away, other_away = (4, 2) if turn["side"] == "light" else (2, 4)
        chances = [
            p[k] for k in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
        ]
        mwc = bgbot_cpp.cubeless_mwc(chances, mover_away, other_away, 1, False)
        light = mwc if turn["side"] == "light" else 1.0 - mwc
        assert turn["analysis"]["mwc_light"] == pytest.approx(light, abs=1e-4)
        # Trailing 1-3 in a 5-point match, LIGHT's match chance is below its game chance.
        assert turn["analysis"]["mwc_light"] < turn["analysis"]["win_light"]


# Issue 31: a redouble the Expert used to make at 2-ply; GNU Backgammon 2-ply
# says "No redouble, take".
REDOUBLE = "XGID=-ba--BCBBA--bAb--bccC--A--:1:1:1:00:0:0:0:0:10"


def test_a_redouble_is_called_one_and_the_why_names_the_market_and_the_cube() -> None:
    from games.engine import Xgid
    from learning.words.cube import cube_table, cube_verdict, proper_action, why

    xgid = Xgid.parse(REDOUBLE)
    context = CubeContext(xgid.cube, xgid.match, xgid.turn)
    advice = advise(xgid.position, context, DOUBLE, EXPERT).to_json()
    assert advice["redouble"] is True and advice["best"] == "no_double"
    market = advice["market_losers"]
    assert market is not None and 0.0 < market < 1.0
    with translation.override("en"):
        assert proper_action(advice) == "No redouble, take"
        assert cube_verdict(advice, "double") == "Redouble; the right action: No redouble, take."
        assert [r["label"] for r in cube_table(advice)["rows"]] == [
            "No redouble",
            "Redouble, take",
            "Redouble, pass",
        ]
        text = why(advice)
        assert "you own the cube" in text and "redoubling now would hand it over" in text
        assert f"Market losers: after {market * 100:.1f}% of the sequences" in text
    with translation.override("zh-hans"):
        assert proper_action(advice) == "不再加倍，接受"
        text = why(advice)
        assert "再加倍" in text and f"有 {market * 100:.1f}% 的情形" in text
        assert "。丢失市场的序列：" in text  # sentences joined without a space


def test_in_a_match_the_why_names_the_score() -> None:
    from learning.words.cube import why

    position = Position.from_position_id(DOUBLE_TAKE)
    context = CubeContext(Cube(), Match(length=7, light=2, dark=4), Side.LIGHT)
    advice = advise(position, context, DOUBLE, EXPERT).to_json()
    assert advice["redouble"] is False
    with translation.override("en"):
        assert "The score: you need 5 more points, the opponent 3." in why(advice)
    with translation.override("zh-hans"):
        assert "比分：你还差 5 分，对方还差 3 分。" in why(advice)
