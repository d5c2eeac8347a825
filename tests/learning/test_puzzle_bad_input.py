"""Bad answers to a puzzle get words and change nothing (issue 47): a
puzzle that is not there or not in the bank, no account, a body too big,
a play for a cube question; and the same answer sent twice at once (the
second request arriving while the first is being written) counts once."""

from __future__ import annotations

import json
import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from learning.puzzles import glicko
from learning.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.learning.fixtures_puzzles import checker_puzzle, cube_puzzle, only


def post(client: Client, puzzle_id: int, body: Any) -> Any:
    raw = body if isinstance(body, str) else json.dumps(body)
    url = reverse("puzzles:answer", args=[puzzle_id])
    return client.post(url, raw, content_type="application/json")


def nothing_changed(puzzle: Puzzle) -> bool:
    row = Puzzle.objects.get(pk=puzzle.pk)
    return (
        not PuzzleAttempt.objects.exists()
        and not PuzzleRating.objects.exists()
        and (row.rating, row.attempts) == (puzzle.rating, 0)
    )


@pytest.mark.django_db
def test_a_puzzle_not_there_or_not_in_the_bank_is_refused_in_words(guest_client: Client) -> None:
    only()
    close = checker_puzzle(status="close", key="test:close")

    missing = post(guest_client, close.pk + 1000, {"steps": [[8, 5], [6, 5]]})
    unrated = post(guest_client, close.pk, {"steps": [[8, 5], [6, 5]]})

    assert (missing.status_code, missing.json()["error"]) == (404, "missing")
    assert (unrated.status_code, unrated.json()["error"]) == (404, "unrated")
    assert missing.json()["message"] and unrated.json()["message"]
    assert nothing_changed(close)


@pytest.mark.django_db
def test_without_an_account_or_with_a_body_too_big_nothing_changes(guest_client: Client) -> None:
    only()
    puzzle = checker_puzzle()

    anonymous = post(Client(), puzzle.pk, {"steps": [[8, 5], [6, 5]]})
    big = post(guest_client, puzzle.pk, {"steps": [[8, 5], [6, 5]], "pad": "x" * 4000})

    assert (anonymous.status_code, anonymous.json()["error"]) == (403, "no_account")
    assert (big.status_code, big.json()["error"]) == (400, "malformed")
    assert anonymous.json()["message"] and big.json()["message"]
    assert nothing_changed(puzzle)


@pytest.mark.django_db
def test_a_play_for_a_cube_question_is_refused(guest_client: Client) -> None:
    only()
    puzzle = cube_puzzle("take")

    response = post(guest_client, puzzle.pk, {"steps": [[8, 5], [6, 5]]})

    assert (response.status_code, response.json()["error"]) == (400, "malformed")
    assert nothing_changed(puzzle)


class Hold:
    """``glicko.play`` whose first call waits (inside the first request's
    transaction, after its check) until the test lets it go."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()
        self.real = glicko.play

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self.reached.is_set():
            self.reached.set()
            assert self.release.wait(20), "the test never let the first answer go"
        return self.real(*args, **kwargs)


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_the_same_answer_sent_twice_at_once_counts_once(guest: Any) -> None:
    only()
    puzzle = checker_puzzle()
    steps = [[int(s.split("/")[0]), int(s.split("/")[1])] for s in puzzle.ranking[0][0].split()]
    statuses: list[int] = []

    def send() -> None:
        client = Client()
        client.force_login(guest, backend="django.contrib.auth.backends.ModelBackend")
        try:
            statuses.append(post(client, puzzle.pk, {"steps": steps}).status_code)
        finally:
            connections.close_all()

    hold = Hold()
    with mock.patch.object(glicko, "play", hold):
        first = threading.Thread(target=send)
        first.start()
        assert hold.reached.wait(20)
        second = threading.Thread(target=send)
        second.start()
        time.sleep(0.5)  # the second request reaches its check (or waits for the first)
        hold.release.set()
        first.join(30)
        second.join(30)

    assert sorted(statuses) == [200, 409]
    assert PuzzleAttempt.objects.count() == 1
    rating = PuzzleRating.objects.get(user=guest)
    assert rating.attempts == 1
    row = Puzzle.objects.get(pk=puzzle.pk)
    assert row.attempts == 1
    assert rating.rating == pytest.approx(PuzzleAttempt.objects.get().rating_after)
