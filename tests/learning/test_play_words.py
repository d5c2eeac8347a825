"""A play on the pages that show plays (issue 45): the play page, the hint
panel and the review write "bar" and "off" as the notation lesson and the
glossary teach them (吧台, 移出 in Chinese; bar, off in English), from the
one place (``games.words.notation``); the reasons the hint and the review
give link the glossary's terms where they first name them, as the tutor's
words do. What the pages' scripts receive, through the real URLs; the
screen itself: tests/browser/test_play_words_browser.py."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.words.notation import notation_words
from learning.glossary.marks import MARK, plain, uses
from learning.review.replay import candidate_json
from learning.templatetags.learning_tags import review_strings
from learning.words.reasons import PLAY_TERMS

pytestmark = pytest.mark.django_db

MOVE_WORDS = {"zh-hans": {"bar": "吧台", "off": "移出"}, "en": {"bar": "bar", "off": "off"}}
LATIN_MOVE_WORD = re.compile(r"\b(bar|off)\b", re.IGNORECASE)

# A stored candidate (``ai_worker.candidates.Candidate.to_json``) whose play
# enters from the bar and bears off, with a reason that names two plays.
STORED = {
    "notation": "bar/22 6/off",
    "equity": -0.1,
    "probs": {"win": 0.4, "win_gammon": 0.1, "win_backgammon": 0.01},
    "steps": [[25, 22], [6, 0]],
    "reasons": [
        {"code": "blots", "params": {"count": 1, "points": [22], "shots": 11}},
        {"code": "bears_off", "params": {"count": 1}},
    ],
    "versus": [
        {
            "code": "chances",
            "params": {
                "best_play": "bar/20 6/off",
                "other_play": "bar/22 6/off",
                **{
                    f"{side}_{key}": 0.1
                    for side in ("best", "other")
                    for key in (
                        "win",
                        "win_gammon",
                        "win_backgammon",
                        "lose_gammon",
                        "lose_backgammon",
                    )
                },
            },
        }
    ],
}


def script_json(html: str, node_id: str) -> Any:
    found = re.search(rf'<script id="{node_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found, node_id
    return json.loads(found.group(1))


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_play_page_and_its_hint_panel_get_bar_and_off_in_the_page_language(
    client_logged_in: Client, user: Any, language: str
) -> None:
    game = services.start_game(user, "beginner")
    client_logged_in.cookies["django_language"] = language
    url = reverse("games:play", args=[game.pk])
    html = client_logged_in.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert script_json(html, "board-strings")["move_words"] == MOVE_WORDS[language]
    assert script_json(html, "hint-strings")["move_words"] == MOVE_WORDS[language]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_review_gets_bar_and_off_in_the_page_language(language: str) -> None:
    with translation.override(language):
        strings = json.loads(json.dumps(review_strings(), default=str))
    assert strings["move_words"] == MOVE_WORDS[language]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_play_named_in_a_reason_is_written_in_the_page_language(language: str) -> None:
    with translation.override(language):
        shown = candidate_json(STORED, "light")
        assert notation_words("bar/20 6/off") in plain(shown["reasons"][0])  # the one place
    assert shown["notation"] == "bar/22 6/off"  # the data the scripts compare, as stored
    written = {"zh-hans": "吧台/20 6/移出", "en": "bar/20 6/off"}[language]
    assert written in plain(shown["reasons"][0])
    latin = [r for r in shown["reasons"] if LATIN_MOVE_WORD.search(plain(r))]
    assert not (language == "zh-hans" and latin), latin


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_hint_and_review_reasons_link_the_terms_they_name_where_first_named(
    language: str,
) -> None:
    with translation.override(language):
        reasons = candidate_json(STORED, "light")["reasons"]
    marked = {m.group(1): m.group(2) for r in reasons for m in MARK.finditer(r)}
    words = {
        "zh-hans": {"blot": "落单", "bear-off": "移出", "shots": "11 种能打到"},
        "en": {"blot": "blot", "bear-off": "Bears off", "shots": "11 of 36 rolls hit"},
    }
    assert {key: marked.get(key) for key in words[language]} == words[language]
    for reason in reasons:
        first: dict[str, bool] = {}
        for _at, key, link in uses(reason, language):
            first.setdefault(key, link)
        assert [key for key in PLAY_TERMS if first.get(key) is False] == [], reason
