"""Every JSON way into the site's pages answers 400 in words, never 500 (issue 30, item 3).

The JSON endpoints (``grep -n "_body\\|json.loads" */*views*.py``): the
analysis board's ``/analysis/position``, ``/analysis/step`` and
``/analysis/run`` (a POST body, or the same fields in a GET query), and
practice's ``/practice/<id>/answer``. The game socket's frames are fuzzed in
``tests/games/test_socket_frames.py``. First the bodies found to answer 500,
then a fuzz over each endpoint: any body is answered 200, 400 with a message
or 429 (the analysis burst), and a 400 says why in words.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai_worker.evaluator import rank_plays
from games.engine import Position
from learning.models import PracticeItem
from learning.review import game as review
from learning.study import practice
from tests.learning.conftest import RACE, play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

START = "4HPwATDgc/ABMA"
NONE = (0,) * 25
HALF = Position.start().me
BOARD_URLS = ("/analysis/position", "/analysis/step", "/analysis/run")


def post_raw(client: Client, url: str, body: str | bytes) -> Any:
    return client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")


def refused_in_words(response: Any) -> str:
    assert response.status_code == 400, response.content[:300]
    message = response.json()["message"]
    assert isinstance(message, str) and len(message) > 10
    return message


@pytest.mark.parametrize(
    ("url", "body", "words"),
    [
        ("/analysis/step", {"id": START, "dice": "31", "steps": [[1e30, -1e30]]}, "steps"),
        ("/analysis/step", {"id": START, "dice": "31", "steps": [[100, -100]]}, "point 100"),
        ("/analysis/run", {"dice": {"a": 1}}, "“dice” should be text"),
        ("/analysis/run", {"dice": "31", "side": 7}, "“side” should be text"),
        ("/analysis/position", {"id": ["x"]}, "“id” should be text"),
        ("/analysis/position", {"setup": {"light": {"a": 1}, "dark": []}}, "“light”"),
    ],
)
def test_the_bodies_that_answered_500_are_refused_in_words(
    client: Client, url: str, body: dict[str, Any], words: str
) -> None:
    assert words in refused_in_words(post_raw(client, url, json.dumps(body)))


@pytest.mark.parametrize("url", BOARD_URLS)
def test_a_body_nested_fifty_thousand_deep_is_refused_in_words(client: Client, url: str) -> None:
    message = refused_in_words(post_raw(client, url, "[" * 50_000 + "]" * 50_000))
    assert "larger than" in message or "nested" in message
    message = refused_in_words(post_raw(client, url, '{"id":' + "[" * 900 + "]" * 900 + "}"))
    assert "nested more than 4 levels" in message


@pytest.mark.parametrize("url", BOARD_URLS)
def test_nan_and_infinity_are_not_json(client: Client, url: str) -> None:
    message = refused_in_words(post_raw(client, url, '{"id": NaN}'))
    assert message == "The request is not valid JSON."


def test_the_empty_board_is_refused_in_words(client: Client) -> None:
    for url in BOARD_URLS:
        body = json.dumps({"id": "AAAAAAAAAAAAAA", "dice": "31"})
        assert "The board is empty" in refused_in_words(post_raw(client, url, body))
    page = client.get("/analysis/", {"id": "AAAAAAAAAAAAAA"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "The board is empty" in page.context["initial"]["error"]
    assert page.context["initial"]["position_id"] == START


@pytest.mark.parametrize(
    ("position", "words"),
    [
        # Light, on roll, has borne off all 15; then dark has.
        (Position(NONE, HALF), "Light has no checkers"),
        (Position(HALF, NONE), "Dark has no checkers"),
    ],
)
def test_a_finished_board_opens_but_is_not_played_or_analysed(
    client: Client, position: Position, words: str
) -> None:
    body = {"id": position.position_id(), "dice": "31"}
    opened = post_raw(client, "/analysis/position", json.dumps(body))
    assert opened.status_code == 200  # a set-up in the address is one until both sides stand
    for url in ("/analysis/step", "/analysis/run"):
        assert words in refused_in_words(post_raw(client, url, json.dumps(body)))


def test_the_set_up_may_pass_through_an_empty_board_but_cannot_analyse_it(client: Client) -> None:
    empty = {"light": [0] * 25, "dark": [0] * 25}  # the page's Clear button
    answer = post_raw(client, "/analysis/position", json.dumps({"setup": empty}))
    assert answer.status_code == 200 and answer.json()["position_id"] == "AAAAAAAAAAAAAA"
    run = post_raw(client, "/analysis/run", json.dumps({"id": "AAAAAAAAAAAAAA", "dice": "31"}))
    assert "The board is empty" in refused_in_words(run)


# --- the fuzz ---------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["31", "all", "66", "light", "dark", "2", "3-2", START, "AAAAAAAAAAAAAA"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=30,
)
IDS = st.sampled_from(
    [START, RACE.position_id(), "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:2:0:0:5:10", "x"]
)
FIELDS = ("id", "dice", "side", "steps", "setup", "cube", "owner", "match", "score")
FIELDS += ("crawford", "jacoby", "action")
BODIES = st.fixed_dictionaries(
    {}, optional={name: (IDS | JSON) if name == "id" else JSON for name in FIELDS}
)


def raw_bodies() -> st.SearchStrategy[str | bytes]:
    """Bodies as sent: JSON objects (NaN and Infinity included), any JSON,
    mutated JSON text, and bytes that are not UTF-8."""
    encoded = BODIES.map(lambda body: json.dumps(body, allow_nan=True))
    mutated = st.tuples(encoded, st.integers(0, 400), st.text(max_size=4)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    )
    anything = JSON.map(lambda value: json.dumps(value, allow_nan=True))
    return st.one_of(encoded, encoded, mutated, anything, st.binary(max_size=60))


def answered(response: Any) -> None:
    assert response.status_code in (200, 400, 429), response.content[:300]
    if response.status_code != 200:
        assert isinstance(response.json()["message"], str) and response.json()["message"]


FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.slow
@FUZZ
@given(url=st.sampled_from(BOARD_URLS), body=raw_bodies())
def test_any_body_to_the_analysis_board_is_answered(client: Client, url: str, body: Any) -> None:
    answered(post_raw(client, url, body))


@pytest.mark.slow
@FUZZ
@given(query=st.dictionaries(st.sampled_from(FIELDS), st.text(max_size=40), max_size=6))
def test_any_query_to_the_analysis_board_is_answered(client: Client, query: Any) -> None:
    answered(client.get("/analysis/run", query, HTTP_ACCEPT_LANGUAGE="en"))
    page = client.get("/analysis/", query, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200


def one_ply(
    position: Position, dice: Any, ply: int, keep: Any = None, shown: int = 2, context: Any = None
) -> Any:
    return rank_plays(position, dice, 1, context=context)


@pytest.fixture
def practice_item(user: Any) -> PracticeItem:
    """A real practice position: a game where the person plays badly, reviewed at 1-ply."""
    game = play_out(user, RACE, seed=3, light_choice=lambda ranked: ranked[-1])
    review.run_analysis(game.pk, rank=one_ply)
    assert practice.add_from_reviews(user)
    item = PracticeItem.objects.filter(owner=user, cube__isnull=True).first()
    assert item is not None
    return item


@pytest.mark.slow
@FUZZ
@given(body=raw_bodies())
def test_any_body_to_a_practice_answer_is_answered(
    client_logged_in: Client, practice_item: PracticeItem, body: Any
) -> None:
    answered(post_raw(client_logged_in, f"/practice/{practice_item.pk}/answer", body))
