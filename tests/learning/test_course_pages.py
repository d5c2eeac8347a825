"""学棋's pages and its check endpoint through the real URLs: the map (the
time it takes, the stars' rule), the lobby's offer (its time true to
``pace``, gone once every lesson has stars), a run's mistakes (a refused
step is none, a missed play is one, two bring a hint), bad input refused in
words, a guest's stars kept at sign-up, and the guided first game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import Preferences, User
from games.models import Game
from learning.course import pace
from learning.course.lessons import BY_SLUG, LESSONS
from learning.course.models import LessonProgress
from learning.course.progress import stars_for
from learning.course.quiz import quiz
from tests.learning.fixtures_course import missing_plays, post, run_tasks, solve

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("misses", "stars"), [(0, 3), (1, 2), (2, 2), (3, 1), (9, 1)])
def test_stars_count_the_misses_of_a_run(misses: int, stars: int) -> None:
    assert stars_for(misses) == stars


def test_the_map_lists_the_lessons_says_how_long_and_how_stars_are_earned(client: Any) -> None:
    response = client.get("/learn/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = response.content.decode()
    assert [item["slug"] for item in response.context["lessons"]] == [x.slug for x in LESSONS]
    assert response.context["next_lesson"] == LESSONS[0]
    assert f"初学者学完全部大约要 {pace.course_minutes()} 分钟" in page
    assert "一课没有失误得 3 颗，失误 1 到 2 次得 2 颗，更多得 1 颗" in page
    assert "被规则拒绝的一步不算" in page
    assert User.objects.count() == 0  # the map alone makes no account


def test_the_course_takes_what_its_words_and_moves_take_at_a_beginner_s_pace() -> None:
    seconds = sum(pace.lesson_seconds(lesson) for lesson in LESSONS)
    assert pace.course_minutes() == 5 * round(seconds / 300)
    assert 20 <= pace.course_minutes() <= 60


def test_the_lobby_offers_the_course_with_its_time_and_not_once_it_is_done(client: Any) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f"第一次玩？先花大约 {pace.course_minutes()} 分钟学会下棋" in page
    assert 'href="/learn/"' in page
    client.get(reverse("learning:lesson", args=["board"]))
    guest = User.objects.get()
    for lesson in LESSONS:
        LessonProgress.objects.update_or_create(
            owner=guest, lesson=lesson.slug, defaults={"stars": 2}
        )
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "lobby-learn" not in page and "第一次玩" not in page


def test_a_lesson_page_makes_a_guest_and_carries_its_tasks_and_rules(client: Any) -> None:
    lesson = BY_SLUG["both-dice"]
    response = client.get(
        reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    page = response.content.decode()
    assert User.objects.get().is_guest
    data = response.context["data"]
    assert [t["position_id"] for t in data["tasks"]] == [t.position for t in run_tasks(lesson)]
    assert data["run"] == {"task": 0, "misses": 0, "task_misses": 0, "stars": 0}
    assert "大的根本走不了，才走小的" in page
    assert "<q>如果只能用其中一颗，必须用点数大的那颗（大的走不了才走小的）</q>" in page


def test_a_refused_step_is_no_mistake_a_missed_play_is_one_and_two_bring_a_hint(
    client: Any,
) -> None:
    lesson = BY_SLUG["board"]
    client.get(reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    refused = post(client, lesson, 0, {"steps": [[13, 19]]}).json()
    assert refused["state"] == "refused" and refused["run"]["misses"] == 0
    assert refused["message"] == "棋子只能从大号点位走向小号点位：从 13 点到 19 点是往回走。"
    task = lesson.tasks[0]
    wrong = [[s.src, s.dst] for s in missing_plays(task)[0].steps]
    first = post(client, lesson, 0, {"steps": wrong}).json()
    assert first["state"] == "miss" and first["run"]["misses"] == 1 and "hint" not in first
    second = post(client, lesson, 0, {"steps": wrong}).json()
    assert second["run"] == {**second["run"], "misses": 2, "task_misses": 2}
    assert second["hint"]["text"] == "提示：箭头画出了一种走法。"
    assert second["hint"]["arrows"] == [{"from": 24, "to": 18}, {"from": 18, "to": 13}]
    done = solve(client, lesson, 0)
    assert done["run"]["task"] == 1 and done["run"]["task_misses"] == 0


def test_a_stuck_checker_tapped_gets_the_reason_and_counts_nothing(client: Any) -> None:
    lesson = BY_SLUG["entering"]
    client.get(reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    data = post(client, lesson, 0, {"steps": [], "probe": 13}).json()
    assert data["state"] == "partial" and "先让它进场" in data["message"]
    assert data["run"]["misses"] == 0


def test_a_full_width_pip_count_is_right_through_the_page(client: Any) -> None:
    lesson = BY_SLUG["pip-count"]
    client.get(reverse("learning:lesson", args=[lesson.slug]))
    data = post(client, lesson, 0, {"answer": "１７"}).json()
    assert data["state"] == "done" and data["run"]["misses"] == 0


def test_a_run_with_one_miss_earns_two_stars_and_signing_up_keeps_them(client: Any) -> None:
    lesson = BY_SLUG["pip-count"]
    client.get(reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert post(client, lesson, 0, {"answer": "18"}).json()["state"] == "miss"
    assert post(client, lesson, 1, {"answer": "1"}).status_code == 409  # in order
    total = len(run_tasks(lesson))
    for i in range(total):
        last = solve(client, lesson, i)
    assert last["run"] == {
        "task": total,
        "misses": 1,
        "task_misses": 0,
        "stars": 2,
        "finished": True,
        "run_stars": 2,
    }
    guest = User.objects.get()
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "cara",
            "email": "cara@example.com",
            "password1": "Shuang-lu-2026!",
            "password2": "Shuang-lu-2026!",
        },
    )
    assert response.status_code == 302
    row = LessonProgress.objects.get()
    assert (row.owner_id, row.owner.username, row.stars) == (guest.pk, "cara", 2)


def test_a_finished_run_keeps_its_best_stars_and_draws_a_new_quiz(client: Any) -> None:
    lesson = BY_SLUG["hitting"]
    client.get(reverse("learning:lesson", args=[lesson.slug]))
    seed = LessonProgress.objects.get().seed
    for i in range(len(run_tasks(lesson))):
        last = solve(client, lesson, i)
    assert last["run"]["finished"] and last["run"]["stars"] == 3
    row = LessonProgress.objects.get()
    assert (row.task, row.misses, row.stars) == (0, 0, 3) and row.seed != seed
    assert run_tasks(lesson)[len(lesson.tasks) :] == quiz(lesson.slug, row.seed)


def test_bad_input_is_refused_in_words_and_counts_nothing(client: Any) -> None:
    lesson = BY_SLUG["pip-count"]
    client.get(reverse("learning:lesson", args=[lesson.slug]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    url = reverse("learning:lesson_check", args=[lesson.slug, 0])
    bad = client.post(url, "not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["message"]
    assert post(client, lesson, 0, {"answer": ["17"]}).status_code == 400
    assert post(client, lesson, 0, {"answer": "1" * 40}).status_code == 400
    assert client.get(reverse("learning:lesson", args=["no-such-lesson"])).status_code == 404
    assert post(client, lesson, 99, {"answer": "1"}).status_code == 404
    board = BY_SLUG["board"]
    client.get(reverse("learning:lesson", args=[board.slug]))
    assert post(client, board, 0, {"steps": [], "probe": 26}).status_code == 400
    assert post(client, board, 0, {"steps": [], "probe": "13"}).status_code == 400
    assert post(client, board, 0, {"steps": [[24, 99]]}).status_code == 400
    assert not LessonProgress.objects.filter(misses__gt=0).exists()
    words = post(client, lesson, 0, {"answer": "abc"}).json()
    assert words["state"] == "miss" and "数字" in words["message"]


def test_the_guided_first_game_turns_the_tutor_on_and_starts_a_beginner_s_single_game(
    client: Any,
) -> None:
    client.get(reverse("learning:lesson", args=["board"]))
    guest = User.objects.get()
    for lesson in LESSONS:
        LessonProgress.objects.update_or_create(
            owner=guest, lesson=lesson.slug, defaults={"stars": 3}
        )
    page = client.get("/learn/").content.decode()
    assert 'id="course-first-game"' in page
    commitment = re.search(r'name="commitment" id="course-commitment" value="([0-9a-f]+)"', page)
    assert commitment is not None
    fields = {"tier": "beginner", "kind": "single", "commitment": commitment.group(1)}
    response = client.post(reverse("learning:first_game"), fields, follow=True)
    assert response.redirect_chain[0] == (reverse("games:start"), 307)
    game = Game.objects.get(owner=guest)
    assert (game.tier, game.kind) == ("beginner", "single")
    assert response.redirect_chain[-1][0] == reverse("games:play", args=[game.pk])
    assert Preferences.objects.get(user=guest).tutor == "bad"
