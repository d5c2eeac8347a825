"""Progress on the history page: the graph's numbers against the reviews they
come from (real games, reviewed by the real analysis at 1-ply)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.engine import Position
from games.models import Game
from learning.models import CubeAnalysis, GameAnalysis, TurnAnalysis
from learning.review import game as review
from learning.review.phases import phase_of
from learning.study import progress
from tests.learning.conftest import RACE, cube_game_reviewed, one_ply, play_out, worst

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(user: Any) -> list[Game]:
    """Three reviewed games: two where the person errs, one played well."""
    games = [
        play_out(user, RACE, seed=3, light_choice=worst),
        play_out(user, RACE, seed=5, tier="expert"),
        play_out(user, RACE, seed=7, light_choice=worst),
    ]
    for game in games:
        review.run_analysis(game.pk, rank=one_ply)
    return games


def counted(turn: TurnAnalysis) -> bool:
    """PR's rule, counted here from the stored turn: not forced (GNU Backgammon's count)."""
    return not turn.forced


def dots(html: str) -> list[dict[str, str]]:
    """Each dot's data-* attributes and its ``cy``."""
    found = re.findall(r'<circle class="pg-dot pg-tier-\w+"[^>]*>', html)
    return [
        {
            **dict(re.findall(r'data-(\w+)="([^"]*)"', tag)),
            "cy": re.findall(r' cy="([^"]+)"', tag)[0],
        }
        for tag in found
    ]


@pytest.mark.slow
def test_each_dot_is_a_reviewed_games_pr_with_its_moving_average(
    client_logged_in: Client, three_games: list[Game]
) -> None:
    html = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = dots(html)
    assert [int(d["game"]) for d in shown] == [g.pk for g in three_games]
    # Each PR from the review's rows: the person's counted turns, 500 × mean equity lost.
    rates = []
    for game in three_games:
        turns = TurnAnalysis.objects.filter(analysis__game=game, side="light")
        lost = [t.equity_lost for t in turns if counted(t)]
        rates.append(500 * sum(lost) / len(lost))
    assert [float(d["rate"]) for d in shown] == pytest.approx(rates, abs=0.051)
    assert rates == pytest.approx(
        [GameAnalysis.objects.get(game=g).summary["light"]["pr"]["overall"] for g in three_games],
        abs=0.005,
    )
    assert set(re.findall(r'class="pg-dot pg-tier-(\w+)"', html)) == {
        "casual",
        "expert",
    }
    # Drawn where the scale puts them: higher on the page for a higher rate.
    heights = [float(d["cy"]) for d in dots(html)]
    assert sorted(range(3), key=lambda i: heights[i]) == sorted(range(3), key=lambda i: -rates[i])
    stored = [float(d["rate"]) for d in shown]
    averages = [sum(stored[: i + 1]) / (i + 1) for i in range(3)]
    assert [float(d["average"]) for d in shown] == pytest.approx(averages, abs=0.051)
    assert rates[0] > rates[1] < rates[2]  # the well-played game is lower


@pytest.mark.slow
def test_the_luck_bars_are_the_reviews_luck(
    client_logged_in: Client, three_games: list[Game]
) -> None:
    html = client_logged_in.get("/learn/history/").content.decode()
    bars = re.findall(r'data-game="(\d+)" data-luck="([^"]+)"', html)
    expected = [
        (str(g.pk), str(round(GameAnalysis.objects.get(game=g).summary["light"]["luck"], 3)))
        for g in three_games
    ]
    assert bars == expected


@pytest.mark.slow
def test_the_rating_bands_are_drawn_and_the_tier_filter_narrows_the_graph(
    client_logged_in: Client, three_games: list[Game]
) -> None:
    html = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    bands = re.findall(r'class="pg-band-g" data-rate="([^"]+)"', html)
    assert "2.5" in bands and "30.0" in bands  # XG's PR bands
    assert "World champion" in html
    expert = client_logged_in.get("/learn/history/?tier=expert").content.decode()
    assert [int(d["game"]) for d in dots(expert)] == [three_games[1].pk]


@pytest.mark.slow
def test_the_totals_by_phase_add_up_the_persons_turns_and_say_where_most_goes(
    client_logged_in: Client, three_games: list[Game]
) -> None:
    lost: dict[str, float] = {}
    for t in TurnAnalysis.objects.filter(
        analysis__game__in=three_games, side="light", forced=False
    ).select_related("turn"):
        if not counted(t):
            continue
        phase = phase_of(Position.from_position_id(t.turn.position_before), t.turn.number)
        lost[phase] = lost.get(phase, 0.0) + t.equity_lost
    rows = progress.reviewed(Game.objects.filter(pk__in=[g.pk for g in three_games]))
    totals = progress.phase_totals(rows)
    assert {r["phase"]: r["lost"] for r in totals["table"] if r["decisions"]} == {
        p: round(v, 3) for p, v in lost.items()
    }
    worst_phase = max(lost, key=lambda p: lost[p])
    share = round(100 * lost[worst_phase] / sum(lost.values()))
    with translation.override("zh-hans"):
        words = str(progress.WHERE_LOST[worst_phase]) % {"share": share}
    html = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert words in html.content.decode() and words.endswith("。")


def test_with_the_cube_a_dot_counts_checker_and_cube_decisions_and_the_cube_is_a_phase(
    client_logged_in: Client, user: Any
) -> None:
    game = cube_game_reviewed(user)
    turns = TurnAnalysis.objects.filter(analysis__game=game, side="light")
    plays = [t for t in turns if counted(t)]
    cubes = list(CubeAnalysis.objects.filter(analysis__game=game, side="light", trivial=False))
    assert len(cubes) == 2 and all(c.equity_lost > 0.1 for c in cubes)  # both wrong
    checker = sum(t.equity_lost for t in plays) / len(plays)
    cube_lost = sum(c.equity_lost for c in cubes)
    overall = (sum(t.equity_lost for t in plays) + cube_lost) / (len(plays) + len(cubes))
    assert round(500 * overall, 1) != round(500 * checker, 1)
    html = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    [dot] = dots(html)
    assert int(dot["game"]) == game.pk
    assert float(dot["rate"]) == pytest.approx(500 * overall, abs=0.051)
    assert "checker plays and cube decisions together" in html
    totals = progress.phase_totals(progress.reviewed(Game.objects.filter(pk=game.pk)))
    cube_row = next(r for r in totals["table"] if r["phase"] == "cube")
    assert (cube_row["decisions"], cube_row["lost"]) == (2, round(cube_lost, 3))
    assert totals["worst"] == "cube"  # 0.26 and more each: more than the three plays
    share = round(100 * cube_lost / (cube_lost + sum(t.equity_lost for t in plays)))
    assert f"Most of your equity goes in your cube decisions: {share}% of all" in html
    chinese = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "倍数骰决策" in chinese.content.decode()


@pytest.mark.slow
def test_without_the_cube_there_is_no_cube_phase(
    client_logged_in: Client, three_games: list[Game]
) -> None:
    rows = progress.reviewed(Game.objects.filter(pk__in=[g.pk for g in three_games]))
    assert [r["phase"] for r in progress.phase_totals(rows)["table"]] == [
        "opening",
        "middle",
        "race",
        "bearoff",
    ]


def test_a_person_without_reviews_sees_a_note_instead(client_logged_in: Client) -> None:
    html = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="progress-none"' in html and "pg-dot" not in html
