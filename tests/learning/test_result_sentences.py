"""A game's result is one sentence in each language, not pieces glued with
English punctuation ("电脑赢了: 单胜, 1 分.")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.chinese import chinese_mistakes

pytestmark = pytest.mark.django_db


def result_line(client: Client, game: Game, language: str) -> str:
    page = client.get(reverse("learning:review", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language)
    block = page.content.decode().split('class="review-result">')[1].split("</p>")[0]
    block = block.split("<span")[0]  # the hints badge is not part of the sentence
    return " ".join(re.sub(r"<[^>]+>", "", block).split())


def test_the_review_says_the_result_as_one_chinese_sentence(
    client_logged_in: Client, finished_game: Game
) -> None:
    line = result_line(client_logged_in, finished_game, "zh-hans")
    winner = "你赢了" if finished_game.winner == "light" else "电脑赢了"
    assert line.startswith(f"{winner}：") and line.endswith(" 分。"), line
    assert chinese_mistakes(line) == []
    english = result_line(client_logged_in, finished_game, "en")
    assert re.fullmatch(r"(You|The computer) won: .+, \d+ points?\.", english), english
