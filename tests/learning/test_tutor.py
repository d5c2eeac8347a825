"""教练模式 in the services that commit: a play or a cube action the tutor
warns of is not committed; 仍然这样走 commits it; 撤销重走 then the best play
commits unwarned; a ranking not there lets the turn through, said so, and
the writer never waits for it; the warning's words are made after it.

The ranking is the real one (the Expert's depth, bgsage), put in the shared
cache as the ``hints`` queue's task puts it (``learning.tutor.prepare``).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from accounts.models import Preferences
from ai_worker import dispatch, rank_cache
from games import services
from games.engine import Dice, Position, Side
from games.live.commands import CommandError, parse_command, run_command
from games.live.state import build_state
from games.models import Game, GameKind, Status
from games.signals import person_to_decide
from games.tutor import pending_warning
from learning import tutor
from learning.words.coach import unmarked
from tests.games.fixtures_sockets import TIMEOUT, connect_socket

pytestmark = pytest.mark.django_db

# The opening 31 from the person's side: 8/5 6/5 is the best by far; 13/10
# 6/5 gives away ~0.18 at the Expert's depth (very bad).
BEST = [(8, 5), (6, 5)]
ERROR = [(13, 10), (6, 5)]


def tutor_on(user: Any, level: str = "bad", **fields: Any) -> None:
    Preferences.objects.update_or_create(
        user=user, defaults={"tutor": level, "auto_end_turn": False, **fields}
    )


def opening_31(user: Any, ready: bool = True) -> Game:
    game = services.start_game_from(user, "casual", Position.start(), dice=[3, 1])
    if ready:
        tutor.prepare(game.pk, game.version)
    return game


def play(game: Game, user: Any, steps: list[tuple[int, int]]) -> Game:
    for src, dst in steps:
        game = services.make_step(game.pk, user, game.version, src, dst)
    return game


def reply_of(game: Game) -> dict[str, Any] | None:
    """What the state (and so the command's ack) says of the tutor, from the row."""
    return pending_warning(game)


def worded(game: Game, language: str) -> dict[str, Any]:
    """The words job of the warning saved on ``game`` (as the ``hints``
    queue runs it after commit); its words in ``language``, from the row."""
    tutor.word_warning(game.pk, game.version)
    said = pending_warning(Game.objects.get(pk=game.pk))
    assert said is not None
    words: dict[str, Any] = said["warning"]["words"][language]
    return words


@pytest.mark.usefixtures("fresh_cache")
def test_with_the_tutor_off_a_blunder_commits_at_once(user: Any) -> None:
    Preferences.objects.update_or_create(user=user, defaults={"auto_end_turn": False})
    game = play(opening_31(user, ready=False), user, ERROR)
    game = services.end_turn(game.pk, user, game.version)
    assert game.turn == Side.DARK.value and reply_of(game) is None
    assert (game.tutored, game.tutor_warnings) == (False, [])


@pytest.mark.usefixtures("fresh_cache")
@pytest.mark.parametrize(("language", "words"), [("zh-hans", "期望值"), ("en", "equity")])
def test_a_blunder_is_warned_with_its_cost_and_why_and_not_committed(
    user: Any, language: str, words: str
) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    with translation.override(language):
        warned = services.end_turn(game.pk, user, game.version)
    said = reply_of(warned)
    assert said is not None
    warning = said["warning"]
    assert warned.turn == Side.LIGHT.value and warned.steps, "the play is still the person's"
    assert warned.version == game.version + 1 == said["version"]
    assert warning["error"] == "very_bad" and 0.12 <= warning["lost"] < 0.5
    assert warning["best"] == "8/5 6/5" and warning["played"] == "13/10 6/5"
    assert [(s["from"], s["to"]) for s in warning["best_steps"]] == BEST
    assert warning["words"] == {}, "the words are made after the commit"
    said_words = unmarked(worded(warned, language))
    # At most three lines first: what it costs (the chance to win it gives
    # up, the unit said), what the best play does better, the best play.
    cost, why, best = said_words["lead"]
    chinese = language == "zh-hans"
    title = "大错" if chinese else "Very bad"
    assert title in said_words["title"]
    assert re.search(r"\d+%", cost) and ("赢这盘的机会" if chinese else "chances to win") in cost
    assert ("最佳走法" if chinese else "The best play") in why
    assert "8/5 6/5" in best and "13/10" not in best
    # Behind 详细: the figure as the review counts it, with its unit and class.
    assert any(f"{warning['lost']:.3f}" in line and title in line for line in said_words["details"])
    assert words in " ".join(said_words["details"])
    assert not chinese or all(line[-1] in "。）" for line in said_words["lead"])
    stored = Game.objects.get(pk=game.pk)
    assert stored.tutored and stored.turn == Side.LIGHT.value
    assert [(w["played"], w["outcome"]) for w in stored.tutor_warnings] == [
        ("13/10 6/5", "pending")
    ]
    # Asked again (a second tab, a reload): warned again, one warning kept.
    again = services.end_turn(game.pk, user, warned.version)
    assert reply_of(again) is not None and again.turn == Side.LIGHT.value
    assert len(Game.objects.get(pk=game.pk).tutor_warnings) == 1


@pytest.mark.usefixtures("fresh_cache")
def test_play_it_anyway_commits_and_records_the_override(user: Any) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    warned = services.end_turn(game.pk, user, game.version)
    done = services.end_turn(game.pk, user, warned.version, anyway=True)
    assert done.turn == Side.DARK.value and done.last_turn["notation"] == "13/10 6/5"
    assert [(w["played"], w["outcome"]) for w in done.tutor_warnings] == [
        ("13/10 6/5", "overridden")
    ]


@pytest.mark.usefixtures("fresh_cache")
def test_undo_then_the_best_play_commits_unwarned_and_counts_as_followed(user: Any) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    warned = services.end_turn(game.pk, user, game.version)
    undone = services.undo_step(game.pk, user, warned.version, whole=True)
    assert undone.steps == []
    done = services.end_turn(game.pk, user, play(undone, user, BEST).version)
    assert done.turn == Side.DARK.value and reply_of(done) is None
    assert done.last_turn["notation"] == "8/5 6/5"
    assert [(w["played"], w["outcome"]) for w in done.tutor_warnings] == [("13/10 6/5", "changed")]


@pytest.mark.usefixtures("fresh_cache")
def test_the_automatic_end_keeps_the_step_and_warns(user: Any) -> None:
    tutor_on(user, auto_end_turn=True)
    game = play(opening_31(user), user, ERROR)
    assert game.turn == Side.LIGHT.value and len(game.steps) == 2
    said = reply_of(game)
    assert said is not None and said["warning"]["error"] == "very_bad"


@pytest.mark.usefixtures("fresh_cache", "rankings_held")
def test_a_ranking_not_there_lets_the_turn_through_at_once_recorded_unchecked(
    user: Any, client: Any
) -> None:
    # The writer never waits (the socket waits before it runs the command:
    # test_tutor_socket.py): the judge finds no ranking, the turn commits.
    tutor_on(user)
    game = play(opening_31(user, ready=False), user, ERROR)
    began = time.monotonic()
    done = services.end_turn(game.pk, user, game.version)
    assert time.monotonic() - began < 0.5
    assert done.turn == Side.DARK.value and done.tutored
    said = reply_of(done)
    assert said is not None and said["unchecked"] and said["message"]
    assert (said["version"], said["command"]) == (done.version, "end_turn")
    assert done.tutor_warnings[-1]["outcome"] == "unchecked"
    # Not a warning: the review lists none.
    assert tutor.warnings_of(done) == []


@pytest.mark.usefixtures("fresh_cache")
def test_a_ranking_asked_after_a_step_ranks_the_decision_all_the_same(user: Any) -> None:
    # The worker took the ranking once the person had moved a checker: the
    # decision is the same, and it is ranked (it once waited End turn a
    # second for nothing: bench/tutor.py).
    tutor_on(user)
    game = opening_31(user, ready=False)
    asked_at = game.version
    game = play(game, user, ERROR[:1])
    assert game.version > asked_at
    tutor.prepare(game.pk, asked_at)
    assert rank_cache.peek_plays(Position.start(), Dice(3, 1), tutor.expert_ply()) is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_a_roll_goes_to_the_tutor_with_its_position_and_dice_and_ranks_without_the_row(
    user: Any, settings: Any, django_assert_num_queries: Any
) -> None:
    # The new roll's ranking reads no row: what it ranks comes with the ask.
    settings.CELERY_BROKER_URL = ""
    asked: list[dict[str, Any]] = []

    def heard(sender: Any, **kwargs: Any) -> None:
        asked.append(kwargs)

    person_to_decide.connect(heard, dispatch_uid="test.heard")
    try:
        tutor_on(user)
        game = opening_31(user, ready=False)
    finally:
        person_to_decide.disconnect(dispatch_uid="test.heard")
    assert [(a["game_id"], a["position_id"], a["dice"]) for a in asked] == [
        (game.pk, Position.start().position_id(), [3, 1])
    ]
    assert dispatch.wait_idle()  # the ranking the ask queued here, done
    cache.clear()
    with django_assert_num_queries(0):
        tutor.prepare(**{k: asked[0][k] for k in ("game_id", "version", "position_id", "dice")})
    assert rank_cache.peek_plays(Position.start(), Dice(3, 1), tutor.expert_ply()) is not None


# 8/7 8/5 with the opening 31: the ranking's filter leaves it at 1-ply.
SHALLOW = [(8, 7), (8, 5)]


@pytest.mark.usefixtures("fresh_cache")
def test_a_play_searched_at_commit_stays_searched_for_play_it_anyway(user: Any) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, SHALLOW)
    key = (Position.start(), Dice(3, 1), tutor.expert_ply())
    before = rank_cache.peek_plays(*key)
    assert before is not None
    (shallow,) = [r for r in before if r.play.notation() == "8/7 8/5"]
    assert shallow.ply < tutor.expert_ply()
    warned = services.end_turn(game.pk, user, game.version)
    assert reply_of(warned) is not None
    after = rank_cache.peek_plays(*key)
    assert after is not None
    (searched,) = [r for r in after if r.play.notation() == "8/7 8/5"]
    assert searched.ply == tutor.expert_ply()
    # 仍然这样走 and the review read that value: the warning's loss is the one recorded.
    done = services.end_turn(game.pk, user, warned.version, anyway=True)
    lost = after[0].equity - searched.equity
    assert done.tutor_warnings[-1]["lost"] == pytest.approx(lost, abs=1e-4)


@pytest.mark.usefixtures("fresh_cache")
def test_the_level_decides_what_is_warned(user: Any) -> None:
    # 13/10 6/5 is very bad: warned at every level; the best play at none.
    for level in ("doubtful", "bad", "very_bad"):
        tutor_on(user, level)
        game = play(opening_31(user), user, ERROR)
        assert reply_of(services.end_turn(game.pk, user, game.version)) is not None, level
    game = play(opening_31(user), user, BEST)
    assert services.end_turn(game.pk, user, game.version).turn == Side.DARK.value


def doubled_at_the_start(user: Any) -> Game:
    """A money game at the opening position, the computer has just doubled:
    a clear take for the person."""
    game = services.start_game_from(
        user, "casual", Position.start(), Side.DARK, kind=GameKind.MONEY
    )
    assert game.status == Status.DECIDING
    assert services.finish_computer_cube(game.pk, game.version, "double")
    game = Game.objects.get(pk=game.pk)
    tutor.prepare(game.pk, game.version)
    return game


@pytest.mark.usefixtures("fresh_cache")
def test_passing_a_clear_take_is_warned_before_it_is_sent(user: Any) -> None:
    tutor_on(user)
    game = doubled_at_the_start(user)
    warned = services.pass_double(game.pk, user, game.version)
    said = reply_of(warned)
    assert said is not None
    warning = said["warning"]
    assert (warned.status, warned.winner) == (Status.DOUBLED, "")
    assert warning["kind"] == "cube" and warning["error"] == "very_bad"
    assert said["command"] == "pass" and warning["best"] == "take"
    words = unmarked(worded(warned, "en"))
    cost, _why, right = words["lead"]
    assert "Pass" in cost and "points over 100 games" in cost and "Take" in right
    assert "放弃" in unmarked(worded(warned, "zh-hans"))["lead"][0]
    done = services.pass_double(game.pk, user, warned.version, anyway=True)
    assert done.winner == "dark" and done.passed
    assert [(w["kind"], w["played"], w["outcome"]) for w in done.tutor_warnings] == [
        ("cube", "pass", "overridden")
    ]


@pytest.mark.usefixtures("fresh_cache")
def test_taking_the_clear_take_is_not_warned(user: Any) -> None:
    tutor_on(user, "doubtful")
    game = doubled_at_the_start(user)
    taken = services.take(game.pk, user, game.version)
    assert taken.cube_owner == "light" and reply_of(taken) is None


@pytest.mark.usefixtures("fresh_cache")
def test_the_socket_command_carries_the_warning_and_play_it_anyway(user: Any) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    frame = json.dumps({"type": "end_turn", "id": "e1", "version": game.version})
    with translation.override("zh-hans"):
        reply, state = run_command(game.pk, user, parse_command(frame))
    assert reply["type"] == "ack" and reply["tutor"]["command"] == "end_turn"
    assert reply["tutor"]["warning"]["error"] == "very_bad"
    assert state is not None and state["turn"] == "light" and state["tutor"] == reply["tutor"]
    frame = json.dumps(
        {"type": "end_turn", "id": "e2", "version": reply["version"], "anyway": True}
    )
    reply, state = run_command(game.pk, user, parse_command(frame))
    assert "tutor" not in reply and state is not None and state["turn"] == "dark"
    with pytest.raises(CommandError) as bad:
        parse_command('{"type": "end_turn", "id": "e3", "version": 1, "anyway": "yes"}')
    assert "anyway" in bad.value.message


@pytest.mark.usefixtures("fresh_cache")
def test_the_hint_and_the_review_read_the_tutors_ranking(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ai_worker import evaluator
    from learning import hints
    from learning.review import game as review

    game = opening_31(user)
    position, dice = Position.start(), Dice(3, 1)
    cached = rank_cache.peek_plays(position, dice, tutor.expert_ply())
    assert cached is not None and cached[0].play.notation() == "8/5 6/5"
    real = evaluator.rank_plays
    searched: list[tuple[str, int]] = []

    def counting(position: Position, dice: Dice, ply: int = 1, *args: Any, **kw: Any) -> Any:
        searched.append((f"{dice.d1}{dice.d2}", ply))
        return real(position, dice, ply, *args, **kw)

    monkeypatch.setattr(evaluator, "rank_plays", counting)
    hints.compute_hint(game.pk, game.version)
    assert searched == [], "the hint read the tutor's ranking"
    assert game.hints.get(version=game.version).candidates[0]["notation"] == "8/5 6/5"
    # The review of the best play (searched at the Expert's depth) reads it too.
    play(game, user, BEST)  # the turn ends by itself (the default)
    game = Game.objects.get(pk=game.pk)
    report = review.analyse_stored_turn(game.turns.get(number=1), 3, rank=review.default_rank)
    assert report.played == "8/5 6/5"
    assert ("31", tutor.expert_ply()) not in searched and ("13", tutor.expert_ply()) not in searched


def test_the_course_s_end_offers_the_tutor_and_one_click_turns_it_on(
    client: Any, user: Any
) -> None:
    from django.urls import reverse

    from learning.course.lessons import LESSONS
    from learning.course.models import LessonProgress

    client.force_login(user)
    course = reverse("learning:course")
    assert 'id="course-tutor"' not in client.get(course).content.decode()
    for lesson in LESSONS:
        LessonProgress.objects.create(owner=user, lesson=lesson.slug, stars=2)
    page = client.get(course, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'id="course-tutor"' in page and "打开教练模式" in page
    response = client.post(reverse("accounts:tutor_on"), {"next": course})
    assert response.status_code == 302 and response["Location"] == course
    assert Preferences.objects.get(user=user).tutor == "bad"
    assert 'id="course-tutor"' not in client.get(course).content.decode()


def test_the_writer_asks_the_judge_learning_installed_and_no_signal(user: Any) -> None:
    """One typed judge, set at start-up: no Signal answers inside the command."""
    from games import signals
    from games import tutor as seam

    assert seam._installed.judge is tutor.verdict and seam._installed.ranking is tutor.ranking
    assert not hasattr(signals, "tutor_check")
    assert not any(name.endswith("Error") for name in vars(seam)), "no exception for control"


# ---------------------------------------------------------------- the pending warning in the state


@pytest.mark.usefixtures("fresh_cache")
def test_every_state_at_the_warnings_version_carries_its_panel_until_the_game_moves_on(
    user: Any, client: Any
) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    warned = services.end_turn(game.pk, user, game.version)
    said = reply_of(warned)
    assert said is not None
    assert "大错" in worded(warned, "zh-hans")["title"]
    # A reload (the page's state, the HTTP state) reads the row: the same
    # panel, its words in each language once they are made.
    client.force_login(user)
    fetched = client.get(reverse("games:state", args=[game.pk])).json()
    expected = {"warning": fetched["tutor"]["warning"], "version": warned.version}
    assert {**expected, "command": "end_turn"} == fetched["tutor"]
    assert {**fetched["tutor"]["warning"], "words": {}} == said["warning"]
    assert set(fetched["tutor"]["warning"]["words"]) == {"zh-hans", "en"}
    assert "大错" in fetched["tutor"]["warning"]["words"]["zh-hans"]["title"]
    assert build_state(Game.objects.get(pk=game.pk))["tutor"] == fetched["tutor"]
    # 撤销重走: the game moves on, no state carries the panel any more.
    undone = services.undo_step(game.pk, user, warned.version, whole=True)
    assert build_state(Game.objects.get(pk=game.pk))["tutor"] is None
    done = services.end_turn(game.pk, user, play(undone, user, BEST).version)
    # Settled, the warning keeps what the review lists, not its panel.
    assert done.tutor_warnings == [
        {
            "turn": 1,
            "kind": "play",
            "dice": [3, 1],
            "played": "13/10 6/5",
            "best": "8/5 6/5",
            "error": "very_bad",
            "lost": said["warning"]["lost"],
            "outcome": "changed",
        }
    ]


@pytest.mark.usefixtures("fresh_cache")
def test_a_step_after_the_warning_closes_the_panel_and_another_error_is_warned_anew(
    user: Any,
) -> None:
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    warned = services.end_turn(game.pk, user, game.version)
    # One step back (not the whole turn): no panel at the new version.
    back = services.undo_step(game.pk, user, warned.version)
    assert build_state(back)["tutor"] is None
    # Another error of the same roll (24/23 24/21 gives away ~0.2, very bad):
    # its own panel; the first warning was followed.
    other = play(services.undo_step(game.pk, user, back.version), user, [(24, 21), (24, 23)])
    again = services.end_turn(game.pk, user, other.version)
    said = reply_of(again)
    assert said is not None and again.turn == Side.LIGHT.value
    pending = build_state(Game.objects.get(pk=game.pk))["tutor"]
    assert pending == {"warning": said["warning"], "version": again.version, "command": "end_turn"}
    played = said["warning"]["played"]
    assert played != "13/10 6/5"
    assert [(w["played"], w["outcome"]) for w in again.tutor_warnings] == [
        ("13/10 6/5", "changed"),
        (played, "pending"),
    ]
    assert "words" not in again.tutor_warnings[0], "a settled warning keeps no panel"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_cache")
def test_a_second_socket_opens_on_the_panel_and_a_stale_anyway_is_refused_in_words(
    user: Any, settings: Any
) -> None:
    settings.CELERY_BROKER_URL = ""  # the words job on this process's own pool
    tutor_on(user)
    game = play(opening_31(user), user, ERROR)
    async_to_sync(_two_tabs)(game, user)
    stored = Game.objects.get(pk=game.pk)
    assert stored.turn == Side.LIGHT.value and stored.steps == []
    assert [(w["played"], w["outcome"]) for w in stored.tutor_warnings] == [
        ("13/10 6/5", "pending")
    ]


async def _two_tabs(game: Game, user: Any) -> None:
    first, _state = await connect_socket(game.pk, user, language=b"en")
    await first.send_json_to({"type": "end_turn", "id": "e1", "version": game.version})
    ack = await first.receive_json_from(TIMEOUT)
    shown = await first.receive_json_from(TIMEOUT)
    assert ack["type"] == "ack" and ack["tutor"]["warning"]["error"] == "very_bad"
    assert ack["tutor"]["warning"]["words"] == {}
    panel = {"warning": ack["tutor"]["warning"], "version": ack["version"], "command": "end_turn"}
    assert shown["type"] == "state" and shown["tutor"] == panel
    # The words come after the warning, in the page's language, pushed like a hint.
    words = await first.receive_json_from(TIMEOUT)
    assert words["type"] == "tutor_words" and words["version"] == ack["version"]
    assert words["words"]["title"] == "The tutor: Very bad" and len(words["words"]["lead"]) == 3
    # A second tab (or the page reloaded): its first state shows the same
    # panel, with the words the row now keeps in each language.
    second, opened = await connect_socket(game.pk, user, language=b"en")
    assert opened["version"] == ack["version"]
    assert opened["tutor"]["warning"]["words"]["en"] == words["words"]
    assert "大错" in opened["tutor"]["warning"]["words"]["zh-hans"]["title"]
    panel["warning"] = {**panel["warning"], "words": opened["tutor"]["warning"]["words"]}
    assert opened["tutor"] == panel
    # 撤销重走 in the first tab: the panel goes in both.
    undo = {"type": "undo", "id": "u1", "version": ack["version"], "whole": True}
    await first.send_json_to(undo)
    assert (await first.receive_json_from(TIMEOUT))["type"] == "ack"
    assert (await first.receive_json_from(TIMEOUT))["tutor"] is None
    pushed = await second.receive_json_from(TIMEOUT)
    assert pushed["version"] == ack["version"] + 1 and pushed["tutor"] is None
    # 仍然这样走 from the second tab, made on the warning's version: refused in words.
    stale = {"type": "end_turn", "id": "k1", "version": ack["version"], "anyway": True}
    await second.send_json_to(stale)
    refused = await second.receive_json_from(TIMEOUT)
    assert refused["type"] == "error" and refused["code"] == "stale"
    assert refused["message"] == "The game has moved on; here is the current position."
    current = await second.receive_json_from(TIMEOUT)
    assert current["version"] == ack["version"] + 1 and current["steps"] == []
    await first.disconnect()
    await second.disconnect()


def test_the_computers_new_state_goes_out_before_the_tutor_is_asked(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """After the computer's turn the person's roll is pushed first; the
    owner's tutor level is read and the ranking asked for only then, so the
    tutor never delays the reply the person waits for."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.signals import person_to_decide, state_changed

    tutor_on(user)
    game = services.start_game_from(user, "casual", Position.start(), dice=[3, 1])
    game = play(game, user, BEST)
    game = services.end_turn(game.pk, user, game.version)
    assert game.turn == Side.DARK.value
    heard: list[tuple[str, int]] = []

    def on_state(sender: Any, game: Game, **kwargs: Any) -> None:
        heard.append(("state", len(queries.captured_queries)))

    def on_decide(sender: Any, game_id: int, version: int, **kwargs: Any) -> None:
        heard.append(("tutor", version))

    state_changed.connect(on_state, dispatch_uid="test-order-state")
    person_to_decide.connect(on_decide, dispatch_uid="test-order-decide")
    try:
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            # The computer's roll and play: its next decision is the person's.
            play_out = services.computer_due(game.pk, game.version)
            assert play_out is not None
            from ai_worker import turns

            assert turns.run_computer_turn(game.pk, game.version, play_out)
    finally:
        state_changed.disconnect(dispatch_uid="test-order-state")
        person_to_decide.disconnect(dispatch_uid="test-order-decide")
    after = Game.objects.get(pk=game.pk)
    assert after.turn == Side.LIGHT.value
    assert [kind for kind, _ in heard] == ["state", "tutor"]
    assert heard[1] == ("tutor", after.version)
    # No read of the owner's preferences came before the state went out.
    before_state = queries.captured_queries[: heard[0][1]]
    assert not [q for q in before_state if "accounts_" in q["sql"]]


@pytest.mark.usefixtures("fresh_cache")
def test_a_money_games_warning_says_its_figure_with_the_cube(user: Any) -> None:
    # The same error in a money game: ranked in the game's unit (cubeful
    # money equity, ai_worker.context), the figure said in it.
    tutor_on(user)
    game = services.start_game_from(
        user, "casual", Position.start(), dice=[3, 1], kind=GameKind.MONEY
    )
    tutor.prepare(game.pk, game.version)
    game = play(game, user, ERROR)
    warned = services.end_turn(game.pk, user, game.version)
    said = reply_of(warned)
    assert said is not None and said["warning"]["error"] == "very_bad"
    for language, cube, cubeful in (
        ("en", "the cube aside", "cubeful"),
        ("zh-hans", "不算倍数骰", "计入倍数骰"),
    ):
        words = unmarked(worded(warned, language))
        assert cube in words["lead"][0] and cubeful in words["details"][-1], words


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_in_a_match_the_cost_is_the_chance_to_win_the_match(language: str) -> None:
    from ai_worker.context import CubeContext, mwc_of
    from games.engine import Cube, Match
    from learning.glossary.marks import plain
    from learning.words.coach import cost

    context = CubeContext(Cube(), Match(length=5, light=2, dark=3), Side.LIGHT)
    chances = {"win": 0.5, "win_gammon": 0.1, "win_backgammon": 0.0}
    chances |= {"lose_gammon": 0.1, "lose_backgammon": 0.0}
    with translation.override(language):
        said = plain(cost(chances, chances, 0.1, context))
    drop = mwc_of(context, 0.1) * 100
    assert 1 < drop < 10 and f"{drop:.0f}%" in said
    assert ("比赛" if language == "zh-hans" else "the match") in said
