"""Property tests (hypothesis): invariants over random positions and dice."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    CHECKERS,
    Dice,
    Display,
    Position,
    Turn,
    decode_xgid,
    encode_xgid,
    legal_plays,
    parse_play,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random legal boards, often with bar checkers or a bear-off."""
    kind = draw(st.sampled_from(["any", "bearoff", "bar"]))
    top = 6 if kind == "bearoff" else 25
    me, opp = [0] * 25, [0] * 25
    for _ in range(draw(st.integers(1, CHECKERS))):
        me[draw(st.integers(1, top)) - 1] += 1
    if kind == "bar":
        me[24] += 1 if sum(me) < CHECKERS else 0
    for _ in range(draw(st.integers(1, CHECKERS))):
        point = draw(st.integers(1, 25))  # the opponent's own numbering
        if point == 25 or not me[24 - point]:
            opp[point - 1] += 1
    return Position(tuple(me), tuple(opp))


dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


def checker_list(half: tuple[int, ...]) -> list[int]:
    return [index + 1 for index, count in enumerate(half) for _ in range(count)]


Seen = dict[tuple[Position, tuple[int, ...]], set[Position]]


def step_results(turn: Turn, seen: Seen) -> set[Position]:
    """Every board reachable by accepted steps until the turn is complete."""
    key = (turn.current, turn.remaining)
    if key in seen:
        return seen[key]
    if turn.complete:
        found = {turn.current}
    else:
        found = set()
        for step in turn.allowed_steps():
            found |= step_results(turn.step(step.src, step.dst, step.die), seen)
    seen[key] = found
    return found


@SETTINGS
@given(positions(), dice)
def test_every_play_keeps_fifteen_checkers_a_side(position: Position, roll: Dice) -> None:
    for play in legal_plays(position, roll):
        result = play.result
        off_steps = sum(1 for s in play.steps if s.dst == 0)
        assert sum(result.me) + result.borne_off()[0] == CHECKERS
        assert sum(result.opp) == sum(position.opp)  # hit checkers go to the bar
        assert result.borne_off()[0] - position.borne_off()[0] == off_steps
        assert result.opp[24] - position.opp[24] == sum(1 for s in play.steps if s.hit)


@SETTINGS
@given(positions(), dice)
def test_pips_are_the_sum_over_checkers_and_fall_by_the_steps(
    position: Position, roll: Dice
) -> None:
    assert position.pips() == (sum(checker_list(position.me)), sum(checker_list(position.opp)))
    for play in legal_plays(position, roll):
        moved = sum(s.src - s.dst for s in play.steps)
        assert position.pips()[0] - play.result.pips()[0] == moved
        assert all(s.src - s.dst == s.die or s.dst == 0 for s in play.steps)


@SETTINGS
@given(positions(), dice)
def test_step_sequences_and_legal_plays_reach_the_same_boards(
    position: Position, roll: Dice
) -> None:
    plays = legal_plays(position, roll)
    by_steps = step_results(Turn(position, roll), {})
    assert by_steps == ({p.result for p in plays} if plays else {position})


@SETTINGS
@given(positions(), dice)
def test_every_legal_play_is_accepted_step_by_step(position: Position, roll: Dice) -> None:
    for play in legal_plays(position, roll):
        turn = Turn(position, roll)
        for step in play.steps:
            turn = turn.step(step.src, step.dst, step.die)
        assert turn.complete
        assert turn.current == play.result


@SETTINGS
@given(positions(), dice)
def test_notation_round_trips(position: Position, roll: Dice) -> None:
    for play in legal_plays(position, roll):
        assert parse_play(position, roll, play.notation()).result == play.result
        assert parse_play(position, roll, play.notation(full=True)).result == play.result


@SETTINGS
@given(positions(), st.none() | dice)
def test_position_id_and_xgid_round_trip(position: Position, roll: Dice | None) -> None:
    assert Position.from_position_id(position.position_id()) == position
    assert len(position.position_id()) == 14
    assert decode_xgid(encode_xgid(position, roll)) == (position, roll)
    assert position.swapped().swapped() == position


@SETTINGS
@given(positions())
def test_display_holds_every_checker_once(position: Position) -> None:
    shown = Display.from_position(position)
    light = sum(n for n in shown.points if n > 0) + shown.bar_light + shown.off_light
    dark = -sum(n for n in shown.points if n < 0) + shown.bar_dark + shown.off_dark
    assert (light, dark) == (CHECKERS, CHECKERS)
    assert shown.points[0] == position.me[0] - position.opp[23]
