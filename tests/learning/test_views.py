"""The learning pages through real URLs: history, review, hints, stats, help."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from ai_worker.evaluator import rank_plays
from games import reading, services
from games.engine import Dice, Position
from games.models import Game, Status
from learning import hints
from learning.course.lessons import LESSONS
from learning.models import AnalysisState, GameAnalysis, Hint
from learning.review import game as review
from tests.learning.conftest import person_plays, play_out, position

pytestmark = pytest.mark.django_db


# LIGHT's last checker on its 1 point; where DARK's checkers stand decides the
# result of LIGHT's 1-1 that bears it off: one of DARK's off is a single game,
# none a gammon, one still in LIGHT's home board a backgammon.
ENDINGS = {
    1: position(light={1: 1}, dark={19: 14}),
    2: position(light={1: 1}, dark={19: 15}),
    3: position(light={1: 1}, dark={19: 14, 3: 1}),
}


def finished(owner: Any, winner: str, points: int = 1, tier: str = "casual") -> Game:
    """A finished game through the services: LIGHT bears off its last checker
    for ``points``, or resigns (DARK wins one point)."""
    if winner == "dark":
        assert points == 1
        game = services.start_game_from(owner, tier, Position.start(), dice=[3, 1])
        return services.resign(game.pk, owner, game.version)
    game = services.start_game_from(owner, tier, ENDINGS[points], dice=[1, 1])
    game = services.make_step(game.pk, owner, game.version, 1, 0, 1)
    assert (game.status, game.winner, game.points) == (Status.FINISHED, "light", points)
    return game


# ---------------------------------------------------------------- history


def test_history_totals_and_rows_are_the_users_own(
    client_logged_in: Client, user: Any, make_user: Any
) -> None:
    finished(user, "light", 2)
    finished(user, "dark", 1, tier="expert")
    services.start_game(user, "casual")
    finished(make_user("bob"), "light", 3)
    page = client_logged_in.get(reverse("learning:history"))
    assert page.status_code == 200
    totals = page.context["totals"]
    assert totals == {"games": 3, "wins": 1, "losses": 1, "points_won": 2, "points_lost": 1}
    assert len(page.context["page"].object_list) == 3


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("result=won", 1),
        ("result=lost", 1),
        ("tier=expert", 1),
        ("status=unfinished", 1),
        ("status=finished", 2),
        ("date_from=2000-01-01&date_to=2000-01-02", 0),
    ],
)
def test_history_filters(client_logged_in: Client, user: Any, query: str, count: int) -> None:
    finished(user, "light", 2)
    finished(user, "dark", 1, tier="expert")
    services.start_game(user, "casual")
    page = client_logged_in.get(f"{reverse('learning:history')}?{query}")
    assert page.context["page"].paginator.count == count
    assert page.context["totals"]["games"] == count


def test_history_pages_by_twenty(client_logged_in: Client, user: Any) -> None:
    for _ in range(23):
        finished(user, "light")
    first = client_logged_in.get(reverse("learning:history"))
    second = client_logged_in.get(f"{reverse('learning:history')}?page=2")
    assert len(first.context["page"].object_list) == 20
    assert len(second.context["page"].object_list) == 3


@pytest.mark.slow
def test_history_shows_the_error_rate_once_analysed(
    client_logged_in: Client, finished_game: Game
) -> None:
    before = client_logged_in.get(reverse("learning:history")).content.decode()
    assert "—" in before
    review.run_analysis(finished_game.pk)
    rate = GameAnalysis.objects.get(game=finished_game).summary["light"]["error_rate"]
    after = client_logged_in.get(reverse("learning:history")).content.decode()
    assert f"{rate * 1000:.1f}" in after


# ---------------------------------------------------------------- review


def test_a_review_visit_changes_nothing_and_offers_the_analysis(
    client_logged_in: Client, finished_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[int] = []
    monkeypatch.setattr("learning.tasks.enqueue_review", queued.append)
    page = client_logged_in.get(reverse("learning:review", args=[finished_game.pk]))
    assert page.status_code == 200
    assert queued == []
    assert not GameAnalysis.objects.filter(game=finished_game).exists()
    assert page.context["can_queue"] is True
    assert b'id="analysis-missing"' in page.content
    assert b'id="analysis-again" method="post"' in page.content
    replay = page.context["replay"]
    assert len(replay["turns"]) == finished_game.turns.count()
    assert replay["turns"][0]["analysis"] is None
    # The button queues it; the page then follows the pending job.
    again = reverse("learning:analyse_again", args=[finished_game.pk])
    response = client_logged_in.post(again)
    assert response.status_code == 302
    assert response["Location"] == reverse("learning:review", args=[finished_game.pk])
    assert queued == [finished_game.pk]
    page = client_logged_in.get(response["Location"])
    assert b'id="analysis-progress"' in page.content
    assert page.context["can_queue"] is False
    # A second press while the job is waiting queues nothing more.
    client_logged_in.post(again)
    assert queued == [finished_game.pk]


@pytest.mark.parametrize(
    ("state", "age", "queues"),
    [
        ("pending", 5, False),
        ("pending", 120, True),
        ("running", 5, False),
        ("running", 120, True),
        ("failed", 0, True),
        ("done", 999, False),
    ],
)
def test_the_button_queues_a_failed_or_lost_analysis_again(
    client_logged_in: Client,
    finished_game: Game,
    monkeypatch: pytest.MonkeyPatch,
    state: str,
    age: int,
    queues: bool,
) -> None:
    row = GameAnalysis.objects.create(game=finished_game, state=state, message="boom")
    GameAnalysis.objects.filter(pk=row.pk).update(
        updated_at=timezone.now() - timedelta(seconds=age)
    )
    queued: list[int] = []
    monkeypatch.setattr("learning.tasks.enqueue_review", queued.append)
    page = client_logged_in.get(reverse("learning:review", args=[finished_game.pk]))
    assert page.context["can_queue"] is queues
    assert queued == []
    assert GameAnalysis.objects.get(pk=row.pk).state == state
    client_logged_in.post(reverse("learning:analyse_again", args=[finished_game.pk]))
    assert queued == ([finished_game.pk] if queues else [])
    assert GameAnalysis.objects.get(pk=row.pk).state == ("pending" if queues else state)


def test_the_button_is_a_post_with_its_csrf_token_for_the_owner_only(
    user: Any, finished_game: Game, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[int] = []
    monkeypatch.setattr("learning.tasks.enqueue_review", queued.append)
    again = reverse("learning:analyse_again", args=[finished_game.pk])
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    assert browser.get(again).status_code == 405
    assert browser.post(again).status_code == 403
    page = browser.get(reverse("learning:review", args=[finished_game.pk])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    assert browser.post(again, {"csrfmiddlewaretoken": token.group(1)}).status_code == 302
    assert queued == [finished_game.pk]
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.post(again).status_code == 404
    assert queued == [finished_game.pk]


def test_an_unfinished_game_has_no_button(
    client_logged_in: Client, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[int] = []
    monkeypatch.setattr("learning.tasks.enqueue_review", queued.append)
    game = services.start_game(user, "casual")
    page = client_logged_in.get(reverse("learning:review", args=[game.pk]))
    assert b'id="analysis-again"' not in page.content
    client_logged_in.post(reverse("learning:analyse_again", args=[game.pk]))
    assert queued == []
    assert not GameAnalysis.objects.filter(game=game).exists()


@pytest.mark.slow
def test_review_after_analysis_has_the_summary_and_every_turns_alternatives(
    client_logged_in: Client, finished_game: Game
) -> None:
    review.run_analysis(finished_game.pk)
    page = client_logged_in.get(reverse("learning:review", args=[finished_game.pk]))
    assert b'id="analysis-progress"' not in page.content
    assert [row["side"] for row in page.context["summary"]] == ["light", "dark"]
    data = json.loads(
        page.content.decode()
        .split('id="review-data" type="application/json">')[1]
        .split("</script>")[0]
    )
    dark_turns = [t for t in data["turns"] if t["side"] == "dark" and t["notation"]]
    assert dark_turns and all(t["analysis"]["alternatives"] for t in dark_turns)
    # Reasons arrive as sentences; DARK's steps in display numbering for arrows.
    assert isinstance(dark_turns[0]["analysis"]["alternatives"][0]["reasons"][0], str)
    assert all(isinstance(s["from"], (int, str)) for s in dark_turns[0]["steps"])


def test_review_and_status_are_private(client: Client, finished_game: Game, make_user: Any) -> None:
    client.force_login(make_user("mallory"))
    assert client.get(reverse("learning:review", args=[finished_game.pk])).status_code == 404
    assert (
        client.get(reverse("learning:analysis_status", args=[finished_game.pk])).status_code == 404
    )


def test_analysis_status_reports_progress(client_logged_in: Client, finished_game: Game) -> None:
    GameAnalysis.objects.create(
        game=finished_game, state=AnalysisState.RUNNING, turns_total=10, turns_done=4
    )
    body = client_logged_in.get(reverse("learning:analysis_status", args=[finished_game.pk])).json()
    assert body["state"] == "running" and body["done"] == 4 and body["progress"] == 0.4


# ---------------------------------------------------------------- hints


@pytest.fixture
def hint_game(user: Any) -> Game:
    pos = position(light={13: 1, 6: 14}, dark={10: 1, 24: 14})
    return services.start_game_from(user, "casual", pos, dice=[2, 1])


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_BROKER_URL="")
def test_a_hint_marks_the_game_and_gives_five_plays_with_reasons_in_each_language(
    user: Any, hint_game: Game
) -> None:
    """Asked as the socket's hint command does (on commit the hint runs on the
    in-process pool); the event carries every language."""
    from ai_worker import dispatch
    from games import services

    services.request_hint(hint_game.pk, user, hint_game.version)
    assert dispatch.wait_idle(60)
    hint_game.refresh_from_db()
    assert hint_game.hints_used
    event = hints.hint_event(Hint.objects.get(game=hint_game, version=hint_game.version))
    assert event["type"] == "hint" and event["version"] == hint_game.version
    body = event["by_language"]["en"]
    assert body["state"] == "done" and body["dice"] == [2, 1]
    assert 1 <= len(body["plays"]) <= 5
    best = body["plays"][0]
    assert best["steps"] and all({"from", "to"} <= set(s) for s in best["steps"])
    assert best["reasons"] and set(best["probs"]) >= {"win", "win_gammon", "win_backgammon"}
    # The play that leaves the blot in front of DARK's checker says 11 of 36.
    leaving = [p for p in body["plays"] if p["notation"] == "13/11 6/5"]
    assert leaving and any("11" in r and "36" in r for r in leaving[0]["reasons"])
    chinese = event["by_language"]["zh-hans"]["plays"][0]["reasons"]
    assert any(re.search(r"[\u4e00-\u9fff]", r) for r in chinese)


def test_a_hint_is_refused_when_it_is_not_the_persons_roll(user: Any, hint_game: Game) -> None:
    from games import services

    # The person plays the roll; the computer's turn is next.
    [best, *_] = rank_plays(reading.position_of(hint_game), Dice(*hint_game.dice), 1)
    game = person_plays(hint_game, best.play)
    assert game.turn == "dark"
    with pytest.raises(services.NotYourTurnError):
        services.request_hint(game.pk, user, game.version)
    assert not Hint.objects.exists()


def test_a_hint_never_changes_the_position_or_the_version(
    hint_game: Game,
) -> None:
    before = (hint_game.position_id, hint_game.version, hint_game.dice)
    hints.compute_hint(hint_game.pk, hint_game.version)
    hint_game.refresh_from_db()
    assert (hint_game.position_id, hint_game.version, hint_game.dice) == before
    assert Hint.objects.get(game=hint_game).state == "done"


# ---------------------------------------------------------------- stats and help


def test_dice_statistics_count_each_side_and_test_them(client_logged_in: Client, user: Any) -> None:
    # Opening 3-3 (re-rolled), 6-1: LIGHT plays 6-1; DARK 5-5, LIGHT 2-4, DARK 6-3.
    game = rolled(user, [(3, 3), (6, 1), (5, 5), (2, 4), (6, 3), (1, 2)], turns=4)
    assert game.opening_rolls == [[3, 3], [6, 1]]
    page = client_logged_in.get(reverse("learning:stats"))
    assert page.status_code == 200
    mine = dict(page.context["scopes"])["mine"]
    light, dark = mine
    # LIGHT: opening dice 3 and 6, then 2-4 (turn 1 is the opening pair).
    assert light["counts"].faces == (0, 1, 1, 1, 0, 1)
    assert light["counts"].roll_total == 1
    # DARK: opening dice 3 and 1, then 5-5 and 6-3.
    assert dark["counts"].faces == (1, 0, 2, 0, 2, 1)
    assert dark["counts"].doubles == 1
    assert dark["face_test"].df == 5 and 0 <= dark["face_test"].p_value <= 1
    assert b"p = " in page.content


def rolled(owner: Any, dice: list[tuple[int, ...]], turns: int) -> Game:
    """A game opened and played through the services on exactly ``dice``:
    the opening rolls (LIGHT's die, DARK's), then each later turn's two dice,
    and last the two rolled for the next turn, which is not played (``turns``
    turns are stored). Returns the game, checked to have them."""
    game = play_out(owner, None, dice=[d for pair in dice for d in pair], turns=turns)
    assert game.turns.count() == turns and game.dice == list(dice[-1])
    assert [t.dice for t in game.turns.order_by("number")][1:] == dice[-turns:-1]
    return game


def test_dice_statistics_are_counted_in_the_database_not_per_turn(
    user: Any, django_assert_num_queries: Any
) -> None:
    from learning.dice import stats as dicestats

    few = rolled(user, [(6, 1), (3, 3), (1, 2)], turns=2)
    with django_assert_num_queries(4):  # per side: one grouped turn query, one of openings
        small = dicestats.statistics(Game.objects.filter(pk=few.pk))
    # Five more games, each opened 2-2 (re-rolled), 6-1, then 12 later turns
    # alternating 1-6, 2-5, ... 6-1 from DARK.
    later = [(d, 7 - d) for d in range(1, 7)] * 2
    many = [rolled(user, [(2, 2), (6, 1), *later, (1, 2)], turns=13) for _ in range(5)]
    with django_assert_num_queries(4):
        large = dicestats.statistics(Game.objects.filter(pk__in=[few.pk, *(g.pk for g in many)]))
    assert small["dark"].rolls[dicestats.ROLL_KEYS.index((3, 3))] == 1
    assert large["dark"].roll_total == 1 + 30 and large["light"].roll_total == 30
    # DARK gets 1-6, 3-4, 5-2 twice a game, LIGHT 2-5, 4-3, 6-1. Opening dice
    # count by side, ties included: each game adds a 6 for LIGHT, a 2 for DARK.
    assert large["light"].faces[5] - small["light"].faces[5] == 5 * (1 + 2)
    assert large["dark"].faces[1] == 5 * (1 + 2)


def test_the_whole_sites_dice_are_cached(user: Any) -> None:
    from django.core.cache import cache

    from learning.dice import stats as dicestats

    cache.delete(dicestats.SITE_CACHE_KEY)
    rolled(user, [(6, 1), (3, 3), (1, 2)], turns=2)
    before = dicestats.site_statistics()
    rolled(user, [(5, 4), (2, 2), (1, 2)], turns=2)
    assert dicestats.site_statistics() == before  # the cached figures
    cache.delete(dicestats.SITE_CACHE_KEY)
    assert dicestats.site_statistics()["dark"].roll_total == before["dark"].roll_total + 1


@pytest.mark.parametrize("page", ["rules", "glossary", "faq"])
@pytest.mark.parametrize(("language", "phrase"), [("en", "bar"), ("zh-hans", "吧台")])
def test_help_pages_in_both_languages(
    client: Client, page: str, language: str, phrase: str
) -> None:
    client.cookies["django_language"] = language
    answer = client.get(reverse("learning:help_page", args=[page]), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert phrase in answer.content.decode()


LESSON_LINK = re.compile(r'<a href="/learn/lesson/([a-z-]+)/">(?:第 (\d+) 课|lesson (\d+))</a>')


@pytest.mark.parametrize("page", ["rules", "glossary", "faq"])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_help_pages_send_to_the_course_and_name_its_lessons_by_their_number(
    client: Client, page: str, language: str
) -> None:
    client.cookies["django_language"] = language
    text = client.get(reverse("learning:help_page", args=[page])).content.decode()
    assert 'href="/learn/"' in text
    slugs = [lesson.slug for lesson in LESSONS]
    for slug, zh_number, en_number in LESSON_LINK.findall(text):
        assert int(zh_number or en_number) == slugs.index(slug) + 1, slug


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_each_rule_explained_links_to_a_lesson_that_practises_it(
    client: Client, language: str
) -> None:
    client.cookies["django_language"] = language
    text = client.get(reverse("learning:help_page", args=["rules"])).content.decode()
    linked = {slug for slug, _zh, _en in LESSON_LINK.findall(text)}
    not_rules = {"notation", "shots", "habits", "replies", "cube"}  # reading and playing well
    assert {lesson.slug for lesson in LESSONS} - linked == not_rules


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_faq_sends_someone_who_keeps_losing_to_the_habits_lesson(
    client: Client, language: str
) -> None:
    client.cookies["django_language"] = language
    text = client.get(reverse("learning:help_page", args=["faq"])).content.decode()
    losing = text.split('id="losing"')[1].split("<h2")[0]
    number = str([lesson.slug for lesson in LESSONS].index("habits") + 1)
    assert ("habits", number) in {(s, zh or en) for s, zh, en in LESSON_LINK.findall(losing)}


def test_help_has_the_four_diagrams(client: Client) -> None:
    text = (
        client.get(reverse("learning:help_page", args=["rules"])).content
        + client.get(reverse("learning:help_page", args=["glossary"])).content
    ).decode()
    for name in ("opening", "bearoff"):
        assert f'data-diagram="{name}"' in text
    for key in ("prime", "anchor"):  # the glossary's, one for each of its terms
        assert f'data-term-diagram="{key}"' in text


def test_the_hint_partial_for_the_play_page_renders_for_a_game(rf: Any, hint_game: Game) -> None:
    from django.template.loader import render_to_string

    html = render_to_string("learning/_hint.html", {"game": hint_game}, request=rf.get("/"))
    assert "data-hint-url" not in html, "the hint is asked for over the socket only"
    assert 'id="btn-hint"' in html and 'aria-keyshortcuts="H"' in html
    strings = html.split('id="hint-strings" type="application/json">')[1].split("</script>")[0]
    assert set(json.loads(strings)) >= {"thinking", "unavailable", "failed", "ready", "numbers"}
