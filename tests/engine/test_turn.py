"""Step-by-step validation: allowed steps, completion, undo, every refusal reason."""

from __future__ import annotations

import pytest

from games.engine import (
    Dice,
    IllegalPlayError,
    IllegalStepError,
    Position,
    Refusal,
    RefusalCode,
    Step,
    Turn,
    legal_plays,
)
from tests.engine.boards import board


def refusal(turn: Turn, src: int, dst: int, die: int | None = None) -> Refusal:
    found = turn.refusal(src, dst, die)
    assert found is not None, f"{src}/{dst} was accepted"
    return found


def test_allowed_first_steps_of_the_opening_six_five() -> None:
    allowed = Turn(Position.start(), Dice(6, 5)).allowed_steps()
    assert {(s.src, s.dst, s.die) for s in allowed} == {
        (24, 18, 6),
        (13, 7, 6),
        (8, 2, 6),
        (13, 8, 5),
        (8, 3, 5),
    }  # not 6/1: the opponent's two back checkers hold the 1-point


def test_a_full_turn_steps_completes_and_gives_the_play() -> None:
    turn = Turn(Position.start(), Dice(3, 1)).step(8, 5)
    assert turn.remaining == (1,) and not turn.complete
    turn = turn.step(6, 5)
    assert turn.complete and turn.remaining == ()
    assert turn.allowed_steps() == ()
    play = turn.play()
    assert play.notation() == "8/5 6/5"
    assert play.result in {p.result for p in legal_plays(Position.start(), Dice(3, 1))}


def test_the_die_is_picked_as_the_smallest_that_makes_the_step_legal() -> None:
    turn = Turn(board({3: 1, 2: 1}), Dice(5, 4))
    assert turn.step(3, 0).steps[-1].die == 4


def test_an_explicit_die_is_honoured() -> None:
    turn = Turn(board({3: 1, 2: 1}), Dice(5, 4)).step(3, 0, die=5)
    assert turn.steps[-1].die == 5 and turn.remaining == (4,)


def test_undo_pops_one_step_back_to_the_roll() -> None:
    turn = Turn(Position.start(), Dice(4, 4)).step(24, 20).step(24, 20)
    assert turn.undo().steps == (Step(24, 20, 4, False),)
    assert turn.undo().undo() == Turn(Position.start(), Dice(4, 4))
    with pytest.raises(IllegalStepError) as error:
        Turn(Position.start(), Dice(4, 4)).undo()
    assert error.value.refusal == Refusal(RefusalCode.NOTHING_TO_UNDO)


def test_a_turn_without_any_play_is_complete_at_once() -> None:
    closed = board({25: 1, 6: 14}, {p: 2 for p in range(19, 25)})
    turn = Turn(closed, Dice(6, 5))
    assert turn.complete and turn.allowed_steps() == ()
    assert turn.play().result == closed
    assert refusal(turn, 25, 19).code is RefusalCode.TURN_COMPLETE


def test_doubles_that_play_fewer_than_four_complete_early() -> None:
    turn = Turn(board({13: 1}, {5: 2}), Dice(4, 4)).step(13, 9)
    assert turn.complete
    assert refusal(turn, 9, 5).code is RefusalCode.TURN_COMPLETE


def test_bearing_off_the_last_checker_with_the_larger_die_ends_the_turn() -> None:
    turn = Turn(board({5: 1}), Dice(6, 1)).step(5, 0)
    assert turn.complete and turn.steps == (Step(5, 0, 6, False),)
    assert turn.play().result.borne_off()[0] == 15


def test_refuses_an_empty_point_no_checker() -> None:
    turn = Turn(Position.start(), Dice(6, 5))
    assert refusal(turn, 20, 14) == Refusal(RefusalCode.NO_CHECKER, {"point": 20})
    assert refusal(turn, 25, 20) == Refusal(RefusalCode.NO_CHECKER, {"point": 25})


def test_refuses_a_move_while_checkers_wait_on_the_bar() -> None:
    turn = Turn(board({25: 2, 13: 5}), Dice(6, 5))
    assert refusal(turn, 13, 7) == Refusal(RefusalCode.MUST_ENTER_FIRST, {"on_bar": 2})


def test_refuses_a_point_held_by_two_or_more() -> None:
    turn = Turn(Position.start(), Dice(6, 5))
    assert refusal(turn, 24, 19) == Refusal(RefusalCode.POINT_BLOCKED, {"point": 19, "count": 5})
    entering = Turn(board({25: 1, 6: 5}, {20: 3}), Dice(5, 1))
    assert refusal(entering, 25, 20) == Refusal(
        RefusalCode.POINT_BLOCKED, {"point": 20, "count": 3}
    )


def test_refuses_bearing_off_with_checkers_outside_naming_them() -> None:
    turn = Turn(board({9: 1, 8: 2, 3: 4}), Dice(3, 1))
    assert refusal(turn, 3, 0) == Refusal(
        RefusalCode.BEAR_OFF_OUTSIDE, {"count": 3, "points": (9, 8)}
    )


def test_refuses_a_larger_die_bearing_off_below_the_highest_point() -> None:
    turn = Turn(board({5: 1, 2: 1}), Dice(6, 4))
    assert refusal(turn, 2, 0) == Refusal(
        RefusalCode.BEAR_OFF_NOT_HIGHEST, {"die": 4, "highest": 5}
    )


def test_refuses_a_step_that_strands_the_other_die() -> None:
    # 13/8 leaves the 6 unplayable (8/2 and 20/14 are made); 13/7 20/15 plays both.
    turn = Turn(board({13: 1, 20: 1}, {2: 2, 14: 2}), Dice(6, 5))
    assert refusal(turn, 13, 8) == Refusal(RefusalCode.MUST_USE_BOTH, {"die": 6})


def test_refuses_bearing_off_early_when_hitting_first_plays_both_dice() -> None:
    turn = Turn(board({3: 1}, {1: 1}), Dice(6, 2))
    assert refusal(turn, 3, 0) == Refusal(RefusalCode.MUST_USE_BOTH, {"die": 2})
    assert turn.step(3, 1).step(1, 0).complete


def test_refuses_the_smaller_die_when_only_one_die_can_be_used() -> None:
    turn = Turn(board({13: 1}, {2: 2}), Dice(6, 5))
    assert refusal(turn, 13, 8) == Refusal(RefusalCode.MUST_USE_LARGER, {"larger": 6, "smaller": 5})
    assert turn.step(13, 7).complete


def test_refuses_a_distance_no_die_shows() -> None:
    turn = Turn(Position.start(), Dice(6, 5))
    assert refusal(turn, 13, 10) == Refusal(
        RefusalCode.NO_SUCH_DIE, {"distance": 3, "remaining": (6, 5)}
    )
    used = turn.step(13, 7)
    assert refusal(used, 24, 18) == Refusal(
        RefusalCode.NO_SUCH_DIE, {"distance": 6, "remaining": (5,)}
    )
    assert refusal(turn, 13, 8, die=6).code is RefusalCode.NO_SUCH_DIE


def test_refuses_moving_backwards() -> None:
    turn = Turn(Position.start(), Dice(6, 5))
    assert refusal(turn, 8, 13) == Refusal(RefusalCode.WRONG_DIRECTION, {"src": 8, "dst": 13})
    assert refusal(turn, 8, 8).code is RefusalCode.WRONG_DIRECTION


def test_refuses_any_step_once_the_turn_is_complete() -> None:
    turn = Turn(Position.start(), Dice(6, 5)).step(24, 18).step(18, 13)
    assert refusal(turn, 13, 8) == Refusal(RefusalCode.TURN_COMPLETE)
    with pytest.raises(IllegalStepError) as error:
        turn.step(13, 8)
    assert error.value.refusal.code is RefusalCode.TURN_COMPLETE


def test_play_before_completion_is_refused() -> None:
    with pytest.raises(IllegalPlayError):
        Turn(Position.start(), Dice(6, 5)).step(24, 18).play()


def test_a_turn_rebuilt_from_stored_steps_is_checked() -> None:
    steps = (Step(24, 18, 6, False), Step(18, 13, 5, False))
    assert Turn(Position.start(), Dice(6, 5), steps).complete
    with pytest.raises(IllegalStepError):
        Turn(Position.start(), Dice(6, 5), (Step(13, 10, 3, False),))


def test_refusal_codes_are_plain_strings_for_the_site() -> None:
    assert RefusalCode.MUST_USE_BOTH == "must_use_both"
    assert str(RefusalCode.POINT_BLOCKED) == "point_blocked"
