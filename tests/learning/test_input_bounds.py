"""Numbers in what the site reads, through its real URLs (issue 30, item 2).

The XGID bomb (a cube field of twelve nines made the web process allocate
without bound), its kin in every number field, and a match file's numbers:
each is refused in words on the page, at once, and nothing is stored.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.engine.matfile import SAMPLE
from games.models import Game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

BOARD = "XGID=-b----E-C---eE---c-e----B-"
START = "4HPwATDgc/ABMA"


def xgid(cube: str = "0", score: str = "0", length: str = "0") -> str:
    return f"{BOARD}:{cube}:0:1:00:{score}:0:0:{length}:10"


def page_error(client: Client, text: str, language: str) -> tuple[str, dict[str, Any]]:
    began = time.perf_counter()
    response = client.get("/analysis/", {"id": text}, HTTP_ACCEPT_LANGUAGE=language)
    assert time.perf_counter() - began < 2
    assert response.status_code == 200
    initial = dict(response.context["initial"])
    assert initial["position_id"] == START  # the board stays on the start
    return str(initial["error"]), initial


@pytest.mark.parametrize("level", ["999999999999", "1000000000", "7"])
def test_the_xgid_cube_bomb_is_refused_in_words_in_both_languages(
    client: Client, level: str
) -> None:
    en, _page = page_error(client, xgid(cube=level), "en")
    assert "cube" in en and "at most 6" in en and "64" in en
    zh, _page = page_error(client, xgid(cube=level), "zh-hans")
    assert "倍数骰" in zh and zh.endswith("。") and zh != en


def test_an_xgid_score_or_length_past_its_limit_is_refused_in_words(client: Client) -> None:
    en, _page = page_error(client, xgid(score="99999999999", length="7"), "en")
    assert en.startswith("The XGID's score 9999999999") and "past 64" in en
    en, _page = page_error(client, xgid(length="99999999999"), "en")
    assert "match length" in en and "past 64 points" in en
    zh, _page = page_error(client, xgid(length="99999999999"), "zh-hans")
    assert "比赛长度" in zh and zh.endswith("。")


def test_the_json_endpoints_refuse_the_bomb_with_400(client: Client) -> None:
    for url in ("/analysis/position", "/analysis/run"):
        body = {"id": xgid(cube="999999999999")}
        response = client.post(url, body, "application/json", HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 400
        assert response.json()["error"] == "out_of_range"
        assert "cube" in response.json()["message"]


HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("alice : 0", f"alice : {HUGE}", "Line 6: A number on this line is past 9830400."),
        ("Doubles => 2", "Doubles => 99999999", "Line 8: A number on this line is past 32768."),
        ("Doubles => 2", "Doubles => ²", "Line 8 ("),
        (" 3 point match", f" {HUGE} point match", "The match is longer than 64 points."),
    ],
)
def test_a_match_file_with_a_number_past_its_limit_is_refused_in_words(
    client_logged_in: Client, old: str, new: str, words: str
) -> None:
    upload = SimpleUploadedFile("bad.mat", SAMPLE.replace(old, new).encode(), "text/plain")
    response = client_logged_in.post(
        "/learn/history/import/", {"file": upload}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    shown = [str(m) for m in response.context["messages"]]
    assert len(shown) == 1 and shown[0].startswith("The file was not imported.")
    assert words in shown[0]
    assert not Game.objects.exists()
