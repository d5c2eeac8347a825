"""Issue 30, item 4: the open page learns of a move whose message died with Redis.

Production shape on a Redis of the test's own: daphne and a real Celery
worker use it as channel layer and broker. The computer's turn is queued
while the page shows the computer thinking; Redis is killed with SIGKILL
(keeping nothing) and started again empty. The watchdog's sweep (run here as
beat would, once the turn has waited ``turns.LOST_AFTER``) queues the turn
again; the worker plays it, and the page, open all along, shows it within
30 s, with no reload.
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db.models import F
from django.utils import translation

from ai_worker import tasks
from games import services
from games.engine import Position, Side
from games.models import Game
from games.words.play import board_words
from tests.ai.conftest import spawn_worker, stop_worker
from tests.browser.helpers import sign_in
from tests.conftest import PrivateRedis, start_daphne, stop_process

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_page_waiting_on_a_turn_lost_with_redis_shows_the_move(
    browser: Any,
    private_redis: PrivateRedis,
    test_process_env: dict[str, str],
    tmp_path: Path,
    settings: Any,
    user: Any,
) -> None:
    env = {**test_process_env, "REDIS_URL": private_redis.url}
    server = start_daphne(env, tmp_path / "daphne.log")
    settings.CELERY_BROKER_URL = private_redis.url  # this process queues and sweeps there too
    context = browser.new_context(
        base_url=server.url, locale="zh-CN", viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(10_000)
    worker = None
    try:
        game = services.start_game_from(user, "casual", Position.start(), Side.DARK, (5, 2))
        with translation.override("zh-hans"):
            words = board_words(game)
        page = context.new_page()
        sign_in(page, server.url, user)
        page.goto(f"/games/{game.pk}/")
        page.wait_for_function(
            "() => window.__shuanglu && window.__shuanglu.state.thinking === true"
        )
        private_redis.kill()
        private_redis.start()
        lost_at = time.monotonic()
        Game.objects.filter(pk=game.pk).update(
            computer_turn_started_at=F("computer_turn_started_at") - timedelta(seconds=16)
        )
        assert tasks.watch_computer_turns() == 1  # the sweep finds it lost
        worker = spawn_worker(env, tmp_path)
        page.wait_for_function(
            "v => window.__shuanglu.state.version > v && window.__shuanglu.idle",
            arg=game.version,
            timeout=30_000,
        )
        shown = time.monotonic() - lost_at
        assert page.locator("#play-turn").inner_text() == words["your_turn"]
        played = Game.objects.get(pk=game.pk)
        assert played.turn == Side.LIGHT.value and played.last_turn is not None
        assert shown < 30
        print(f"the lost move was on the open page {shown:.1f} s after the loss")
    finally:
        if worker is not None:
            stop_worker(worker.process)
        context.close()
        stop_process(server.process)
