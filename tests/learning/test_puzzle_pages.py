"""The puzzle pages through the real URLs: a new visitor gets a puzzle (never
its answers), the filters, the day's puzzle and the dashboard of themes."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from learning.puzzles.models import Puzzle
from tests.learning.fixtures_puzzles import HITTABLE, checker_puzzle, only

pytestmark = pytest.mark.django_db


def page_data(html: str) -> dict[str, Any]:
    found = re.search(
        r'<script id="puzzle-data" type="application/json">(.*?)</script>', html, re.S
    )
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_new_visitor_gets_a_guest_account_and_a_puzzle_without_its_answers(
    client: Client,
) -> None:
    only()
    puzzle = checker_puzzle()

    response = client.get(reverse("puzzles:next"))

    assert response.status_code == 200
    assert User.objects.get().is_guest
    html = response.content.decode()
    data = page_data(html)
    assert data["id"] == puzzle.pk
    assert data["dice"] == [3, 1]
    assert "answers" not in data and "ranking" not in data
    assert puzzle.answers[0] not in html


def test_the_theme_filter_only_offers_puzzles_of_that_theme(client: Client) -> None:
    only()
    checker_puzzle(tags=" phase:opening slot ")
    hit = checker_puzzle(HITTABLE, key="test:hit", tags=" phase:middle hit_or_build ")

    for _ in range(3):
        data = page_data(
            client.get(reverse("puzzles:next") + "?theme=hit_or_build").content.decode()
        )
        assert data["id"] == hit.pk
    none = client.get(reverse("puzzles:next") + "?theme=anchor").content.decode()
    assert 'id="puzzles-none"' in none


def test_the_days_puzzle_is_the_same_for_two_people(client: Client) -> None:
    only()
    for n in range(5):
        checker_puzzle(key=f"test:{n}", rating=1400 + 50 * n)
    first = page_data(client.get(reverse("puzzles:daily")).content.decode())["id"]
    other = Client()
    second = page_data(other.get(reverse("puzzles:daily")).content.decode())["id"]
    assert first == second


def test_the_dashboard_lists_every_checker_theme_in_chinese(client: Client) -> None:
    with translation.override("zh-hans"):
        html = client.get(
            reverse("puzzles:dashboard"), HTTP_ACCEPT_LANGUAGE="zh-hans"
        ).content.decode()
    assert "打还是建点" in html
    assert "不明" in html or "尚无" in html


def test_puzzles_counted_by_the_bank_are_rated_ones_only(client: Client) -> None:
    only()
    checker_puzzle(status="close", key="test:close")
    assert Puzzle.objects.count() == 1
    assert 'id="puzzles-none"' in client.get(reverse("puzzles:next")).content.decode()


def test_the_dashboard_names_weak_themes_from_a_reviewed_game(
    client_logged_in: Client, user: Any
) -> None:
    from learning.puzzles import dashboard
    from learning.review import game as review
    from tests.learning.conftest import RACE, one_ply, play_out, worst

    game = play_out(user, RACE, seed=3, light_choice=worst)
    review.run_analysis(game.pk, rank=one_ply)

    weakest = dashboard.weakest(user)
    assert weakest
    html = client_logged_in.get(reverse("puzzles:dashboard")).content.decode()
    assert weakest[0]["url"].replace("&", "&amp;") in html
