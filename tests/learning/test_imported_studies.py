"""An imported match is a study object (issue 32, item 4): in none of the
person's counts, progress, practice or dice statistics unless they named
their side, and then only that side. Real files, imported through
games.services, reviewed by the real analysis at 1-ply; the expected counts
are read from the file itself (its games' winners and points), not from what
the import stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from ai_worker.evaluator import rank_plays
from games.engine import Position, Side
from games.engine.matfile import parse_mat
from games.engine.matreplay import replay_match
from games.matfiles import export_text
from games.models import Game
from games.services import import_match_file
from learning import history
from learning.dice import stats as dicestats
from learning.models import PracticeItem
from learning.review import game as review
from learning.study import practice, progress
from tests.learning.conftest import RACE, play_out

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
DATA = Path(__file__).resolve().parents[1] / "data"
MATCH = "gnubg_match3_short.mat"


def one_ply(
    position: Position, dice: Any, ply: int, keep: Any = None, shown: int = 2, context: Any = None
) -> Any:
    """The real evaluator at 1-ply: a review fast enough for a unit test."""
    return rank_plays(position, dice, 1, context=context)


def worst(ranked: list[Any]) -> Any:
    return ranked[-1]


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def file_record(text: str, side: Side) -> dict[str, int]:
    """What the file says ``side``'s player won and lost: games and points (a
    match counts at most what a side needed)."""
    record = parse_mat(text)
    out = {"games": 0, "wins": 0, "losses": 0, "points_won": 0, "points_lost": 0}
    for game in replay_match(record).games:
        end = game.end
        if end is None:
            continue
        points = min(end.points, game.match.away(end.winner)) if record.length else end.points
        out["games"] += 1
        mine = end.winner is side
        out["wins" if mine else "losses"] += 1
        out["points_won" if mine else "points_lost"] += points
    return out


def reviewed_import(user: Any, side: Side | None) -> list[Game]:
    games = import_match_file(user, read(MATCH), side).games
    for game in games:
        review.run_analysis(game.pk, rank=one_ply)
    return games


def snapshot(user: Any) -> dict[str, Any]:
    """Everything of the person's that an import could change."""
    mine = history.games_of(user)
    graph = progress.progress_of(mine)
    return {
        "totals": history.totals(mine),
        "dots": [p.game_id for p in graph["points"]] if graph else [],
        "practice": sorted(practice.items_of(user).values_list("pk", flat=True)),
        "dice": dicestats.statistics_of(user),
    }


@pytest.fixture
def played(user: Any) -> Game:
    """One game the person played on the site, the worst play each turn, reviewed."""
    game = play_out(user, RACE, seed=3, light_choice=worst)
    review.run_analysis(game.pk, rank=one_ply)
    practice.add_from_reviews(user)
    return game


@pytest.fixture
def erring_file(make_user: Any) -> str:
    """A match file whose left player (another account's person) plays the
    worst play every turn: its review marks mistakes on the left side."""
    game = play_out(make_user("bea"), None, seed=4, light_choice=worst)
    assert game.status == "finished"
    return export_text(game)


def imported_reviewed(user: Any, text: str, side: Side | None) -> list[Game]:
    games = import_match_file(user, text, side).games
    for game in games:
        review.run_analysis(game.pk, rank=one_ply)
    return games


def test_a_study_is_in_no_count_graph_practice_or_dice_of_the_persons(
    user: Any, played: Game, make_user: Any, erring_file: str
) -> None:
    before = snapshot(user)
    assert before["totals"]["games"] == 1 and before["dots"] == [played.pk]
    assert before["practice"], "the played game's mistakes are practised"
    studies = reviewed_import(user, None) + imported_reviewed(user, erring_file, None)
    assert len(studies) == file_record(read(MATCH), Side.LIGHT)["games"] + 1
    assert practice.add_from_reviews(user) == 0  # the study's mistakes are not the person's
    assert snapshot(user) == before
    # The same erring file with its left side named: its mistakes are practised.
    cat = make_user("cat")
    claimed = imported_reviewed(cat, erring_file, Side.LIGHT)
    assert practice.add_from_reviews(cat) > 0
    assert set(practice.items_of(cat).values_list("turn__analysis__game", flat=True)) == {
        claimed[0].pk
    }
    # Kept apart, with both names from the file; reviewed all the same.
    assert {g.pk for g in history.studies_of(user)} == {g.pk for g in studies}
    assert {g.file_players for g in history.studies_of(user)} == {
        ("alice", "bob"),
        ("bea", "Shuanglu-casual"),
    }
    assert all(g.is_study for g in history.studies_of(user))
    assert progress.reviewed(Game.objects.filter(pk__in=[g.pk for g in studies])) == []
    # The site's dice are the site's: an imported game's were rolled elsewhere.
    cache.delete(dicestats.SITE_CACHE_KEY)
    site = dicestats.site_statistics()
    bea = get_user_model().objects.get(username="bea")
    for side in ("light", "dark"):
        played_here = [dicestats.statistics_of(u)[side] for u in (user, bea)]
        assert site[side].dice == sum(c.dice for c in played_here) > 0


@pytest.mark.parametrize("side", [Side.LIGHT, Side.DARK])
def test_a_named_side_counts_and_only_that_side(user: Any, played: Game, side: Side) -> None:
    before = snapshot(user)
    games = reviewed_import(user, side)
    expected = file_record(read(MATCH), side)
    after = history.totals(history.games_of(user))
    assert {k: after[k] - before["totals"][k] for k in after} == expected
    assert expected["wins"] and expected["losses"]  # the two sides differ: each one is checked
    names = parse_mat(read(MATCH)).players
    mine, theirs = (names[0], names[1]) if side is Side.LIGHT else (names[1], names[0])
    assert {g.file_players for g in games} == {(mine, theirs)}
    assert history.studies_of(user).count() == 0
    graph = progress.progress_of(history.games_of(user))
    assert graph is not None
    assert [p.game_id for p in graph["points"]][-len(games) :] == [g.pk for g in games]


def test_practice_made_from_a_file_before_studies_were_kept_apart_is_not_offered(
    user: Any, played: Game, erring_file: str
) -> None:
    games = imported_reviewed(user, erring_file, Side.LIGHT)
    practice.add_from_reviews(user)
    from_file = PracticeItem.objects.filter(owner=user, turn__analysis__game__in=games)
    own = set(practice.items_of(user).values_list("pk", flat=True))
    assert from_file.exists() and set(from_file.values_list("pk", flat=True)) <= own
    source = games[0].imported_from
    assert source is not None
    source.claimed = False  # as every file imported before migration 0011 is
    source.save(update_fields=["claimed"])
    offered = set(practice.items_of(user).values_list("pk", flat=True))
    assert offered == own - set(from_file.values_list("pk", flat=True))
    assert offered, "the played game's items are still offered"


def test_the_history_page_lists_a_study_apart_with_the_files_names(
    client_logged_in: Client, user: Any, played: Game
) -> None:
    page = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="history-studies"' not in page
    studies = import_match_file(user, read(MATCH)).games
    page = client_logged_in.get("/learn/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    main = page[page.index('id="history-games"') : page.index('id="history-studies"')]
    start = page.index('id="history-studies"')
    apart = page[start : page.index("</table>", start)]
    assert f'data-game="{played.pk}"' in main
    assert all(f'data-game="{g.pk}"' not in main for g in studies)
    assert all(f'data-game="{g.pk}"' in apart for g in studies)
    assert "alice against bob" in apart and "Casual" not in apart
    only = client_logged_in.get("/learn/history/?source=imported", HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = only.content.decode()
    assert 'id="history-totals"' not in text and 'id="progress"' not in text
    assert f'data-game="{played.pk}"' not in text
    assert text.count("alice 对 bob") == len(studies)
