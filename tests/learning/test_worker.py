"""The review and hint jobs on a real Celery worker (queue ``analysis``) and Redis.

Needs REDIS_URL (skips without it, fails under CI=true) and uses the shared
``celery_worker_process`` fixture from tests/ai/conftest.py.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from ai_worker import dispatch
from games import services
from games.models import Game
from learning import tasks
from learning.models import AnalysisState, GameAnalysis, Hint, TurnAnalysis
from tests.ai.conftest import WorkerProcess
from tests.learning.conftest import position

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def wait_for(check: Any, seconds: float, what: str, worker: WorkerProcess) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        worker.check_alive()
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}:\n{worker.log()[-3000:]}", pytrace=False)


def test_the_worker_analyses_a_finished_game(
    celery_worker_process: WorkerProcess,
    finished_game: Game,
) -> None:
    assert dispatch.uses_broker(), "REDIS_URL must make the site use the broker"
    started = time.monotonic()
    tasks.enqueue_review(finished_game.pk)

    def done() -> bool:
        row = GameAnalysis.objects.filter(game=finished_game).first()
        return row is not None and row.state == AnalysisState.DONE

    wait_for(done, 120, "the review", celery_worker_process)
    elapsed = time.monotonic() - started
    turns = finished_game.turns.count()
    assert TurnAnalysis.objects.filter(analysis__game=finished_game).count() == turns
    assert "learning.tasks.analyse_game" in celery_worker_process.log()
    print(f"worker review of {turns} turns: {elapsed:.1f} s")


def test_the_worker_computes_a_hint(
    celery_worker_process: WorkerProcess,
    user: Any,
) -> None:
    pos = position(light={13: 1, 6: 14}, dark={10: 1, 24: 14})
    game = services.start_game_from(user, "casual", pos, dice=[2, 1])
    services.request_hint(game.pk, user, game.version)

    def ready() -> bool:
        return Hint.objects.filter(game=game, state=AnalysisState.DONE).exists()

    wait_for(ready, 60, "the hint", celery_worker_process)
    hint = Hint.objects.get(game=game)
    assert 1 <= len(hint.candidates) <= 5
    game.refresh_from_db()
    assert game.hints_used and game.version == 1
