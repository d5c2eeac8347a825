"""精确分析 on the analysis board: a cubeful rollout of the cube action, or a
cubeless one of a roll's shown plays (and a review's play made), queued at
study priority, its progress kept while it runs, its figures with their
standard errors; refused in words while one runs or once the day's are used."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import translation

from ai_worker.analysis import review_ply
from ai_worker.dispatch import queue_for
from ai_worker.grading import classify
from ai_worker.rank_cache import SHOWN
from ai_worker.ranking import default_rank
from games.engine import Dice, Position, Xgid, legal_plays
from learning.models import AnalysisState, BoardAnalysis
from learning.study import board as analysis_board
from learning.study.queue import ROLLOUT_PLY
from learning.tasks import rollout_position

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

# Issue 31's redouble (a money game, the cube on 2 owned by the side on roll).
REDOUBLE = Xgid.parse("XGID=-ba--BCBBA--bAb--bccC--A--:1:1:1:00:0:0:0:0:10")
BODY = {"id": REDOUBLE.position.position_id(), "cube": "2", "owner": "light", "rollout": "1"}
OTHER = {**BODY, "owner": "dark"}  # the same board, the cube on the other side


def post(client: Client, body: dict[str, Any], language: str = "en") -> Any:
    return client.post(
        "/analysis/run",
        json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def poll(client: Client, body: dict[str, Any], language: str = "en") -> dict[str, Any]:
    query = "&".join(f"{k}={v}" for k, v in body.items())
    answer = client.get(f"/analysis/run?{query}", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    return dict(answer.json())


def test_a_rollout_is_queued_at_study_priority_and_shows_its_figures_with_errors(
    client: Client,
) -> None:
    assert queue_for(rollout_position) == "analysis"
    assert post(client, BODY).status_code == 200
    row = BoardAnalysis.objects.get(position_id=BODY["id"], ply=ROLLOUT_PLY)
    waiting = poll(client, BODY)
    assert waiting["state"] == AnalysisState.PENDING and waiting["progress"] is None
    analysis_board.run_board_analysis(row.pk)
    assert analysis_board.rollout_progress(row.pk) == {"done": 72, "total": 72}
    cube = poll(client, BODY)["cube"]
    rollout = cube["rollout"]
    assert rollout["trials"] == 72
    assert 0 < rollout["no_double_se"] < 0.1 and 0 < rollout["double_take_se"] < 0.1
    assert rollout["note"].startswith("Rollout: 72 games played out from here with the cube")
    assert cube["labels"] == ["No redouble", "Redouble, take", "Redouble, pass"]
    e = cube["equities"]
    assert e["double_pass"] == 1.0 and e["no_double"] != e["double_take"]
    # The N-ply analysis is a job of its own, untouched.
    assert not BoardAnalysis.objects.exclude(ply=ROLLOUT_PLY).exists()
    with translation.override("zh-hans"):
        chinese = poll(client, BODY, "zh-hans")["cube"]
    assert chinese["rollout"]["note"].startswith("精确分析：从这个局面带倍数骰模拟了 72 局")
    assert chinese["labels"][0] == "不再加倍"


def test_a_second_rollout_while_one_runs_is_refused_in_words(client: Client) -> None:
    assert post(client, BODY).status_code == 200
    refused = post(client, OTHER)
    assert refused.status_code == 429 and refused.json()["error"] == "rollout_refused"
    assert refused.json()["message"] == (
        "A rollout of yours is still running; ask for this one once it is done."
    )
    chinese = post(client, OTHER, "zh-hans").json()["message"]
    assert chinese == "你的一次精确分析还在进行，等它完成后再请求这一次。"
    assert BoardAnalysis.objects.filter(ply=ROLLOUT_PLY).count() == 1
    # Asking again for the one already running is no new job: it is answered.
    again = post(client, BODY)
    assert again.status_code == 200 and again.json()["state"] == AnalysisState.PENDING


@override_settings(
    STUDY_BUDGETS={
        "imports_user": 100,
        "imports_address": 200,
        "board_visitor": 8,
        "board_address": 16,
        "rollouts_day": 1,
    }
)
def test_once_the_days_rollouts_are_used_another_is_refused_in_words(client: Client) -> None:
    assert post(client, BODY).status_code == 200
    BoardAnalysis.objects.filter(ply=ROLLOUT_PLY).update(state=AnalysisState.DONE)
    refused = post(client, OTHER)
    assert refused.status_code == 429
    assert refused.json()["message"] == (
        "You have used your 1 rollout for the day; the N-ply analysis stays available."
    )
    chinese = post(client, OTHER, "zh-hans").json()["message"]
    assert chinese == "你今天的 1 次精确分析已经用完；N 步深度的分析仍可使用。"


# Issue 31's checker decision: 4-2, played 22/18 7/5 (the mover's numbering).
CHECKER = Position.from_position_id("fwEAAB3rAgk4AA")
ROLL = Dice(4, 2)
PLAYS = {"id": CHECKER.position_id(), "dice": "42", "rollout": "1"}


@pytest.mark.slow
def test_a_checker_rollout_ranks_the_shown_plays_by_the_rollout_with_their_errors(
    client: Client,
) -> None:
    assert post(client, PLAYS).status_code == 200
    row = BoardAnalysis.objects.get(position_id=CHECKER.position_id(), ply=ROLLOUT_PLY)
    assert poll(client, PLAYS)["state"] == AnalysisState.PENDING
    analysis_board.run_board_analysis(row.pk)
    progress = analysis_board.rollout_progress(row.pk)
    # bgsage rolls out at least the five shown plays, 72 trials each.
    assert progress is not None and progress["done"] == progress["total"] >= 5 * 72
    answer = poll(client, PLAYS)
    plays = answer["plays"]
    assert len(plays) == SHOWN
    assert all(0 < p["se"] < 0.1 for p in plays)
    equities = [p["equity"] for p in plays]
    assert equities == sorted(equities, reverse=True)
    assert [p["difference"] for p in plays] == [round(e - equities[0], 4) for e in equities]
    # The rolled-out plays are the N-ply ranking's shown ones, valued anew.
    shown = default_rank(CHECKER, ROLL, review_ply(), shown=analysis_board.TOP_PLAYS)[:SHOWN]
    assert {p["notation"] for p in plays} == {r.play.notation() for r in shown}
    assert {p["equity"] for p in plays} != {round(r.equity, 4) for r in shown}
    rollout = answer["rollout"]
    assert rollout["played"] is None and rollout["trials"] == 72
    assert rollout["note"].startswith("Rollout: each of these 5 plays played out 72 times")
    with translation.override("zh-hans"):
        chinese = poll(client, PLAYS, "zh-hans")["rollout"]["note"]
    assert chinese.startswith("精确分析：这 5 种走法各模拟了 72 局")


@pytest.mark.slow
def test_a_review_rollout_judges_the_play_made_by_the_rollout(client: Client) -> None:
    played = next(p for p in legal_plays(CHECKER, ROLL) if p.notation() == "22/18 7/5")
    body = {**PLAYS, "played": played.result.position_id()}
    assert post(client, body).status_code == 200
    row = BoardAnalysis.objects.get(key__endswith=played.result.position_id())
    analysis_board.run_board_analysis(row.pk)
    answer = poll(client, body)
    plays, judged = answer["plays"], answer["rollout"]["played"]
    mine = plays[judged["rank"]]
    assert mine["notation"] == "22/18 7/5" and 0 < mine["se"] < 0.1
    lost = max(0.0, plays[0]["equity"] - mine["equity"])
    assert judged["equity_lost"] == round(lost, 4)
    assert judged["error"] == classify(lost).value
    # A play made that is no play of the roll is refused in words.
    bad = post(client, {**PLAYS, "played": CHECKER.position_id()})
    assert bad.status_code == 400
    assert bad.json()["message"] == "That play is not one of the plays of this roll."


@pytest.mark.slow
def test_a_play_made_that_the_rollout_finds_an_error_has_its_reasons_weighed(
    client: Client,
) -> None:
    # From bench/checker_rollout.py: the review calls bar/23 13/10 bad, the
    # rollout doubtful (a loss of 0.057), an error either way.
    position, roll = Position.from_position_id("4HPwARHgOfgAUg"), Dice(3, 2)
    played = next(p for p in legal_plays(position, roll) if p.notation() == "bar/23 13/10")
    body = {"id": position.position_id(), "dice": "32", "rollout": "1"}
    body["played"] = played.result.position_id()
    assert post(client, body).status_code == 200
    row = BoardAnalysis.objects.get(ply=ROLLOUT_PLY)
    analysis_board.run_board_analysis(row.pk)
    judged = poll(client, body)["rollout"]["played"]
    assert judged["error"] == classify(judged["equity_lost"]).value != "none"
    stored = BoardAnalysis.objects.get(pk=row.pk).result["plays"]
    # Its comparisons lead with the difference that carries most of the gap,
    # each with its share, as the review orders a played error's; the other
    # plays' comparisons are the teacher's order, without shares.
    mine = stored[judged["rank"]]["versus"]
    found = [r["params"]["share"] for r in mine]
    assert mine and found == sorted(found, reverse=True)
    others = [p for i, p in enumerate(stored) if i != judged["rank"]]
    assert not any("share" in r["params"] for p in others for r in p["versus"])
