"""Hand-written cases for every rule of movement, bearing off and scoring."""

from __future__ import annotations

import pytest

from games.engine import (
    Dice,
    IllegalPlayError,
    Play,
    Position,
    ResultKind,
    Side,
    Step,
    apply_play,
    legal_plays,
    opening_roll,
    outcome,
)
from tests.engine.boards import board, results


def test_a_checker_lands_on_an_empty_own_or_blot_point_never_a_made_one() -> None:
    position = board({13: 1, 6: 5}, {9: 1, 7: 2})
    plays = results(position, 6, 4)
    assert "13/9*/3" in plays  # 4 hits the blot on 9, then 6 lands on 3
    assert not any(p.startswith("13/7") for p in plays)  # 7 is made
    assert "13/3" not in plays  # both paths pass an open 9 only via the hit


def test_a_hit_sends_the_blot_to_the_bar() -> None:
    position = board({13: 1, 6: 5}, {9: 1})
    (play,) = [p for p in legal_plays(position, Dice(4, 1)) if p.notation() == "13/9*/8"]
    assert play.result.opp[24] == 1
    assert play.result.theirs(9) == 0
    assert play.steps[0].hit


def test_a_checker_on_the_bar_must_enter_before_any_other_moves() -> None:
    position = board({25: 1, 13: 5}, {22: 2})
    plays = results(position, 3, 2)
    assert plays == {"bar/23 13/10", "bar/20"}  # the 3 cannot enter on 22


def test_a_die_n_enters_n_points_into_the_opponents_home_board() -> None:
    (play,) = legal_plays(board({25: 1}, {}), Dice(1, 1))
    assert play.steps[0] == Step(25, 24, 1, False)


def test_nothing_moves_when_no_bar_checker_can_enter() -> None:
    closed = board({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    assert legal_plays(closed, Dice(6, 5)) == []


def test_with_two_on_the_bar_and_one_entry_only_one_enters_and_nothing_else_moves() -> None:
    position = board({25: 2, 6: 13}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2})
    assert results(position, 6, 1) == {"bar/24"}


def test_a_checker_moving_twice_needs_an_open_intermediate_point() -> None:
    both_blocked = board({13: 1}, {8: 2, 7: 2})
    assert legal_plays(both_blocked, Dice(6, 5)) == []
    one_open = board({13: 1}, {7: 2})
    assert results(one_open, 6, 5) == {"13/2"}
    (play,) = legal_plays(one_open, Dice(6, 5))
    assert [s.dst for s in play.steps] == [8, 2]


def test_both_dice_must_be_used_when_any_play_uses_both() -> None:
    # 13/8 would strand the 6 (8/2 and 20/14 land on made points); the plays
    # that use both dice are 13/7 20/15, 20/15/9 and 20/9.
    position = board({13: 1, 20: 1}, {2: 2, 14: 2})
    plays = legal_plays(position, Dice(6, 5))
    assert plays and all(len(p.steps) == 2 for p in plays)
    assert "13/8" not in results(position, 6, 5)
    assert "20/15 13/7" in results(position, 6, 5)


def test_when_only_one_die_can_be_played_it_must_be_the_larger() -> None:
    position = board({13: 1}, {2: 2})  # 13/7/2 and 13/8/2 both end on a made point
    assert results(position, 6, 5) == {"13/7"}


def test_the_smaller_die_is_played_when_the_larger_cannot_be() -> None:
    position = board({13: 1}, {2: 2, 7: 2})
    assert results(position, 6, 5) == {"13/8"}


def test_doubles_play_four_when_they_can() -> None:
    plays = legal_plays(Position.start(), Dice(3, 3))
    assert all(len(p.steps) == 4 for p in plays)


def test_doubles_play_as_many_as_they_can() -> None:
    position = board({13: 1}, {5: 2})
    assert results(position, 4, 4) == {"13/9"}
    position = board({13: 2}, {5: 2})
    assert results(position, 4, 4) == {"13/9(2)"}


def test_no_bearing_off_while_a_checker_is_outside_home_or_on_the_bar() -> None:
    outside = board({7: 1, 3: 2})
    assert not any("off" in p for p in results(outside, 2, 1))
    on_bar = board({25: 1, 3: 2})
    assert not any("off" in p for p in results(on_bar, 3, 3))


def test_an_exact_die_bears_off_from_its_point() -> None:
    position = board({5: 1, 3: 1})
    assert "5/off 3/off" in results(position, 5, 3)


def test_a_larger_die_bears_off_only_from_the_highest_point() -> None:
    position = board({5: 1, 2: 1})
    plays = results(position, 6, 1)
    assert "5/off 2/1" in plays
    assert not any(p.startswith("2/off") and "5/" not in p for p in plays)


def test_a_larger_die_must_move_a_checker_inside_when_a_higher_one_exists() -> None:
    # Neither die may bear off the checker on 2 while the 6-point is occupied.
    plays = legal_plays(board({6: 2, 2: 1}), Dice(4, 3))
    assert all(any(s.src == 6 for s in p.steps) for p in plays)


def test_a_checker_hit_in_the_bear_off_must_come_round_again() -> None:
    hit = board({25: 1, 3: 10}, {2: 2})
    assert all(p.steps[0].src == 25 for p in legal_plays(hit, Dice(6, 3)))
    assert hit.pips()[0] == 25 + 30


def test_the_last_checker_must_hit_on_its_way_off_when_both_dice_can_be_used() -> None:
    # bgsage's generator also allows 3/off here; the rules demand both dice.
    position = board({3: 1}, {1: 1})
    assert results(position, 6, 2) == {"3/1*/off"}


def test_no_move_at_all_gives_no_plays_not_the_unchanged_board() -> None:
    closed = board({25: 2, 6: 13}, {p: 2 for p in range(19, 25)})
    assert legal_plays(closed, Dice(2, 2)) == []


def test_distinct_plays_are_distinct_results_and_keep_their_steps() -> None:
    plays = legal_plays(Position.start(), Dice(6, 6))
    assert len({p.result for p in plays}) == len(plays) == 11
    position = board({13: 1, 6: 5}, {2: 1})
    (play,) = [p for p in legal_plays(position, Dice(6, 5)) if p.result.opp[24]]
    assert play.notation(full=True) in {"13/7/2*", "13/8/2*"}


def test_apply_accepts_a_legal_play_and_refuses_a_forged_one() -> None:
    start = Position.start()
    play = legal_plays(start, Dice(6, 5))[0]
    assert apply_play(start, play) == play.result
    forged = Play((Step(24, 13, 11, False),), play.result)
    with pytest.raises(IllegalPlayError):
        apply_play(start, forged)
    with pytest.raises(IllegalPlayError):
        apply_play(start, Play(play.steps, start))


def test_the_opening_roll_starts_the_higher_die_and_ties_roll_again() -> None:
    assert opening_roll(4, 2) is Side.LIGHT
    assert opening_roll(1, 6) is Side.DARK
    assert opening_roll(5, 5) is None
    with pytest.raises(ValueError):
        opening_roll(0, 3)


@pytest.mark.parametrize(
    ("loser", "kind", "points"),
    [
        ({6: 14}, ResultKind.SINGLE, 1),  # one borne off
        ({6: 15}, ResultKind.GAMMON, 2),
        ({6: 14, 20: 1}, ResultKind.BACKGAMMON, 3),  # in the winner's home board
        ({6: 14, 25: 1}, ResultKind.BACKGAMMON, 3),  # on the bar
        ({6: 14, 18: 1}, ResultKind.GAMMON, 2),  # just outside the winner's home
    ],
)
def test_scoring_single_gammon_backgammon(
    loser: dict[int, int], kind: ResultKind, points: int
) -> None:
    # The winner (mover) has borne everything off; ``loser`` is by the loser's own points.
    opp = [0] * 25
    for point, count in loser.items():
        opp[point - 1] = count
    finished = Position((0,) * 25, tuple(opp))
    result = outcome(finished, Side.DARK)
    assert result is not None
    assert (result.winner, result.kind, result.points) == (Side.DARK, kind, points)


def test_no_outcome_while_both_sides_have_checkers() -> None:
    assert outcome(board({1: 1}, {24: 1}), Side.LIGHT) is None


def test_pips_count_a_bar_checker_as_25() -> None:
    assert board({25: 2, 1: 1}).pips() == (51, 0)
    assert Position.start().pips() == (167, 167)
