"""The unit a verdict's figures are in (issue 44's judgement unit): the
bank's checker puzzles were ranked without the cube, a cube puzzle is
judged at its cube and score (EMG at a match score, per unit of the cube in
a money game), a person's own puzzle in the unit its game was reviewed in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import Match
from learning.puzzles.attempts import CUBE_ACTIONS
from learning.puzzles.models import Puzzle, PuzzleAttempt
from tests.learning.fixtures_puzzles import checker_puzzle, cube_puzzle, only

pytestmark = pytest.mark.django_db


def zh(message: str) -> str:
    with translation.override("zh-hans"):
        return translation.gettext(message)


def post(client: Client, puzzle: Puzzle, body: Any) -> Any:
    url = reverse("puzzles:answer", args=[puzzle.pk])
    return client.post(url, json.dumps(body), content_type="application/json")


def wrong_action(puzzle: Puzzle) -> str:
    return next(a for a in CUBE_ACTIONS[puzzle.question] if a not in puzzle.answers)


@pytest.mark.parametrize(
    ("match", "unit"),
    [
        (Match(7, 4, 4), "EMG at this score"),
        (Match(jacoby=True), "equity with the cube, per unit of its value"),
    ],
)
def test_a_wrong_cube_answer_says_its_loss_in_the_unit_of_its_cube_and_score(
    guest_client: Client, match: Match, unit: str
) -> None:
    only()
    puzzle = cube_puzzle("double", match=match)
    values, best = puzzle.ranking["values"], puzzle.ranking["best"]
    wrong = wrong_action(puzzle)

    data = post(guest_client, puzzle, {"action": wrong}).json()

    assert data["solved"] is False
    assert data["lost"] == pytest.approx(values[best] - values[wrong], abs=1e-3)
    assert data["lost"] > 0
    assert data["unit"] == zh(unit)
    assert data["unit"] != zh("cubeless equity")
    assert PuzzleAttempt.objects.get().lost == pytest.approx(data["lost"], abs=1e-3)


def test_a_match_cube_puzzles_rollout_is_in_emg(guest_client: Client) -> None:
    only()
    puzzle = cube_puzzle("double", match=Match(7, 4, 4))

    data = post(guest_client, puzzle, {"action": puzzle.answers[0]}).json()

    assert data["solved"] is True
    assert "EMG" in data["rollout"]
    assert data["unit"] == zh("EMG at this score")


def test_a_bank_checker_puzzle_is_counted_cubeless(guest_client: Client) -> None:
    only()
    puzzle = checker_puzzle()
    worst = puzzle.ranking[-1][0]
    steps = [[int(s.split("/")[0]), int(s.split("/")[1])] for s in worst.split()]

    data = post(guest_client, puzzle, {"steps": steps}).json()

    assert data["lost"] > 0
    assert data["unit"] == zh("cubeless equity")
