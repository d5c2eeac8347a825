"""The N-ply values behind the review are sane at every node, not only at the top.

bgsage's own search cleans its leaves of impossible gammons and backgammons
and is exact in the bear-off database; a short race that may be decided
inside the search goes to ``ai_worker.search.SaneSearch``. Each test builds a
position where the network's raw leaf is wrong and checks what the review's
evaluator (``rank_plays``) says against the cleaned and the raw search.
"""

from __future__ import annotations

import pytest

from ai_worker import evaluator, search
from ai_worker.evaluator import rank_plays, to_board26, value_unmoved
from ai_worker.sanity import Probs, sane_probs
from ai_worker.search import SaneSearch, may_be_decided
from games.engine import ROLLS, Dice, Position, legal_plays

from .positions import side


def searches() -> tuple[SaneSearch, SaneSearch]:
    return evaluator.sane_search(), evaluator.sane_search(clean=False)


def chances(p: Probs) -> tuple[float, ...]:
    return (p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon)


def bgsage(board: Position, pre: Position, ply: int) -> Probs:
    """bgsage's own N-ply value of ``board``, as the evaluator's search gives it."""
    return Probs(*evaluator.bgsage_chances(to_board26(board), to_board26(pre), ply))


# A race in the bear-off: the mover (five off, one checker still on its
# 18-point) against an opponent with seven off. Among the opponent's replies
# the network gives it gammons, 0.33 of them, against a mover that has
# already borne off.
RACE = Position(side({1: 4, 3: 3, 4: 2, 18: 1}), side({1: 4, 2: 3, 3: 1}))


def test_the_raw_leaves_of_the_race_give_impossible_gammons() -> None:
    import bgbot_cpp

    pre = bgbot_cpp.flip_board(to_board26(RACE))
    replies = [r for d1, d2, _w in ROLLS for r in bgbot_cpp.possible_moves(pre, d1, d2)]
    # The opponent's chances after each reply; the mover has borne off.
    gammons = [evaluator.bgsage_chances(r, pre, 1)[1] for r in replies]
    assert sum(RACE.me) < 15 and max(gammons) > 0.3


@pytest.mark.parametrize("ply", [2, 3])
def test_the_cleaned_search_differs_from_the_raw_one_and_bgsage_agrees(ply: int) -> None:
    sane, raw = searches()
    clean = sane.probs(to_board26(RACE), to_board26(RACE), ply)
    dirty = raw.probs(to_board26(RACE), to_board26(RACE), ply)
    assert chances(sane_probs(RACE, clean)) == chances(clean)  # sane at the top
    # The mover has borne off: the raw search still lets it lose gammons
    # (0.07 at 2-ply), the cleaned one never.
    assert dirty.lose_gammon > 0.0005 and clean.lose_gammon == 0.0
    assert chances(sane_probs(RACE, dirty)) != chances(dirty)  # the raw search is not
    # bgsage's search cleans its own leaves: it agrees with the cleaned one
    # and is sane without help.
    theirs = bgsage(RACE, RACE, ply)
    assert theirs.equity == pytest.approx(clean.equity, abs=1e-3)
    assert chances(sane_probs(RACE, theirs)) == pytest.approx(chances(theirs), abs=1e-6)


# Six checkers on the ace point against an opponent 32 pips away with ten
# checkers: after 2/1 2/off (5-1) the mover loses only to the opponent's
# doubles; inside a 2-ply search many of the opponent's replies leave a race
# the mover wins on any dice, which bgsage's network values at about 99.6%.
ACE = Position.from_position_id("XwuAAPgGAAAAAA")


def test_a_race_decided_inside_the_search_is_searched_with_clean_nodes() -> None:
    play = next(p for p in legal_plays(ACE, Dice(5, 1)) if p.notation() == "2/1 2/off")
    after = play.result
    assert may_be_decided(after, 2)
    sane, raw = searches()
    clean = sane.probs(to_board26(after), to_board26(ACE), 2)
    theirs = bgsage(after, ACE, 2)
    assert clean.win - theirs.win > 0.003  # the nodes bgsage leaves uncertain
    assert raw.probs(to_board26(after), to_board26(ACE), 2).win < clean.win
    # The review's ranking takes the cleaned value.
    ranked = {r.play.notation(): r for r in rank_plays(ACE, Dice(5, 1), 2)}
    assert ranked["2/1 2/off"].ply == 2
    assert ranked["2/1 2/off"].equity == pytest.approx(clean.equity, abs=1e-12)


def test_an_unmoved_short_race_is_valued_by_the_cleaned_search() -> None:
    # ``value_unmoved`` (a dance in the luck table) takes the same way: no
    # dance is possible in a race, but the board is valued all the same.
    sane, _raw = searches()
    board = to_board26(ACE)
    assert may_be_decided(ACE, 3) and not may_be_decided(ACE, 2)
    _equity, probs = value_unmoved(ACE, 3)
    assert chances(probs) == pytest.approx(chances(sane.probs(board, board, 3)), abs=1e-12)


@pytest.mark.parametrize("ply", [2, 3])
def test_a_bear_off_in_the_database_is_exact_at_every_depth(ply: int) -> None:
    # Both sides in their home boards: bgsage's search (and this one) take
    # the database's exact value instead of searching.
    position = Position(side({2: 2, 3: 3, 4: 1}), side({1: 1, 2: 3, 4: 1, 5: 2}))
    board = to_board26(position)
    exact = evaluator.bearoff_exact(board)
    assert exact is not None
    sane, _raw = searches()
    assert chances(sane.probs(board, board, ply)) == pytest.approx(exact, abs=1e-7)
    assert chances(bgsage(position, position, ply)) == pytest.approx(exact, abs=1e-6)


def test_the_search_is_bgsages_search_in_a_long_race() -> None:
    # No rule binds in a long race: with every node cleaned the search gives
    # what bgsage's does (it values every reply, bgsage cuts more than 20 to
    # 15 with PubEval first, hence the tolerance).
    position = Position(side({6: 4, 5: 3, 8: 3, 10: 2, 12: 3}), side({6: 5, 4: 3, 9: 4, 11: 3}))
    assert not may_be_decided(position, 2)
    sane, _raw = searches()
    board = to_board26(position)
    ours = sane.probs(board, board, 2)
    assert ours.equity == pytest.approx(bgsage(position, position, 2).equity, abs=2e-3)


def test_contact_and_long_races_stay_with_bgsage() -> None:
    assert not may_be_decided(Position.start(), 3)
    long_race = Position(side({6: 5, 5: 5, 8: 5}), side({6: 5, 5: 5, 8: 5}))
    assert not may_be_decided(long_race, 3)
    assert may_be_decided(Position(side({1: 2}), side({6: 3})), 2)


def test_a_raw_search_reads_what_the_network_says() -> None:
    with pytest.raises(ValueError):
        searches()[0].probs(to_board26(RACE), to_board26(RACE), 0)
    assert search.__doc__
