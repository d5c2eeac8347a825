"""Issue 30, item 1: nobody starves the others on the analysis worker.

Imports are refused in words when the file was imported before or the
study budget is full; imported games' reviews are fed one per owner; a
review runs in slices; board jobs have a budget per visitor and address;
and, on a real Celery worker with one child, a hint asked for during a
flood of reviews and board jobs is computed before the flood drains.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, ImportedFile
from learning import tasks
from learning.models import AnalysisState, BoardAnalysis, GameAnalysis, Hint
from learning.review import game as review
from learning.study import board as analysis_board
from learning.study import queue as study_queue
from tests.ai.conftest import WorkerProcess
from tests.learning.conftest import RACE, play_out, position

DATA = Path(__file__).resolve().parents[1] / "data"
MATCH = "gnubg_match3.mat"


def upload(client: Client, name: str = MATCH, ip: str = "127.0.0.1") -> str:
    """Import a data file through the history page; the message it shows."""
    data = (DATA / name).read_bytes()
    response = client.post(
        reverse("learning:import_mat"),
        {"file": SimpleUploadedFile(name, data)},
        REMOTE_ADDR=ip,
        follow=True,
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 200
    return " ".join(str(m) for m in response.context["messages"])


@pytest.fixture
def held_reviews(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game ids queued for review, the reviews themselves not run."""
    queued: list[int] = []
    monkeypatch.setattr(tasks, "enqueue_review", queued.append)
    return queued


@pytest.mark.django_db
def test_the_same_file_imported_twice_is_refused_in_words(
    client_logged_in: Client, held_reviews: list[int]
) -> None:
    first = upload(client_logged_in)
    games = Game.objects.count()
    assert games > 1 and "已导入" in first
    second = upload(client_logged_in)
    assert "没有导入" in second and "导入过这个文件" in second
    assert Game.objects.count() == games
    assert ImportedFile.objects.count() == 1
    # The same text with other line ends is the same file.
    text = (DATA / MATCH).read_text(encoding="utf-8").replace("\n", "\r\n")
    with pytest.raises(services.AlreadyImportedError):
        services.import_match_file(Game.objects.first().owner, text)  # type: ignore[union-attr]


@pytest.mark.django_db
def test_an_import_past_the_budget_is_refused_in_words_and_stores_nothing(
    client_logged_in: Client, held_reviews: list[int], settings: Any
) -> None:
    settings.STUDY_BUDGETS = {**settings.STUDY_BUDGETS, "imports_user": 4}
    assert "已导入" in upload(client_logged_in, MATCH)  # 4 games waiting
    games = Game.objects.count()
    refused = upload(client_logged_in, "gnubg_money_take.mat")
    assert "复盘队列已满" in refused and "等前面的完成后再导入" in refused
    assert Game.objects.count() == games
    assert ImportedFile.objects.count() == 1


@pytest.mark.django_db
def test_an_address_has_a_budget_across_its_accounts(
    make_user: Any, held_reviews: list[int], settings: Any
) -> None:
    settings.STUDY_BUDGETS = {**settings.STUDY_BUDGETS, "imports_address": 4}
    clients = []
    for name in ("ann", "bob"):
        client = Client()
        client.force_login(make_user(name))
        clients.append(client)
    assert "已导入" in upload(clients[0], MATCH, ip="192.0.2.7")
    assert "复盘队列已满" in upload(clients[1], "gnubg_money_take.mat", ip="192.0.2.7")
    assert "已导入" in upload(clients[1], "gnubg_money_take.mat", ip="192.0.2.8")


@pytest.mark.django_db
def test_imported_reviews_are_fed_one_at_a_time_per_owner(
    user: Any,
    held_reviews: list[int],
    held_computer_turns: list[tuple[int, int]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        imported = services.import_match_file(user, (DATA / MATCH).read_text(encoding="utf-8"))
    ids = [g.pk for g in imported.games]
    assert len(ids) > 2
    assert held_reviews == ids[:1]  # one in the queue, the rest held
    rows = {r.game_id: r for r in GameAnalysis.objects.filter(game_id__in=ids)}
    assert [rows[i].queued_at is not None for i in ids] == [True] + [False] * (len(ids) - 1)
    assert study_queue.reviews_ahead(rows[ids[2]]) == 2  # the fed one, then the one before
    # A played game's review, finished now, is queued at once, ahead of the held ones.
    with django_capture_on_commit_callbacks(execute=True):
        played = play_out(user, RACE, seed=3)
    assert held_reviews[-1] == played.pk
    # Nothing more is fed while the first is waiting; once it is done, the next.
    assert study_queue.feed_imports(user.pk, held_reviews.append) is False
    GameAnalysis.objects.filter(game_id=ids[0]).update(state=AnalysisState.DONE)
    with django_capture_on_commit_callbacks(execute=True):
        assert study_queue.feed_imports(user.pk, held_reviews.append) is True
    assert held_reviews[-1] == ids[1]


@pytest.mark.django_db
@pytest.mark.slow
def test_a_review_runs_in_slices_and_resumes_where_it_stopped(user: Any) -> None:
    game = play_out(user, RACE, seed=5)
    turns = game.turns.count()
    assert not review.run_analysis(game.pk, slice_seconds=0.0)  # one turn, then it stops
    row = GameAnalysis.objects.get(game=game)
    assert row.state == AnalysisState.PENDING and row.turns.count() == 1
    slices = 1
    while not review.run_analysis(game.pk, slice_seconds=0.0):
        slices += 1
    row.refresh_from_db()
    assert row.state == AnalysisState.DONE and row.turns.count() == turns
    assert slices >= turns


@pytest.mark.django_db
def test_board_jobs_have_a_budget_per_visitor_and_address(
    client: Client, settings: Any, monkeypatch: pytest.MonkeyPatch, make_user: Any
) -> None:
    monkeypatch.setattr(tasks, "enqueue_board_analysis", lambda job_id: None)
    settings.STUDY_BUDGETS = {**settings.STUDY_BUDGETS, "board_visitor": 2, "board_address": 3}
    pid = RACE.position_id()

    def ask(dice: str, ip: str, who: Client) -> Any:
        return who.post(
            "/analysis/run",
            {"id": pid, "dice": dice},
            content_type="application/json",
            REMOTE_ADDR=ip,
            HTTP_ACCEPT_LANGUAGE="en",
        )

    assert [ask(d, "192.0.2.1", client).status_code for d in ("21", "31")] == [200, 200]
    full = ask("41", "192.0.2.1", client)
    assert full.status_code == 429 and "analyses waiting" in full.json()["message"]
    ann, bob = Client(), Client()
    ann.force_login(make_user("ann"))
    bob.force_login(make_user("bob"))
    assert ask("51", "192.0.2.1", ann).status_code == 200  # another visitor, same address
    assert ask("61", "192.0.2.1", bob).status_code == 429  # the address is full
    assert ask("61", "192.0.2.9", bob).status_code == 200
    assert BoardAnalysis.objects.filter(address="192.0.2.1").count() == 3


# --- on a real worker: the flood and the hint -------------------------------


def wait_for(check: Any, seconds: float, what: str, worker: WorkerProcess) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        worker.check_alive()
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}:\n{worker.log()[-3000:]}", pytrace=False)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_hint_goes_before_a_flood_of_reviews_and_board_jobs(
    celery_worker_process: WorkerProcess, user: Any, make_user: Any
) -> None:
    """One worker child, as small as a worker gets: a flood of played games'
    reviews, an imported match and board jobs are queued first, then a hint
    is asked for; it is computed while most of the flood still waits."""
    played = [play_out(user, None, seed=seed) for seed in (11, 12, 13, 14)]  # queued on finishing
    other = make_user("flooder")
    services.import_match_file(other, (DATA / MATCH).read_text(encoding="utf-8"))
    for dice in ("21", "31", "41", "51"):
        analysis_board.request_analysis(RACE, _dice(dice), tasks.enqueue_board_analysis)
    work = sum(g.turns.count() for g in played)
    pos = position(light={13: 1, 6: 14}, dark={10: 1, 24: 14})
    game = services.start_game_from(user, "casual", pos, dice=[2, 1])
    asked = time.monotonic()
    services.request_hint(game.pk, user, game.version)

    def ready() -> bool:
        return Hint.objects.filter(game=game, state=AnalysisState.DONE).exists()

    wait_for(ready, 90, "the hint", celery_worker_process)
    waited = time.monotonic() - asked
    reviewed = sum(
        GameAnalysis.objects.filter(game__in=played).values_list("turns_done", flat=True)
    )
    print(f"hint after {waited:.2f} s; {reviewed} of {work} played turns reviewed by then")
    # Today's one queue took the whole flood first (every review, then the hint).
    assert reviewed < work // 2
    assert not GameAnalysis.objects.filter(game__in=played, state=AnalysisState.DONE).count() == 4


def _dice(text: str) -> Any:
    from games.engine import Dice

    return Dice(int(text[0]), int(text[1]))
