"""The analysis board through its real URLs: IDs in and out, set-up, steps,
bad input in words, and the ranked plays of the real evaluator."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.utils import translation

from ai_worker.dispatch import queue_for
from games import services
from games.engine import Dice, Position, Turn, encode_xgid
from games.engine.position import _encode_position_id
from games.models import Game
from learning.board.errors import BoardInputError, describe_error
from learning.models import AnalysisState, BoardAnalysis
from learning.study import board as analysis_board
from learning.tasks import analyse_position
from tests.learning.conftest import RACE

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

START = Position.start().position_id()


def page_data(client: Client, query: str, language: str = "en") -> dict[str, Any]:
    response = client.get(f"/analysis/?{query}", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return dict(response.context["initial"])


def post(client: Client, url: str, body: dict[str, Any], language: str = "en") -> Any:
    return client.post(
        url, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )


def test_the_page_opens_a_position_id_and_writes_both_ids(client: Client) -> None:
    pid = RACE.position_id()
    data = page_data(client, f"id={pid}&dice=63")
    assert data["position_id"] == pid
    assert data["xgid"] == encode_xgid(RACE, Dice(6, 3))
    assert data["dice"] == "63"
    assert data["error"] == ""
    assert data["pips"] == {"light": RACE.pips()[0], "dark": RACE.pips()[1]}


def test_an_xgid_opens_the_same_position_and_its_dice(client: Client) -> None:
    xgid = encode_xgid(RACE, Dice(5, 2))
    data = page_data(client, f"id={xgid}")
    assert data["position_id"] == RACE.position_id()
    assert data["dice"] == "52"


def test_the_address_round_trip_keeps_the_position_from_either_side(client: Client) -> None:
    first = page_data(client, f"id={RACE.position_id()}&side=dark&dice=all")
    assert first["side"] == "dark" and first["dice"] == "all"
    again = page_data(client, f"id={first['xgid']}&side=dark")
    assert again["position_id"] == first["position_id"]
    assert again["board"] == first["board"]
    # Seen from DARK's side the board is the same board as LIGHT sees it swapped.
    light = page_data(client, f"id={RACE.swapped().position_id()}")
    assert light["board"] == first["board"]


def test_a_malformed_id_is_refused_in_words_in_both_languages(client: Client) -> None:
    en = page_data(client, "id=not-an-id")
    assert "is neither a Position ID" in en["error"]
    assert en["position_id"] == START
    zh = page_data(client, "id=not-an-id", language="zh-hans")
    assert zh["error"] != en["error"]
    assert "not-an-id" in zh["error"] and zh["error"].endswith("。")


def test_sixteen_checkers_in_an_xgid_are_refused(client: Client) -> None:
    xgid = "XGID=-b----F-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"  # 6 on the 6-point
    response = post(client, "/analysis/position", {"id": xgid})
    assert response.status_code == 400
    assert response.json()["error"] == "too_many"
    assert "16" in response.json()["message"]


def test_both_sides_on_one_point_in_a_position_id_are_refused() -> None:
    me = [0] * 25
    opp = [0] * 25
    me[0], opp[23] = 2, 2  # the mover's 1-point is the opponent's 24-point
    pid = _encode_position_id(tuple(opp), tuple(me))
    client = Client()
    response = post(client, "/analysis/position", {"id": pid})
    assert response.status_code == 400
    assert response.json()["error"] == "both_sides"
    assert "point 1" in response.json()["message"]


def test_a_set_up_gives_pips_and_refuses_a_sixteenth_checker(client: Client) -> None:
    light = [0] * 25
    dark = [0] * 25
    light[5], dark[18] = 15, 15  # light on its 6-point, dark on display 19
    response = post(client, "/analysis/position", {"setup": {"light": light, "dark": dark}})
    assert response.status_code == 200
    facts = response.json()
    assert facts["pips"] == {"light": 90, "dark": 90}
    assert facts["checkers"] == {"light": 15, "dark": 15}
    light[7] = 1
    response = post(client, "/analysis/position", {"setup": {"light": light, "dark": dark}})
    assert response.status_code == 400
    assert response.json()["message"] == describe_error(BoardInputError("too_many", {"count": 16}))


def test_a_set_up_with_both_colours_on_a_point_is_refused_in_chinese(client: Client) -> None:
    light = [0] * 25
    dark = [0] * 25
    light[9], dark[9] = 1, 1
    response = post(
        client, "/analysis/position", {"setup": {"light": light, "dark": dark}}, "zh-hans"
    )
    assert response.status_code == 400
    with translation.override("zh-hans"):
        expected = describe_error(BoardInputError("both_sides", {"point": 10}))
    assert response.json()["message"] == expected
    assert "10" in expected and "：" in expected


def test_a_variation_steps_through_the_engine_and_says_why_a_step_is_refused(
    client: Client,
) -> None:
    body = {"id": START, "dice": "31", "steps": [[8, 5]]}
    half = post(client, "/analysis/step", body).json()
    assert half["complete"] is False and half["remaining"] == [1]
    assert {"from": 6, "to": 5} in half["allowed"]
    done = post(client, "/analysis/step", {**body, "steps": [[8, 5], [6, 5]]}).json()
    assert done["complete"] is True and done["notation"] == "8/5 6/5"
    after = Turn(Position.start(), Dice(3, 1)).step(8, 5).step(6, 5).play().result
    assert done["next_id"] == after.swapped().position_id()
    refused = post(client, "/analysis/step", {**body, "steps": [[8, 5], [24, 20]]}).json()
    assert refused["refusal"] and refused["steps"] == [{"from": 8, "to": 5, "hit": False}]


def test_dark_on_roll_moves_in_display_points(client: Client) -> None:
    # DARK's 8-point is display point 17: 17/20 and 19/20 make DARK's 5-point.
    body = {"id": START, "dice": "31", "side": "dark", "steps": [[17, 20], [19, 20]]}
    done = post(client, "/analysis/step", body).json()
    assert done["complete"] is True and done["notation"] == "8/5 6/5"
    assert done["board"]["points"][19] == -2


def test_the_analysis_runs_on_the_analysis_queue_and_ranks_the_plays(client: Client) -> None:
    assert queue_for(analyse_position) == "analysis"
    response = post(client, "/analysis/run", {"id": START, "dice": "31"})
    assert response.status_code == 200
    row = BoardAnalysis.objects.get(key=f"{START}:31:{analysis_board.ply_for(Dice(3, 1))}")
    analysis_board.run_board_analysis(row.pk)
    row.refresh_from_db()
    assert row.state == AnalysisState.DONE
    data = client.get(f"/analysis/run?id={START}&dice=31").json()
    plays = data["plays"]
    assert plays[0]["notation"] == "8/5 6/5"
    assert plays[0]["difference"] == 0
    assert [p["equity"] for p in plays] == sorted((p["equity"] for p in plays), reverse=True)
    assert all(p["reasons"] for p in plays)
    assert any("5" in r for r in plays[0]["reasons"])


def test_all_21_rolls_give_the_best_play_of_each_and_the_average(client: Client) -> None:
    position = RACE
    post(client, "/analysis/run", {"id": position.position_id(), "dice": "all"})
    row = BoardAnalysis.objects.get(dice="all")
    analysis_board.run_board_analysis(row.pk)
    data = client.get(f"/analysis/run?id={position.position_id()}&dice=all").json()
    assert len(data["rolls"]) == 21
    weights = sum(r["weight"] for r in data["rolls"])
    assert weights == 36
    average = sum(r["weight"] * r["equity"] for r in data["rolls"]) / 36
    assert data["average"] == pytest.approx(average, abs=1e-4)


def test_a_burst_of_new_analyses_from_one_visitor_is_limited(client: Client) -> None:
    codes = []
    rolls = ["11", "21", "22", "31", "32", "33", "41", "42", "43", "44"]
    for roll in rolls:
        codes.append(post(client, "/analysis/run", {"id": START, "dice": roll}).status_code)
    assert codes[: analysis_board.BURST_JOBS] == [200] * analysis_board.BURST_JOBS
    assert codes[analysis_board.BURST_JOBS :] == [429] * (len(rolls) - analysis_board.BURST_JOBS)
    again = post(client, "/analysis/run", {"id": START, "dice": "11"})
    assert again.status_code == 200  # asking for a job that exists costs nothing


def test_a_review_turn_opens_on_the_board_with_its_dice_and_mover(
    client_logged_in: Client, finished_game: Game, make_user: Callable[..., Any]
) -> None:
    for turn in finished_game.turns.order_by("number")[:2]:  # one of each side
        response = client_logged_in.get(f"/analysis/?game={finished_game.pk}&turn={turn.number}")
        assert response.status_code == 302
        before = Position.from_position_id(turn.position_before)
        mover = before if turn.side == "light" else before.swapped()
        query = parse_qs(urlparse(response["Location"]).query)
        assert query == {
            "id": [mover.position_id()],
            "side": [turn.side],
            "dice": [f"{turn.die1}{turn.die2}"],
        }
        data = page_data(client_logged_in, urlparse(response["Location"]).query)
        assert data["board"] == page_data(client_logged_in, f"id={turn.position_before}")["board"]
    other = Client()
    other.force_login(make_user("bob"))
    assert other.get(f"/analysis/?game={finished_game.pk}&turn=1").status_code == 404
    assert Client().get(f"/analysis/?game={finished_game.pk}&turn=1").status_code == 404
    missing = client_logged_in.get(f"/analysis/?game={finished_game.pk}&turn=999")
    assert "999" in missing.context["initial"]["error"]


def test_a_hint_opens_the_games_current_roll_on_the_board(
    client_logged_in: Client, user: Any
) -> None:
    game = services.start_game_from(user, "casual", Position.start(), dice=[3, 1])
    page = client_logged_in.get(f"/games/{game.pk}/")
    assert f'href="/analysis/?game={game.pk}"' in page.content.decode()
    response = client_logged_in.get(f"/analysis/?game={game.pk}")
    assert parse_qs(urlparse(response["Location"]).query) == {
        "id": [START],
        "side": ["light"],
        "dice": ["31"],
    }


# ---------------------------------------------------------------- the cube and the score

DOUBLE_PASS = "d1bABBi8eYQJQA"  # a money double and a pass, the side on roll's


def test_the_cube_and_the_score_round_trip_through_the_address_and_the_xgid(
    client: Client,
) -> None:
    from games.engine import Cube, Match, Side, Xgid

    query = f"id={START}&cube=2&owner=dark&match=7&score=3-5"
    data = page_data(client, query)
    assert data["error"] == ""
    assert data["setting"] == {
        "cube": 2,
        "owner": "dark",
        "match": 7,
        "score": "3-5",
        "crawford": False,
        "jacoby": False,
    }
    assert data["setting_words"] == "7-point match, light 3, dark 5; cube 2 owned by dark."
    xgid = Xgid.parse(data["xgid"])  # X is the side on roll, light here
    assert (xgid.cube, xgid.match) == (Cube(2, Side.DARK), Match(7, 3, 5))
    assert page_data(client, f"id={data['xgid']}")["setting"] == data["setting"]
    # Dark on roll: the XGID's X is dark, its owner and score turned round.
    dark = page_data(client, f"{query}&side=dark")
    xgid = Xgid.parse(dark["xgid"])
    assert (xgid.cube, xgid.match) == (Cube(2, Side.LIGHT), Match(7, 5, 3))
    again = page_data(client, f"id={dark['xgid']}&side=dark")
    assert (again["setting"], again["board"]) == (data["setting"], dark["board"])
    crawford = page_data(client, f"id={START}&match=5&score=4-2&crawford=1")["setting"]
    assert crawford["crawford"] is True and crawford["score"] == "4-2"
    assert page_data(client, f"id={START}&jacoby=1")["setting"]["jacoby"] is True


@pytest.mark.parametrize(
    ("query", "code", "words"),
    [
        ("cube=3", "bad_cube", "“3” is not a cube"),
        ("cube=2&owner=blue", "bad_owner", "owned by the light or the dark side"),
        ("owner=dark", "owned_one", "A cube on 1 is in the middle"),
        ("match=99", "bad_match", "“99” is not a match length"),
        ("match=7&score=three", "bad_score", "“three” is not a score"),
        ("match=7&score=7-2", "score_past", "7-2 is past the end"),
        ("match=7&score=3-2&crawford=1", "bad_crawford", "can be the Crawford game"),
        ("match=7&jacoby=1", "jacoby_match", "The Jacoby rule is for money games"),
        ("score=2-1", "money_score", "A money game has no score"),
    ],
)
def test_a_bad_cube_or_score_is_refused_in_words_and_the_board_stays(
    client: Client, query: str, code: str, words: str
) -> None:
    data = page_data(client, f"id={RACE.position_id()}&{query}")
    assert words in data["error"]
    assert data["position_id"] == START  # the board as it was: the starting one
    body = {"id": RACE.position_id(), **dict(p.split("=") for p in query.split("&"))}
    response = post(client, "/analysis/position", body)
    assert response.status_code == 400 and response.json()["error"] == code
    chinese = post(client, "/analysis/position", body, "zh-hans").json()["message"]
    assert chinese.endswith("。") and chinese != response.json()["message"]


def run_cube(client: Client, body: dict[str, Any]) -> dict[str, Any]:
    """Ask for the cube action (no dice), run the job as the worker does, read it."""
    assert post(client, "/analysis/run", body).status_code == 200
    row = BoardAnalysis.objects.get(dice="", position_id=body["id"], state="pending")
    analysis_board.run_board_analysis(row.pk)
    query = "&".join(f"{k}={v}" for k, v in body.items())
    return dict(client.get(f"/analysis/run?{query}", HTTP_ACCEPT_LANGUAGE="en").json())


def test_the_cube_action_is_the_cube_advice_at_this_cube_and_score(client: Client) -> None:
    from ai_worker.cube import CubeContext
    from ai_worker.cube_advice import DOUBLE, advise
    from games.engine import Cube, Match, Side
    from learning.review.game import review_ply

    position = Position.from_position_id(DOUBLE_PASS)
    money = run_cube(client, {"id": DOUBLE_PASS, "jacoby": "1"})
    expected = advise(position, CubeContext(Cube(), Match(jacoby=True), Side.LIGHT), DOUBLE, 1)
    assert money["state"] == "done" and money["ply"] == review_ply()
    cube = money["cube"]
    assert (cube["action"], cube["best"], cube["answer"]) == ("Double, pass", "double", "pass")
    assert cube["double"]["title"] == "The right cube action: Double, pass."
    assert cube["take"]["title"] == "The right cube action: Pass."
    assert cube["equities"]["double_pass"] == expected.to_json()["equities"]["double_pass"] == 1
    e = cube["equities"]
    assert any(f"{e['no_double']:+.3f}" in line for line in cube["double"]["lines"])
    # At 3-5 in a 7-point match the same board is worth other equities.
    match = run_cube(client, {"id": DOUBLE_PASS, "match": "7", "score": "3-5"})
    context = CubeContext(Cube(), Match(7, 3, 5), Side.LIGHT)
    at_score = advise(position, context, DOUBLE, review_ply()).to_json()
    assert match["cube"]["equities"] == at_score["equities"] != e
    assert BoardAnalysis.objects.filter(dice="").count() == 2  # one job per cube and score


def test_no_double_where_the_rules_forbid_it_says_why(client: Client) -> None:
    owned = run_cube(client, {"id": DOUBLE_PASS, "cube": "2", "owner": "dark"})
    assert owned["cube"] == {
        "refusal": "not_your_cube",
        "message": "The other side owns the cube: only it may double now.",
    }
    crawford = run_cube(client, {"id": DOUBLE_PASS, "match": "5", "score": "2-4", "crawford": "1"})
    assert crawford["cube"]["message"] == "No doubling in the Crawford game."


def test_a_review_turn_of_a_cube_game_opens_with_its_cube_and_score(
    client_logged_in: Client, user: Any
) -> None:
    from tests.learning.conftest import cube_game_reviewed

    game = cube_game_reviewed(user)
    # Before turn 2 LIGHT doubled and DARK took; before turn 3 DARK redoubled, LIGHT took.
    expected = {1: ("1", None), 2: ("2", "dark"), 3: ("4", "light")}
    for number, (value, owner) in expected.items():
        response = client_logged_in.get(f"/analysis/?game={game.pk}&turn={number}")
        query = parse_qs(urlparse(response["Location"]).query)
        assert query.get("cube", ["1"]) == [value]
        assert query.get("owner", [None]) == [owner]
        assert query["jacoby"] == ["1"]
        data = page_data(client_logged_in, urlparse(response["Location"]).query)
        assert data["setting"]["cube"] == int(value) and data["setting"]["jacoby"] is True


def test_a_hint_on_a_double_opens_the_doublers_board_and_the_cube_action_there(
    client_logged_in: Client, user: Any
) -> None:
    from games import services
    from games.engine import Side
    from games.models import GameKind, Status

    # The computer (dark) doubles from DOUBLE_PASS; the person is to answer.
    light_view = Position.from_position_id(DOUBLE_PASS).swapped()
    game = services.start_game_from(user, "casual", light_view, Side.DARK, kind=GameKind.MONEY)
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game.refresh_from_db()
    assert (game.status, game.cube_offered) == (Status.DOUBLED, "dark")
    response = client_logged_in.get(f"/analysis/?game={game.pk}")
    query = parse_qs(urlparse(response["Location"]).query)
    assert query == {"id": [DOUBLE_PASS], "side": ["dark"], "jacoby": ["1"]}
    body = {k: v[0] for k, v in query.items()}
    cube = run_cube(client_logged_in, body)["cube"]
    assert cube["answer"] == "pass" and cube["take"]["title"] == "The right cube action: Pass."
