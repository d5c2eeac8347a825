"""Answering a puzzle through the real URL: the first answer counts and
rates both sides once; anything else gets words and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from learning.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.learning.fixtures_puzzles import checker_puzzle, cube_puzzle, only

pytestmark = pytest.mark.django_db


def zh(message: str) -> str:
    """The site's words in its default language."""
    with translation.override("zh-hans"):
        return translation.gettext(message)


def post(client: Client, puzzle: Puzzle, body: Any) -> Any:
    raw = body if isinstance(body, str) else json.dumps(body)
    return client.post(
        reverse("puzzles:answer", args=[puzzle.pk]), raw, content_type="application/json"
    )


def best_steps(puzzle: Puzzle) -> list[list[int]]:
    """The steps of the best play, from its notation (no hits, no bar here)."""
    steps = []
    for part in puzzle.ranking[0][0].split():
        src, dst = part.split("/")
        steps.append([int(src), int(dst)])
    return steps


def wrong_steps(puzzle: Puzzle) -> list[list[int]]:
    worst = puzzle.ranking[-1][0]
    return [[int(s.split("/")[0]), int(s.split("/")[1])] for s in worst.split()]


@pytest.fixture
def puzzle() -> Puzzle:
    only()
    return checker_puzzle()


def counts(user: Any, puzzle: Puzzle) -> tuple[Any, ...]:
    rating = PuzzleRating.objects.filter(user=user).values_list("rating", "attempts").first()
    row = Puzzle.objects.get(pk=puzzle.pk)
    return rating, row.rating, row.attempts, PuzzleAttempt.objects.count()


def test_the_first_right_answer_raises_the_rating_and_lowers_the_puzzles(
    guest_client: Client, guest: Any, puzzle: Puzzle
) -> None:
    response = post(guest_client, puzzle, {"steps": best_steps(puzzle)})

    assert response.status_code == 200
    data = response.json()
    assert data["solved"] is True
    assert data["diff"] > 0
    assert data["rating_after"] > data["rating_before"] == 1500
    assert Puzzle.objects.get(pk=puzzle.pk).rating < 1500.0
    assert data["best_play"]["notation"] == puzzle.ranking[0][0]
    assert data["best_play"]["reasons"]
    assert "±" in data["rollout"]
    assert PuzzleAttempt.objects.get(user=guest).solved is True


def test_a_wrong_answer_lowers_the_rating_and_says_what_the_best_play_does(
    guest_client: Client, puzzle: Puzzle
) -> None:
    data = post(guest_client, puzzle, {"steps": wrong_steps(puzzle)}).json()

    assert data["solved"] is False
    assert data["diff"] < 0
    assert data["lost"] > 0
    assert data["your_play"]["reasons"]  # what the best play does that this one does not


def test_a_second_answer_is_refused_in_words_and_changes_nothing(
    guest_client: Client, guest: Any, puzzle: Puzzle
) -> None:
    post(guest_client, puzzle, {"steps": wrong_steps(puzzle)})
    before = counts(guest, puzzle)

    again = post(guest_client, puzzle, {"steps": best_steps(puzzle)})

    assert again.status_code == 409
    assert again.json()["error"] == "answered"
    assert again.json()["message"] == zh(
        "You have answered this puzzle already: only your first answer counts."
    )
    assert counts(guest, puzzle) == before


def test_a_replayed_request_counts_once(guest_client: Client, guest: Any, puzzle: Puzzle) -> None:
    body = {"steps": best_steps(puzzle)}
    first = post(guest_client, puzzle, body)
    before = counts(guest, puzzle)

    replay = post(guest_client, puzzle, body)

    assert first.status_code == 200
    assert replay.status_code == 409
    assert counts(guest, puzzle) == before


def test_another_persons_own_game_puzzle_is_theirs_only(
    client: Client, make_user: Any, puzzle: Puzzle
) -> None:
    owner, other = make_user("owner"), make_user("other")
    theirs = checker_puzzle(owner=owner, key="own:1")
    client.force_login(other, backend="django.contrib.auth.backends.ModelBackend")

    response = post(client, theirs, {"steps": best_steps(theirs)})

    assert response.status_code == 403
    assert response.json()["error"] == "not_yours"
    assert "别人" in response.json()["message"]
    assert not PuzzleAttempt.objects.exists()
    assert not PuzzleRating.objects.filter(user=other).exists()
    page = client.get(reverse("puzzles:puzzle", args=[theirs.pk]))
    assert page.status_code == 404


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "malformed"),
        ({"steps": "8/5 6/5"}, "malformed"),
        ({"steps": [[8, 5]]}, "incomplete"),
        ({"steps": [[8, 2], [6, 5]]}, "illegal"),
        ({"steps": [["8", "5"], [6, 5]]}, "malformed"),
        ({"action": "double"}, "malformed"),
        ({"steps": [[8, 5]] * 9}, "malformed"),
    ],
)
def test_a_malformed_play_gets_words_and_changes_nothing(
    guest_client: Client, guest: Any, puzzle: Puzzle, body: Any, code: str
) -> None:
    response = post(guest_client, puzzle, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert response.json()["message"]
    assert counts(guest, puzzle) == (None, 1500.0, 0, 0)


def test_training_a_theme_that_hints_moves_the_rating_a_fifth_as_much(
    client: Client, make_user: Any, puzzle: Puzzle
) -> None:
    second = checker_puzzle(key="test:second")
    diffs = []
    for name, target, theme in (("mix", puzzle, ""), ("slotter", second, "slot")):
        client.force_login(make_user(name), backend="django.contrib.auth.backends.ModelBackend")
        data = post(client, target, {"steps": best_steps(target), "theme": theme}).json()
        diffs.append(data["rating_after"] - data["rating_before"])

    assert diffs[0] > 0
    assert diffs[1] == pytest.approx(0.2 * diffs[0], abs=1.0)


def test_a_cube_puzzle_takes_one_of_its_two_actions(guest_client: Client) -> None:
    only()
    puzzle = cube_puzzle("double")

    wrong_kind = post(guest_client, puzzle, {"action": "take"})
    right = post(guest_client, puzzle, {"action": puzzle.answers[0]})

    assert wrong_kind.status_code == 400
    assert right.status_code == 200
    assert right.json()["solved"] is True
    assert right.json()["best_action"]


def test_a_guest_keeps_the_rating_on_sign_up(client: Client, puzzle: Puzzle) -> None:
    client.get(reverse("puzzles:next"))  # the page makes the guest account
    post(client, puzzle, {"steps": best_steps(puzzle)})
    rating = PuzzleRating.objects.get()

    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "bella",
            "email": "b@example.com",
            "password1": "Shuang-lu-2026!",
            "password2": "Shuang-lu-2026!",
        },
    )

    assert response.status_code == 302
    kept = PuzzleRating.objects.get()
    assert (kept.pk, kept.rating, kept.user.username, kept.user.is_guest) == (
        rating.pk,
        rating.rating,
        "bella",
        False,
    )
