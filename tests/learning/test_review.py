"""learning.review.game: the post-game analysis job, in-process, on a real game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.live import broadcast
from games.models import Game, Turn
from games.signals import game_finished
from learning.models import AnalysisState, GameAnalysis, TurnAnalysis
from learning.review import game as review

pytestmark = pytest.mark.django_db


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, Any]]]:
    sent: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(broadcast, "send_to_game", lambda gid, payload: sent.append((gid, payload)))
    return sent


@pytest.mark.slow
def test_every_turn_of_both_sides_is_analysed_with_progress(
    finished_game: Game, pushed: list[tuple[int, dict[str, Any]]]
) -> None:
    review.run_analysis(finished_game.pk)
    row = GameAnalysis.objects.get(game=finished_game)
    turns = Turn.objects.filter(game=finished_game).count()
    assert row.state == AnalysisState.DONE
    assert row.turns_done == row.turns_total == turns
    assert TurnAnalysis.objects.filter(analysis=row).count() == turns
    assert {t.side for t in row.turns.all()} == {"light", "dark"}
    # One progress event per turn plus the final one, counting up to done.
    progress = [p for gid, p in pushed if gid == finished_game.pk and p["type"] == "analysis"]
    assert [p["done"] for p in progress[:-1]] == list(range(1, turns + 1))
    assert progress[-1]["state"] == "done"


@pytest.mark.slow
def test_each_turn_has_alternatives_luck_and_a_win_chance(finished_game: Game) -> None:
    review.run_analysis(finished_game.pk)
    analysed = list(TurnAnalysis.objects.filter(analysis__game=finished_game))
    for t in analysed:
        assert 0.0 <= t.win_light <= 1.0
        assert t.luck is not None
    played = [t for t in analysed if t.turn.steps]
    assert played, "the game has turns with a play"
    for t in played:
        assert t.report["played"] == t.turn.notation
        assert t.report["alternatives"], "a turn with a play lists the best plays"
        assert t.report["alternatives"][0]["reasons"]
        assert t.equity_lost >= 0
    # The winner's last turn leaves it certain to have won.
    last = TurnAnalysis.objects.filter(analysis__game=finished_game).order_by("-number").first()
    assert last is not None
    assert last.win_light == pytest.approx(
        1.0 if finished_game.winner == "light" else 0.0, abs=0.02
    )


@pytest.mark.slow
def test_the_summary_counts_decisions_and_classes_per_side(finished_game: Game) -> None:
    review.run_analysis(finished_game.pk)
    row = GameAnalysis.objects.get(game=finished_game)
    for side in ("light", "dark"):
        s = row.summary[side]
        turns = TurnAnalysis.objects.filter(analysis=row, side=side)
        unforced = [t for t in turns if not t.forced]
        assert s["decisions"] == len(unforced)
        assert s["counts"]["very_bad"] == turns.filter(error_class="very_bad").count()
        assert unforced, f"{side} has decisions to make in this game"
        assert s["error_rate"] == pytest.approx(
            sum(t.equity_lost for t in unforced) / len(unforced)
        )
        assert s["rating"]


@pytest.mark.slow
def test_running_it_again_changes_nothing(finished_game: Game) -> None:
    review.run_analysis(finished_game.pk)
    first = list(TurnAnalysis.objects.values_list("pk", "equity_lost"))
    review.run_analysis(finished_game.pk)
    assert list(TurnAnalysis.objects.values_list("pk", "equity_lost")) == first


@pytest.mark.slow
def test_a_review_cut_short_resumes_after_the_last_stored_turn(
    finished_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = review.analyse_stored_turn

    def flaky(turn: Turn, *args: Any, **kwargs: Any) -> Any:
        calls.append(turn.number)
        if turn.number == 3 and calls.count(3) == 1:
            raise RuntimeError("worker lost")
        return real(turn, *args, **kwargs)

    monkeypatch.setattr(review, "analyse_stored_turn", flaky)
    with pytest.raises(RuntimeError):
        review.run_analysis(finished_game.pk)
    assert GameAnalysis.objects.get(game=finished_game).state == AnalysisState.FAILED
    review.run_analysis(finished_game.pk)
    assert calls.count(1) == 1 and calls.count(3) == 2
    assert GameAnalysis.objects.get(game=finished_game).state == AnalysisState.DONE


def test_an_unfinished_game_is_not_analysed(user: Any) -> None:
    game = services.start_game(user, "casual")
    review.run_analysis(game.pk)
    assert not GameAnalysis.objects.filter(game=game).exists()


def test_the_game_finished_signal_queues_the_review(
    finished_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[int] = []
    monkeypatch.setattr("learning.tasks.enqueue_review", queued.append)
    game_finished.send(sender=Game, game_id=finished_game.pk)
    assert queued == [finished_game.pk]
    assert GameAnalysis.objects.get(game=finished_game).state == AnalysisState.PENDING


def test_a_second_job_leaves_a_running_review_alone(finished_game: Game) -> None:
    row = GameAnalysis.objects.create(game=finished_game, state=AnalysisState.RUNNING)
    review.run_analysis(finished_game.pk)
    assert not TurnAnalysis.objects.filter(analysis=row).exists()
    # Once it has been silent for a minute, its worker is presumed lost.
    GameAnalysis.objects.filter(pk=row.pk).update(
        updated_at=timezone.now() - review.STALE_AFTER - timedelta(seconds=1)
    )
    review.run_analysis(finished_game.pk)
    assert GameAnalysis.objects.get(pk=row.pk).state == AnalysisState.DONE


@pytest.mark.slow
def test_the_review_is_one_level_deeper_than_the_expert_and_says_so(
    finished_game: Game, client_logged_in: Any
) -> None:
    from django.urls import reverse

    from games.tiers import Tier, tier_spec

    review.run_analysis(finished_game.pk)
    row = GameAnalysis.objects.get(game=finished_game)
    assert row.ply == tier_spec(Tier.EXPERT).ply + 1 == 3
    depths = {t.report["ply"] for t in row.turns.all() if not t.forced}
    assert depths == {3}  # one depth for every decision, said once on the page
    page = client_logged_in.get(
        reverse("learning:review", args=[finished_game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Every play of every decision is searched at 3-ply" in page.content.decode()
    # Each turn carries its depth to the page, as stored.
    replay = page.context["replay"]
    assert replay["review_ply"] == 3
    stored = {t.number: t.report["ply"] for t in row.turns.all()}
    shown = {t["number"]: t["analysis"]["ply"] for t in replay["turns"]}
    assert shown == stored
