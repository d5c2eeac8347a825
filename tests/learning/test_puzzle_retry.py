"""再试一次 through the real URLs: a reviewed game's biggest errors again, one
by one; a play within 0.01 of the best is right; what is still wrong joins
practice's one queue; another person's game and bad input change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.engine import Dice, Position, parse_play
from games.models import Game, GameKind
from learning.models import PracticeItem, RetryAnswer, TurnAnalysis
from learning.puzzles import retry
from learning.puzzles.models import Puzzle
from learning.puzzles.rules import RETRY_MIN, RETRY_MOST
from learning.puzzles.verdicts import puzzle_unit
from learning.review import game as review
from tests.learning.conftest import RACE, one_ply, play_out, worst
from tests.learning.fixtures_puzzles import checker_puzzle

pytestmark = pytest.mark.django_db


def zh(message: str) -> str:
    with translation.override("zh-hans"):
        return translation.gettext(message)


@pytest.fixture
def game(user: Any) -> Game:
    played = play_out(user, RACE, seed=3, light_choice=worst)
    review.run_analysis(played.pk, rank=one_ply)
    return played


def steps_of(row: TurnAnalysis, notation: str) -> list[list[int]]:
    turn = row.turn
    position = Position.from_position_id(turn.position_before)
    play = parse_play(position, Dice(turn.die1, turn.die2), notation)
    return [[s.src, s.dst] for s in play.steps]


def answer(client: Client, game: Game, row: TurnAnalysis, steps: Any) -> Any:
    url = reverse("puzzles:retry_answer", args=[game.pk, row.pk])
    return client.post(url, json.dumps({"steps": steps}), content_type="application/json")


def test_the_review_offers_the_biggest_errors_at_most_five_over_the_line(
    client_logged_in: Client, game: Game
) -> None:
    rows = retry.errors(game)
    losses = sorted(
        (r.equity_lost for r in TurnAnalysis.objects.filter(analysis__game=game, side="light")),
        reverse=True,
    )

    assert 1 <= len(rows) <= RETRY_MOST
    assert all(r.equity_lost > RETRY_MIN for r in rows)
    assert sorted((r.equity_lost for r in rows), reverse=True) == losses[: len(rows)]
    html = client_logged_in.get(reverse("learning:review", args=[game.pk])).content.decode()
    assert reverse("puzzles:retry", args=[game.pk]) in html


def test_the_best_play_is_right_and_the_answer_is_shown(
    client_logged_in: Client, game: Game
) -> None:
    row = retry.errors(game)[0]
    best = row.report["alternatives"][0]["notation"]

    data = answer(client_logged_in, game, row, steps_of(row, best)).json()

    assert data["solved"] is True
    assert data["best_play"]["notation"] == best


def test_a_play_still_wrong_goes_to_practice_back_tomorrow(
    client_logged_in: Client, user: Any, game: Game
) -> None:
    row = retry.errors(game)[0]
    PracticeItem.objects.filter(turn=row).delete()
    made = row.report["played_candidate"]["notation"]  # the error again

    data = answer(client_logged_in, game, row, steps_of(row, made)).json()

    assert data["solved"] is False
    assert data["best_play"]["reasons"]
    item = PracticeItem.objects.get(turn=row)
    assert item.owner == user
    assert item.due > timezone.now()
    assert (item.answers, item.right) == (1, 0)


def test_another_persons_game_and_bad_steps_change_nothing(
    client: Client, make_user: Any, game: Game
) -> None:
    row = retry.errors(game)[0]
    client.force_login(make_user("other"), backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse("puzzles:retry", args=[game.pk])).status_code == 404
    assert answer(client, game, row, [[8, 5]]).status_code == 404

    client.force_login(game.owner, backend="django.contrib.auth.backends.ModelBackend")
    before = PracticeItem.objects.count()
    bad = answer(client, game, row, "24/18")
    assert bad.status_code == 400
    assert bad.json()["message"]
    assert PracticeItem.objects.count() == before


def test_a_second_try_or_a_replayed_request_is_refused_and_practice_counts_once(
    client_logged_in: Client, user: Any, game: Game
) -> None:
    row = retry.errors(game)[0]
    made = row.report["played_candidate"]["notation"]  # the error again
    first = answer(client_logged_in, game, row, steps_of(row, made))
    item = PracticeItem.objects.get(turn=row)
    before = (item.answers, item.right, item.streak, item.due)

    replay = answer(client_logged_in, game, row, steps_of(row, made))
    best = answer(
        client_logged_in, game, row, steps_of(row, row.report["alternatives"][0]["notation"])
    )

    assert first.status_code == 200
    assert (replay.status_code, best.status_code) == (409, 409)
    assert replay.json()["error"] == "answered"
    assert replay.json()["message"] == zh(
        "You have tried this error again already: only your first try goes to your practice."
    )
    item.refresh_from_db()
    assert (item.answers, item.right, item.streak, item.due) == before
    assert RetryAnswer.objects.get(turn=row).solved is False
    page = client_logged_in.get(reverse("puzzles:retry", args=[game.pk]))
    assert page.context["answered"] == {"solved": False, "answer": made}


def test_the_figures_are_in_the_unit_the_game_was_reviewed_in(
    client_logged_in: Client, user: Any, game: Game
) -> None:
    row = retry.errors(game)[0]
    made = row.report["played_candidate"]["notation"]
    single = answer(client_logged_in, game, row, steps_of(row, made)).json()
    RetryAnswer.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(kind=GameKind.MONEY)  # as if played with the cube
    money = answer(client_logged_in, game, row, steps_of(row, made)).json()
    own = checker_puzzle(owner=user, key="own:test")
    Puzzle.objects.filter(pk=own.pk).update(source=f"game:{game.pk}")

    assert single["unit"] == zh("cubeless equity")
    assert money["unit"] == zh("equity with the cube, per unit of its value")
    assert zh("cubeless equity") not in money["rollout"]
    assert puzzle_unit(Puzzle.objects.get(pk=own.pk)) == "money"


@pytest.mark.slow
def test_a_persons_reviewed_errors_become_puzzles_of_their_own_only(
    client_logged_in: Client, user: Any, make_user: Any, game: Game
) -> None:
    from learning.puzzles import personal
    from learning.puzzles.models import Puzzle
    from learning.puzzles.picking import open_puzzles

    made = personal.make_own(game.pk)

    own = Puzzle.objects.filter(owner=user)
    assert made == own.count() >= 1
    for puzzle in own:
        assert puzzle.rollout["trials"] >= 18
        assert puzzle.status in ("confirmed", "close")
        assert set(puzzle.answers) <= {r[1] for r in puzzle.ranking}
    assert personal.make_own(game.pk) == 0  # made once
    stranger = make_user("stranger")
    assert not open_puzzles(stranger).filter(owner=user).exists()
    shown = client_logged_in.get(reverse("puzzles:puzzle", args=[own[0].pk]))
    assert shown.status_code == 200
