"""A hint or an analysis-board job is never lost silently (issue 32, item 11).

A board job that waits says for what (its place in the queue, or how long
it has run); one whose message was dropped or whose worker was killed is
told to the page in words as lost, and asking again queues it anew. A hint
task that raises is stored and sent as failed. The lost worker is a real
Celery worker on Redis, SIGKILLed mid-job with its pool child (a Redis
message held by a dead worker comes back only after the visibility timeout,
600 s); the other tests need no service.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from ai_worker import dispatch
from games import services
from games.engine import Dice, Position
from games.live import broadcast
from learning import hints, tasks
from learning.models import AnalysisState, BoardAnalysis, Hint
from learning.study import board as analysis_board
from tests.ai.conftest import WorkerProcess, purge_queues, spawn_worker, stop_worker
from tests.learning.conftest import RACE, position

START = Position.start().position_id()
LOST = {
    "en": "The analysis was lost on its way (the server took too long). Try again.",
    "zh-hans": "分析任务丢失了（服务器太久没有回应），请重试。",
}


def dropped(_job_id: int) -> None:
    """An enqueue whose message never reaches the queue."""


CUBE_QUERY = f"/analysis/run?id={RACE.position_id()}"  # the cube action, money, centred


def ask(client: Client, language: str = "en", method: str = "get", query: str = CUBE_QUERY) -> Any:
    """The page's GET (polling) or POST (asking, 重试) of ``query``."""
    if method == "post":
        path, _, params = query.partition("?")
        body = json.dumps(dict(p.split("=") for p in params.split("&")))
        answer = client.post(path, body, "application/json", HTTP_ACCEPT_LANGUAGE=language)
    else:
        answer = client.get(query, HTTP_ACCEPT_LANGUAGE=language)
    return answer.json()


def cube_job(client: Client, monkeypatch: pytest.MonkeyPatch) -> BoardAnalysis:
    """The page asks for RACE's cube action; its message never reaches a queue."""
    with monkeypatch.context() as patch:
        patch.setattr(tasks, "enqueue_board_analysis", dropped)
        assert ask(client, method="post")["state"] == "pending"
    return BoardAnalysis.objects.get(position_id=RACE.position_id(), dice="")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_a_board_job_whose_message_was_dropped_is_lost_in_words_and_asked_again(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CELERY_BROKER_URL = ""  # the web process's own pool, in either mode
    cube_job(client, monkeypatch)
    waiting = ask(client)
    # Not in any queue, but not waiting long enough yet to call it lost.
    assert (waiting["state"], waiting["ahead"]) == ("pending", None)
    assert waiting["seconds"] >= 0
    settings.BOARD_JOB_LOST_SECONDS = 0
    for language, words in LOST.items():
        lost = ask(client, language)
        assert (lost["state"], lost["message"]) == ("lost", words)
    # Asked again (the page's 重试): queued anew and answered.
    assert "state" in ask(client, method="post")
    settings.BOARD_JOB_LOST_SECONDS = 45
    assert dispatch.wait_idle(60)
    done = ask(client)
    assert done["state"] == "done" and done["cube"]["action"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_a_failed_board_job_says_so_in_words(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = cube_job(client, monkeypatch)
    BoardAnalysis.objects.filter(pk=row.pk).update(state=AnalysisState.FAILED)
    failed = ask(client, "zh-hans")
    assert (failed["state"], failed["message"]) == ("failed", "服务器上的分析出错了，请重试。")


@pytest.mark.django_db(transaction=True)
def test_the_in_process_queue_says_how_many_jobs_are_ahead(settings: Any) -> None:
    settings.CELERY_BROKER_URL = ""
    started, release = dispatch.threading.Event(), dispatch.threading.Event()

    def hold(job_id: int) -> None:
        started.set()
        release.wait(30)

    hold.declared_queue = "analysis"  # type: ignore[attr-defined]
    dispatch.enqueue(hold, 0)
    assert started.wait(10)
    try:
        for job in (1, 2, 3):
            dispatch.enqueue(tasks.analyse_position, job)
        ahead = [dispatch.messages_ahead(tasks.analyse_position, job) for job in (1, 2, 3, 4)]
        assert ahead == [0, 1, 2, None]
    finally:
        release.set()
        dispatch.wait_idle(30)


@pytest.mark.django_db(transaction=True)
def test_a_hint_task_that_raises_is_stored_and_sent_as_failed(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "send_to_game", lambda _gid, payload: sent.append(payload))
    pos = position(light={13: 1, 6: 14}, dark={10: 1, 24: 14})
    game = services.start_game_from(user, "casual", pos, dice=[2, 1])

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("the evaluator fell over")

    with pytest.raises(RuntimeError):
        hints.compute_hint(game.pk, game.version, rank=broken)
    assert Hint.objects.get(game=game).state == AnalysisState.FAILED
    assert [p["state"] for p in sent[:1]] == ["running"]
    failed = sent[-1]["by_language"]
    assert {failed[code]["state"] for code in ("en", "zh-hans")} == {"failed"}
    # Asked again, the same job is worked out anew.
    hints.compute_hint(game.pk, game.version)
    assert Hint.objects.get(game=game).state == AnalysisState.DONE


# ---------------------------------------------------------------- a real worker


def wait_for(check: Any, seconds: float, what: str, worker: WorkerProcess | None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        if worker is not None:
            worker.check_alive()
        time.sleep(0.05)
    log = worker.log()[-3000:] if worker is not None else ""
    pytest.fail(f"timed out waiting for {what}:\n{log}", pytrace=False)


def state_of(row: BoardAnalysis) -> str:
    return BoardAnalysis.objects.get(pk=row.pk).state


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_the_broker_queue_says_how_many_jobs_are_ahead(
    redis_url: str, client: Client, settings: Any
) -> None:
    """No worker: three jobs wait on Redis; each is told its place."""
    settings.CELERY_BROKER_URL = redis_url
    purge_queues()
    try:
        rows = [
            analysis_board.request_analysis(RACE, dice, tasks.enqueue_board_analysis)
            for dice in (Dice(3, 1), Dice(6, 5))
        ]
        assert ask(client, method="post")["state"] == "pending"  # the cube action, third
        rows.append(BoardAnalysis.objects.get(position_id=RACE.position_id(), dice=""))
        assert [analysis_board.queued_ahead(r) for r in rows] == [0, 1, 2]
        answer = ask(client, "zh-hans")
        assert (answer["state"], answer["ahead"]) == ("pending", 2)
        settings.BOARD_JOB_LOST_SECONDS = 0  # in the queue: waiting, never lost
        assert ask(client)["state"] == "pending"
    finally:
        purge_queues()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
@pytest.mark.slow
def test_a_board_job_whose_worker_is_killed_mid_job_is_lost_in_words_and_done_on_retry(
    request: pytest.FixtureRequest,
    celery_worker_process: WorkerProcess,
    client: Client,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # The 21 rolls at 3-ply (the row's ply, which the worker reads): long
    # enough (seconds) to be killed in the middle.
    monkeypatch.setattr(analysis_board, "ALL_ROLLS_PLY", 3)
    query = f"/analysis/run?id={START}&dice=all"
    assert ask(client, method="post", query=query)["state"] == "pending"
    row = BoardAnalysis.objects.get(position_id=START, dice="all")
    assert row.ply == 3
    wait_for(lambda: state_of(row) == AnalysisState.RUNNING, 60, "the job to run", None)
    worker = celery_worker_process
    children = worker.children()
    os.kill(worker.process.pid, signal.SIGKILL)  # the whole worker, as a lost machine
    for child in children:
        os.kill(child, signal.SIGKILL)
    worker.process.wait(timeout=10)
    assert state_of(row) == AnalysisState.RUNNING  # killed in the middle

    still = client.get(query).json()
    assert still["state"] == "running" and still["seconds"] >= 0
    settings.BOARD_JOB_LOST_SECONDS = 1
    time.sleep(1.1)
    for language, words in LOST.items():
        lost = client.get(query, HTTP_ACCEPT_LANGUAGE=language).json()
        assert (lost["state"], lost["message"]) == ("lost", words)

    # The retry from a new worker: the job is queued anew and finished.
    env = {**request.getfixturevalue("test_process_env"), "REDIS_URL": settings.CELERY_BROKER_URL}
    (tmp_path / "second").mkdir()
    second = spawn_worker(env, tmp_path / "second")
    try:
        assert ask(client, method="post", query=query)["state"] == "pending"
        settings.BOARD_JOB_LOST_SECONDS = 45
        wait_for(lambda: state_of(row) == AnalysisState.DONE, 180, "the retried job", second)
        done = client.get(query).json()
        assert done["state"] == "done" and len(done["rolls"]) == 21
    finally:
        stop_worker(second.process)
