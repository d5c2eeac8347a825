"""The play page as the server draws it: the words for its scripts, and the
browser tests' hook left out of production pages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db


def script_json(html: str, node_id: str) -> Any:
    found = re.search(rf'<script id="{node_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found, node_id
    return json.loads(found.group(1))


@pytest.fixture
def play_url(user: Any) -> str:
    game = services.start_game(user, "beginner")
    return reverse("games:play", args=[game.pk])


@override_settings(DEBUG=False)
def test_a_production_page_has_no_test_hook(client_logged_in: Client, play_url: str) -> None:
    html = client_logged_in.get(play_url).content.decode()
    assert "data-test-hook" not in html


@override_settings(DEBUG=True)
def test_a_debug_page_marks_the_test_hook(client_logged_in: Client, play_url: str) -> None:
    html = client_logged_in.get(play_url).content.decode()
    assert 'data-test-hook="1"' in html


@pytest.mark.parametrize(
    ("language", "your_turn", "hint"),
    [("zh-hans", "轮到你了", "正在计算"), ("en", "Your turn", "Working out the best plays")],
)
def test_the_scripts_words_come_with_json_script_in_the_page_language(
    client_logged_in: Client, play_url: str, language: str, your_turn: str, hint: str
) -> None:
    client_logged_in.cookies["django_language"] = language
    html = client_logged_in.get(play_url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    words = script_json(html, "board-strings")
    assert words["your_turn"] == your_turn
    assert "%(dice)s" in words["you_rolled"]
    assert hint in script_json(html, "hint-strings")["thinking"]
