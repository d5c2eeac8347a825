"""Practice: positions made from a real review, answers judged through the real
URL, the spaced-repetition intervals, the filters and the lobby's count."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import ngettext

from games.models import Game
from learning.models import PracticeItem, TurnAnalysis
from learning.review import game as review
from learning.study import practice
from tests.learning.conftest import (
    DOUBLE_PASS,
    FAR_BEHIND,
    RACE,
    cube_game_reviewed,
    one_ply,
    play_out,
    worst,
)

pytestmark = pytest.mark.django_db


def reviewed_game(user: Any, seed: int = 3) -> Game:
    """A real game where the person plays the worst play each turn, reviewed."""
    game = play_out(user, RACE, seed=seed, light_choice=worst)
    review.run_analysis(game.pk, rank=one_ply)
    return game


def marked(game: Game) -> list[TurnAnalysis]:
    return list(
        TurnAnalysis.objects.filter(
            analysis__game=game, side="light", forced=False, error_class__in=practice.MARKED
        )
    )


def answer(client: Client, item: PracticeItem, steps: list[list[int]]) -> Any:
    return client.post(
        f"/practice/{item.pk}/answer", json.dumps({"steps": steps}), content_type="application/json"
    )


def steps_of(candidate: dict[str, Any]) -> list[list[int]]:
    return [[int(s[0]), int(s[1])] for s in candidate["steps"]]


@pytest.fixture
def reviewed(user: Any) -> Game:
    return reviewed_game(user)


def test_every_marked_decision_of_the_person_becomes_a_practice_position(
    user: Any, reviewed: Game, make_user: Callable[..., Any]
) -> None:
    expected = marked(reviewed)
    assert expected  # the worst play each turn: the review marks many
    assert practice.add_from_reviews(user) == len(expected)
    items = PracticeItem.objects.filter(owner=user)
    assert {i.turn_id for i in items} == {t.pk for t in expected}
    first = items.get(turn=expected[0])
    assert first.position_id == expected[0].turn.position_before
    assert (first.die1, first.die2) == (expected[0].turn.die1, expected[0].turn.die2)
    assert practice.add_from_reviews(user) == 0  # once only
    assert practice.add_from_reviews(make_user("bob")) == 0  # nobody else's games


def test_the_best_play_is_right_and_the_game_play_is_wrong(
    client_logged_in: Client, user: Any, reviewed: Game
) -> None:
    practice.add_from_reviews(user)
    item = PracticeItem.objects.filter(owner=user).select_related("turn").first()
    assert item is not None
    best = item.turn.report["alternatives"][0]
    right = answer(client_logged_in, item, steps_of(best)).json()
    assert right["right"] is True and right["best"] is True and right["days"] == 1
    assert right["best_play"]["notation"] == best["notation"]
    assert right["best_play"]["reasons"]
    game_play = item.turn.report["played_candidate"]
    assert right["game_play"]["notation"] == game_play["notation"]
    wrong = answer(client_logged_in, item, steps_of(game_play)).json()
    assert wrong["right"] is False
    assert wrong["lost"] == pytest.approx(item.turn.equity_lost, abs=1e-3)
    assert wrong["days"] == 1


def test_a_play_within_002_of_the_best_is_right_but_not_best(
    client_logged_in: Client, user: Any, reviewed: Game
) -> None:
    practice.add_from_reviews(user)
    item = PracticeItem.objects.filter(owner=user).select_related("turn").first()
    assert item is not None
    report = item.turn.report
    assert len(report["alternatives"]) >= 2
    # Shape the stored ranking: the second play 0.015 behind, the third 0.025.
    best = report["alternatives"][0]["equity"]
    report["alternatives"][1]["equity"] = best - 0.015
    TurnAnalysis.objects.filter(pk=item.turn.pk).update(report=report)
    item.refresh_from_db()
    close = answer(client_logged_in, item, steps_of(report["alternatives"][1])).json()
    assert close["right"] is True and close["best"] is False
    assert close["lost"] == pytest.approx(0.015, abs=1e-4)


def test_right_answers_come_back_after_1_3_7_21_days_and_a_wrong_one_tomorrow(
    client_logged_in: Client, user: Any, reviewed: Game
) -> None:
    practice.add_from_reviews(user)
    item = PracticeItem.objects.filter(owner=user).select_related("turn").first()
    assert item is not None
    best = steps_of(item.turn.report["alternatives"][0])
    game_play = steps_of(item.turn.report["played_candidate"])
    gaps = []
    for steps in (best, best, best, best, best, game_play, best):
        before = timezone.now()
        assert answer(client_logged_in, item, steps).status_code == 200
        item.refresh_from_db()
        gaps.append(round((item.due - before) / timedelta(days=1)))
    assert gaps == [1, 3, 7, 21, 21, 1, 1]
    assert (item.answers, item.right, item.streak) == (7, 6, 1)


def test_an_unfinished_play_and_someone_elses_position_are_refused(
    client_logged_in: Client, user: Any, reviewed: Game, make_user: Callable[..., Any]
) -> None:
    practice.add_from_reviews(user)
    item = PracticeItem.objects.filter(owner=user).select_related("turn").first()
    assert item is not None
    first = steps_of(item.turn.report["alternatives"][0])[:1]
    short = answer(client_logged_in, item, first)
    assert short.status_code == 400 and short.json()["error"] == "incomplete"
    other = Client()
    other.force_login(make_user("bob"))
    assert answer(other, item, first).status_code == 404
    assert answer(Client(), item, first).status_code == 404


def test_the_page_shows_the_due_position_and_the_filters_narrow_it(
    client_logged_in: Client, user: Any, reviewed: Game
) -> None:
    response = client_logged_in.get("/practice/", HTTP_ACCEPT_LANGUAGE="en")
    items = PracticeItem.objects.filter(owner=user)
    assert response.context["due"] == items.count() > 0
    shown = response.context["item"]
    assert shown["position_id"] == items.order_by("due", "pk").first().position_id
    blunders = client_logged_in.get("/practice/?only=blunders").context["due"]
    assert blunders == items.filter(error_class="very_bad").count()
    for phase in practice.PRACTICE_PHASES:
        due = client_logged_in.get(f"/practice/?phase={phase}").context["due"]
        assert due == items.filter(phase=phase).count()
    PracticeItem.objects.update(due=timezone.now() + timedelta(days=1))
    later = client_logged_in.get("/practice/", HTTP_ACCEPT_LANGUAGE="en")
    assert later.context["due"] == 0 and later.context["item"] is None
    assert "Nothing to practise right now" in later.content.decode()


def test_the_lobby_says_how_many_positions_are_due(
    client_logged_in: Client, user: Any, reviewed: Game
) -> None:
    html = client_logged_in.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    due = PracticeItem.objects.filter(owner=user).count()
    assert due > 0
    with translation.override("zh-hans"):
        line = ngettext(
            "%(n)s position from your mistakes is due for practice",
            "%(n)s positions from your mistakes are due for practice",
            due,
        ) % {"n": due}
    assert line.startswith("有") and line in html
    assert 'href="/practice/"' in html


# ---------------------------------------------------------------- cube decisions


def cube_answer(client: Client, item: PracticeItem, action: str, language: str = "en") -> Any:
    return client.post(
        f"/practice/{item.pk}/answer",
        json.dumps({"action": action}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.fixture
def cube_items(user: Any) -> dict[str, PracticeItem]:
    cube_game_reviewed(user)
    practice.add_from_reviews(user)
    items = PracticeItem.objects.filter(owner=user, cube__isnull=False).select_related("cube")
    return {i.decision: i for i in items}


def test_each_wrong_cube_decision_of_the_person_becomes_a_practice_position(
    user: Any, cube_items: dict[str, PracticeItem], make_user: Callable[..., Any]
) -> None:
    from learning.models import CubeAnalysis

    wrong = CubeAnalysis.objects.filter(
        analysis__game__owner=user, side="light", error_class__in=practice.MARKED
    )
    assert {c.pk for c in wrong} == {i.cube_id for i in cube_items.values()}
    double, take = cube_items["double"], cube_items["take"]
    assert (double.cube.action, double.cube.best) == ("double", "no_double")
    assert (take.cube.action, take.cube.best) == ("take", "pass")
    assert {i.phase for i in cube_items.values()} == {"cube"}
    # The board of the side doubling, on roll: the person's, then the computer's.
    assert double.position_id == FAR_BEHIND
    assert take.position_id == DOUBLE_PASS
    assert (double.context["cube"], double.context["owner"], double.context["jacoby"]) == (
        1,
        "",
        True,
    )
    assert (take.context["cube"], take.context["owner"]) == (2, "dark")
    assert practice.add_from_reviews(user) == 0  # once only
    assert practice.add_from_reviews(make_user("bob")) == 0  # nobody else's games


def test_a_cube_answer_is_judged_against_the_reviews_best_action(
    client_logged_in: Client, cube_items: dict[str, PracticeItem]
) -> None:
    take = cube_items["take"]
    right = cube_answer(client_logged_in, take, "pass").json()
    assert (right["right"], right["best"], right["lost"], right["days"]) == (True, True, 0.0, 1)
    assert right["best_action"] == "The right cube action: Pass."
    assert right["reasons"][-1].startswith("Pass: ")
    assert (right["game_action"], right["game_lost"]) == ("Take", round(take.cube.equity_lost, 4))
    wrong = cube_answer(client_logged_in, take, "take").json()
    assert wrong["right"] is False and wrong["days"] == 1
    assert wrong["lost"] == pytest.approx(take.cube.equity_lost, abs=1e-4)
    double = cube_items["double"]
    assert cube_answer(client_logged_in, double, "no_double").json()["best"] is True
    assert cube_answer(client_logged_in, double, "double").json()["right"] is False
    refused = cube_answer(client_logged_in, double, "take")
    assert refused.status_code == 400
    assert refused.json()["message"] == "Answer with one of the buttons: Double or No double."
    zh = cube_answer(client_logged_in, double, "pass", language="zh-hans").json()["message"]
    assert zh.endswith("。") and "加倍" in zh


def test_the_cube_filter_shows_a_cube_decision_as_it_was(
    client_logged_in: Client, cube_items: dict[str, PracticeItem]
) -> None:
    response = client_logged_in.get("/practice/?phase=cube", HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["due"] == 2
    shown = response.context["item"]
    first = PracticeItem.objects.filter(phase="cube").order_by("due", "pk").first()
    assert first is not None and shown["id"] == first.pk and shown["kind"] == "cube"
    html = response.content.decode()
    assert shown["decision"] == "double"  # the first of the game's two
    assert 'data-action="double"' in html and 'data-action="no_double"' in html
    assert 'data-action="take"' not in html
    assert shown["setting_words"] == "Money game, with the Jacoby rule; cube 1 in the middle."
    assert shown["cube"] == {"value": 1, "owner": "", "offered": ""}
    take = practice.item_json(cube_items["take"])
    assert take["cube"] == {"value": 2, "owner": "dark", "offered": "dark"}
    assert take["side"] == "dark" and take["answers"] == ["take", "pass"]
    assert take["xgid"].endswith(":1:1:1:00:0:0:1:0:6")  # cube 2 owned by X, the doubler
    assert f"/analysis/?id={first.position_id.replace('/', '%2F')}" in html
    link = response.context["item"]["analysis_query"]
    assert "side=light" in link and "jacoby=1" in link and link.endswith("show=cube")
    opened = client_logged_in.get(f"/analysis/?{link}").context["initial"]
    assert opened["show_cube"] is True and opened["setting"]["jacoby"] is True
    checker = client_logged_in.get("/practice/?phase=middle").context["due"]
    assert checker == PracticeItem.objects.filter(phase="middle").count()
