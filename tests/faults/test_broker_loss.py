"""Issue 30, item 4: a computer turn whose message died with Redis is played.

Redis is killed with SIGKILL (keeping nothing) while a computer turn waits
in its ``moves`` queue, and started again empty. The watchdog's sweep (every
10 s from beat) sees the turn due, never started, and the queue empty, and
queues it again once it has waited ``turns.LOST_AFTER`` (15 s): the move is
played within 30 s of the loss, not after the 60 s a stuck turn waits.
A Redis of the test's own (``private_redis``) is the broker of this test's
process and of its real Celery worker.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db.models import F

from ai_worker import tasks, turns
from config.celery import app
from games import services
from games.engine import Position, Side
from games.models import Game
from tests.ai.conftest import spawn_worker, stop_worker
from tests.conftest import PrivateRedis

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_sweep_mends_a_lost_turn_well_within_30_s() -> None:
    sweep_every = app.conf.beat_schedule["watch-computer-turns"]["schedule"]
    assert sweep_every + turns.LOST_AFTER.total_seconds() <= 25
    assert turns.LOST_AFTER < turns.STUCK_AFTER


@pytest.mark.slow  # Redis killed, a worker started
def test_a_turn_lost_with_a_killed_redis_is_played_within_30_s(
    private_redis: PrivateRedis,
    settings: Any,
    user: Any,
    test_process_env: dict[str, str],
    tmp_path: Path,
) -> None:
    settings.CELERY_BROKER_URL = private_redis.url
    game = services.start_game_from(user, "casual", Position.start(), Side.DARK, (5, 2))
    broker = redis.Redis.from_url(private_redis.url)
    assert broker.llen("moves") == 1  # queued on commit; no worker yet
    private_redis.kill()
    private_redis.start()
    assert broker.llen("moves") == 0  # the message is gone with the data
    lost_at = time.monotonic()
    # The turn has waited past LOST_AFTER (as if 16 s went by since it was handed over).
    Game.objects.filter(pk=game.pk).update(
        computer_turn_started_at=F("computer_turn_started_at") - timedelta(seconds=16)
    )
    assert tasks.watch_computer_turns() == 1  # beat's sweep: the queue is empty
    worker = spawn_worker({**test_process_env, "REDIS_URL": private_redis.url}, tmp_path)
    try:
        while Game.objects.get(pk=game.pk).turn != Side.LIGHT.value:
            assert time.monotonic() - lost_at < 30, worker.log()[-3000:]
            worker.check_alive()
            time.sleep(0.1)
    finally:
        stop_worker(worker.process)
    played = Game.objects.get(pk=game.pk)
    assert played.version > game.version and played.last_turn is not None
    print(f"the lost turn was played {time.monotonic() - lost_at:.1f} s after the loss")


def test_a_turn_waiting_behind_others_is_not_taken_for_lost(
    private_redis: PrivateRedis, settings: Any, user: Any
) -> None:
    settings.CELERY_BROKER_URL = private_redis.url
    game = services.start_game_from(user, "casual", Position.start(), Side.DARK, (5, 2))
    Game.objects.filter(pk=game.pk).update(
        computer_turn_started_at=F("computer_turn_started_at") - timedelta(seconds=16)
    )
    assert redis.Redis.from_url(private_redis.url).llen("moves") == 1
    assert tasks.watch_computer_turns() == 0  # its message still waits in the queue
