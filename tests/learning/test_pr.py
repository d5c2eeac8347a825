"""PR (performance rating, XG's scale): the non-obvious rule on constructed
decisions, and the PR the pages show against a count of the stored losses."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ai_worker.analysis import analyse_turn
from ai_worker.evaluator import rank_plays
from ai_worker.grading import PR_BANDS, pr_band
from games.engine import Dice, Play, Position, legal_plays
from games.models import Game
from learning.models import CubeAnalysis, GameAnalysis, TurnAnalysis
from learning.review import game as review
from learning.review.pr import counts, pr_figures
from tests.boards import board
from tests.learning.conftest import RACE, play_out


@dataclass(frozen=True)
class _Probs:
    win: float = 0.5
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0


@dataclass(frozen=True)
class _Ranked:
    play: Play
    equity: float
    probs: _Probs = _Probs()


def _ranking(equities: Sequence[float]) -> Any:
    """A rank function giving the legal plays these equities, best first."""

    def rank(
        position: Position,
        dice: Dice,
        ply: int,
        keep: Play | None = None,
        shown: int = 2,
        context: Any = None,
    ) -> list[_Ranked]:
        plays = legal_plays(position, dice)[: len(equities)]
        return [_Ranked(p, e) for p, e in zip(plays, equities, strict=False)]

    return rank


def test_a_forced_play_is_left_out() -> None:
    # LIGHT's last two checkers on 1 and 2, DARK far away: 6-5 bears both off, one way.
    position = board(light={1: 1, 2: 1}, dark={24: 5, 23: 5, 22: 5})
    dice = Dice(6, 5)
    plays = legal_plays(position, dice)
    assert len({p.result for p in plays}) == 1
    report = analyse_turn(position, dice, plays[0], ply=1)
    assert report.forced and report.spread is None and report.equity_lost == 0.0


def test_every_play_with_a_choice_counts_as_gnu_backgammon_counts_it() -> None:
    # Plays all within a thousandth of each other count too (GNU Backgammon's
    # "unforced moves"; XG would leave them out as obvious).
    position = Position.start()
    dice = Dice(3, 1)
    played = legal_plays(position, dice)[2]
    close = analyse_turn(position, dice, played, ply=1, rank=_ranking([0.1, 0.0995, 0.0991]))
    assert not close.forced and close.spread == pytest.approx(0.0009)
    assert close.equity_lost == pytest.approx(0.0009)

    @dataclass
    class Stored:
        side: str
        forced: bool
        equity_lost: float
        report: dict[str, Any]

    turns = [
        Stored("light", False, 0.0009, {"spread": 0.0009}),
        Stored("light", False, 0.04, {"spread": 0.3}),
        Stored("light", True, 0.0, {}),
    ]
    assert [counts(t) for t in turns] == [True, True, False]
    figures = pr_figures("light", turns, [])
    assert figures["decisions"] == 2
    assert figures["checker"] == pytest.approx(500 * 0.0409 / 2, abs=0.01)
    assert figures["band"] == pr_band(10.22) == "advanced"


def test_the_bands_are_xgs() -> None:
    assert [b for _bound, b in PR_BANDS][:3] == ["world_champion", "world_class", "expert"]
    assert pr_band(2.5) == "world_champion" and pr_band(2.6) == "world_class"
    assert pr_band(25.0) == "beginner" and pr_band(31.0) == "novice"


def _erring(seed: int) -> Any:
    """A ``light_choice`` that plays one of the best three, seeded: the person errs."""
    rng = random.Random(seed)
    return lambda ranked: ranked[min(len(ranked) - 1, rng.randrange(3))]


def _reviewed(user: Any, seed: int) -> int:
    game = play_out(user, RACE, seed=seed, light_choice=_erring(seed))
    assert review.run_analysis(game.pk, rank=_one_ply)
    return game.pk


def _one_ply(
    position: Position,
    dice: Dice,
    ply: int,
    keep: Play | None = None,
    shown: int = 2,
    context: Any = None,
) -> Any:
    return rank_plays(position, dice, 1, keep, context=context)


def _counted_pr(side_turns: list[TurnAnalysis], side_cubes: list[CubeAnalysis]) -> float | None:
    """The outside count: the stored losses, forced plays left out, trivial
    no-doubles left out (GNU Backgammon's count)."""
    losses = [t.equity_lost for t in side_turns if not t.forced]
    losses += [c.equity_lost for c in side_cubes if not c.trivial]
    return 500 * sum(losses) / len(losses) if losses else None


SHOWN = re.compile(
    r'<tr data-side="(light|dark)">\s*<th scope="row">[^<]*</th>\s*'
    r'<td[^>]*class="num summary-pr" data-pr="([^"]*)"><span class="rate-rating">([\d.]+|—)'
)


@pytest.mark.slow  # 20 whole games, reviewed
@pytest.mark.django_db
def test_the_pr_shown_for_20_reviewed_games_is_the_stored_losses_counted(user: Any) -> None:
    client = Client()
    client.force_login(user)
    games = [_reviewed(user, seed) for seed in range(1, 21)]
    decisions, lost = 0, 0.0
    for game in games:
        row = GameAnalysis.objects.get(game_id=game)
        page = client.get(reverse("learning:review", args=[game])).content.decode()
        shown = {side: (stored, text) for side, stored, text in SHOWN.findall(page)}
        assert set(shown) == {"light", "dark"}
        for side in ("light", "dark"):
            turns = list(TurnAnalysis.objects.filter(analysis=row, side=side))
            cubes = list(CubeAnalysis.objects.filter(analysis=row, side=side))
            expected = _counted_pr(turns, cubes)
            stored, text = shown[side]
            decisions += sum(1 for t in turns if not t.forced)
            lost += sum(t.equity_lost for t in turns)
            # No counted decision shows a dash; otherwise the figure, to 0.005.
            want = ("", "—") if expected is None else (expected, f"{expected:.1f}")
            got = ("", text) if stored == "" else (pytest.approx(float(stored), abs=0.005), text)
            assert got == want
    assert decisions > 100 and lost > 0.5  # the games had decisions and errors to count


@pytest.mark.django_db
@pytest.mark.slow
def test_the_history_shows_sorts_and_filters_by_pr(user: Any) -> None:
    client = Client()
    client.force_login(user)
    for seed in range(1, 7):
        _reviewed(user, seed)
    prs = {
        r.game_id: r.summary["light"]["pr"]["overall"]
        for r in GameAnalysis.objects.filter(game__owner=user)
    }
    cells = re.compile(r'data-game="(\d+)">.*?class="history-pr">(.*?)</td>', re.S)

    def listed(query: str) -> list[tuple[int, str]]:
        page = client.get(reverse("learning:history") + query).content.decode()
        return [(int(g), cell) for g, cell in cells.findall(page)]

    rows = listed("?sort=pr")
    ordered = sorted((pr, g) for g, pr in prs.items() if pr is not None)
    assert [g for g, _c in rows][: len(ordered)] == [g for _pr, g in ordered]
    shown = {g: cell for g, cell in rows if prs[g] is not None}
    assert len(shown) == len(ordered)
    assert all(f"{prs[g]:.1f}" in cell for g, cell in shown.items())
    worst = listed("?sort=-pr")
    assert worst[0][0] == ordered[-1][1]
    band = pr_band(ordered[0][0])
    in_band = {g for g, pr in prs.items() if pr is not None and pr_band(pr) == band}
    assert {g for g, _c in listed(f"?band={band}")} == in_band


@pytest.mark.django_db
def test_the_luck_adjusted_result_is_the_result_less_both_sides_luck(user: Any) -> None:
    client = Client()
    client.force_login(user)
    game_id = _reviewed(user, 5)
    game = Game.objects.get(pk=game_id)
    assert not game.has_cube  # every turn at the cube's value 1
    luck = sum(
        (1 if t.side == "light" else -1) * (t.luck or 0.0)
        for t in TurnAnalysis.objects.filter(analysis__game=game)
    )
    points = game.points if game.winner == "light" else -game.points
    assert abs(luck) > 0.05  # the dice were not even: there is luck to take out
    page = client.get(reverse("learning:review", args=[game_id]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    shown = re.search(r'id="luck-result"[^>]*data-adjusted="([-\d.]+)"[^>]*>([^<]+)<', html)
    assert shown is not None
    assert float(shown.group(1)) == pytest.approx(points - luck, abs=0.001)
    words = shown.group(2)
    assert ("You won this game" if points > 0 else "You lost this game") in words
    behind = "behind" if points - luck < 0 else "ahead of"
    assert f"{abs(points - luck):.1f} points {behind} the computer" in words
    zh = client.get(reverse("learning:review", args=[game_id]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    zh = zh.content.decode()
    assert ("你赢了这一局" if points > 0 else "你输了这一局") in zh
    assert "除去运气" in zh
