"""Quick checks of the engine's public API (fuller rule tests live beside)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.engine import (
    Dice,
    Display,
    IllegalPlayError,
    IllegalStepError,
    InvalidNotationError,
    Position,
    RefusalCode,
    ResultKind,
    Side,
    Turn,
    apply_play,
    legal_plays,
    opening_roll,
    outcome,
    parse_play,
)


def test_the_start_has_167_pips_and_gnubgs_position_id() -> None:
    start = Position.start()
    assert start.pips() == (167, 167)
    assert start.position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == start


def test_opening_counts_of_distinct_plays() -> None:
    counts = {str(d): len(legal_plays(Position.start(), d)) for d in (Dice(3, 1), Dice(6, 6))}
    assert counts == {"31": 16, "66": 11}


def test_a_play_applies_and_is_refused_when_illegal() -> None:
    start = Position.start()
    play = parse_play(start, Dice(3, 1), "8/5 6/5")
    assert apply_play(start, play) == play.result
    assert play.result.me[4] == 2
    with pytest.raises(IllegalPlayError):
        parse_play(start, Dice(3, 1), "24/23")
    with pytest.raises(InvalidNotationError):
        parse_play(start, Dice(3, 1), "8-x")


def test_turn_steps_undo_and_refusals() -> None:
    turn = Turn(Position.start(), Dice(6, 5))
    assert turn.refusal(13, 10) is not None
    assert turn.refusal(13, 10).code is RefusalCode.NO_SUCH_DIE  # type: ignore[union-attr]
    turn = turn.step(24, 18)
    assert turn.remaining == (5,)
    assert not turn.complete
    turn = turn.step(18, 13)
    assert turn.complete
    assert turn.play().notation() == "24/13"
    assert turn.undo().steps == turn.steps[:1]
    with pytest.raises(IllegalStepError) as refused:
        Turn(Position.start(), Dice(6, 5)).undo()
    assert refused.value.refusal.code is RefusalCode.NOTHING_TO_UNDO


def test_opening_roll_and_outcome() -> None:
    assert opening_roll(6, 1) is Side.LIGHT
    assert opening_roll(3, 3) is None
    done = Position((0,) * 25, (0,) * 5 + (15,) + (0,) * 19)
    result = outcome(done, Side.LIGHT)
    assert result is not None
    assert (result.winner, result.kind, result.points) == (Side.LIGHT, ResultKind.GAMMON, 2)


def test_display_is_lights_fixed_orientation() -> None:
    board = Display.from_position(Position.start()).to_json()
    assert board["points"][23] == 2 and board["points"][0] == -2
    assert board["off"] == {"light": 0, "dark": 0}


def test_importing_the_engine_loads_no_django() -> None:
    code = "import sys, games.engine; print(any(m.split('.')[0] == 'django' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_positions_are_validated_and_stored_as_tuples() -> None:
    listed = Position(list(Position.start().me), list(Position.start().opp))  # type: ignore[arg-type]
    assert listed == Position.start() and hash(listed) == hash(Position.start())
    with pytest.raises(ValueError):
        Position((0,) * 24, (0,) * 25)
    with pytest.raises(ValueError):
        Position((16,) + (0,) * 24, (0,) * 25)
    with pytest.raises(ValueError):
        Position((1,) + (0,) * 24, (0,) * 23 + (1, 0))  # both on the mover's 1-point
