"""The browser tests' fixtures: servers (daphne, with a Celery worker when
REDIS_URL is set) and the games and people they open pages on. Page helpers
are in ``tests/browser/helpers.py``."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

from learning.models import AnalysisState, GameAnalysis
from learning.review import game as review
from learning.study import practice

# celery_worker_process, cube_game_played and erring_game: fixtures of other
# folders that these tests use by name.
from tests.ai.conftest import celery_worker_process, purge_queues  # noqa: F401
from tests.browser.helpers import analyse_then_close
from tests.learning.conftest import (  # noqa: F401
    RACE,
    cube_game_played,
    erring_game,
    one_ply,
    play_out,
    worst,
)


@pytest.fixture
def play_server(request: pytest.FixtureRequest, daphne_server: str) -> str:
    """The daphne URL, with a Celery worker running when REDIS_URL is set."""
    if os.environ.get("REDIS_URL"):
        request.getfixturevalue("celery_worker_process")
    return daphne_server


@pytest.fixture
def analysed_game(user: Any, held_reviews: list[int]) -> int:
    """A finished game of ``user``'s, its analysis done here; returns its id."""
    game = play_out(user, RACE, seed=3)
    assert held_reviews == [game.pk]
    # Off the main thread: Playwright's event loop runs there, and the job
    # broadcasts its progress through async_to_sync.
    job = threading.Thread(target=analyse_then_close, args=(game.pk,))
    job.start()
    job.join()
    assert GameAnalysis.objects.get(game=game).state == AnalysisState.DONE
    return game.pk


@pytest.fixture
def computer_held(redis_url: str, daphne_server: str) -> Iterator[str]:
    """daphne's computer tasks stay in Redis (no worker): the test plays them."""
    purge_queues()
    yield daphne_server
    purge_queues()


@pytest.fixture
def practice_user(user: Any, held_reviews: list[int]) -> Any:
    game = play_out(user, RACE, seed=3, light_choice=worst)
    assert held_reviews == [game.pk]  # analysed here, at one ply

    def run() -> None:
        try:
            review.run_analysis(game.pk, rank=one_ply)
        finally:
            connections.close_all()  # the thread's own connection

    # Off the main thread: the job broadcasts through async_to_sync.
    job = threading.Thread(target=run)
    job.start()
    job.join()
    assert practice.add_from_reviews(user) >= 3
    return user
