"""Property: any sequence of commands, legal or not, leaves a consistent game."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import reading, services
from games.engine import legal_plays
from games.live.state import build_state
from games.models import Game, Turn
from tests.conftest import dark_turn
from tests.games.conftest import board
from tests.games.fixtures_rows import another_process

pytestmark = pytest.mark.django_db

# Mostly moves that go somewhere, so sequences reach many turns and the end.
COMMAND = st.one_of(
    st.tuples(st.just("allowed"), st.integers(0, 30)),
    st.tuples(st.just("allowed"), st.integers(0, 30)),
    st.tuples(st.just("allowed"), st.integers(0, 30)),
    st.tuples(st.just("computer"), st.integers(0, 30)),
    st.tuples(st.just("step"), st.tuples(st.integers(-1, 26), st.integers(-1, 26))),
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("end_turn"), st.just(0)),
    st.tuples(st.just("stale"), st.just(0)),
    st.tuples(st.just("computer"), st.integers(0, 30)),
    # Another web process's command (a second tab), and a hint (no new version).
    st.tuples(st.just("elsewhere"), st.integers(0, 30)),
    st.tuples(st.just("hint"), st.just(0)),
)


def run(game: Game, user: Any, kind: str, arg: Any) -> None:
    version = game.version
    done: Game | None = None
    try:
        if kind in ("allowed", "elsewhere"):
            if game.turn != "light" or game.dice is None or game.is_over:
                return
            turn = reading.current_turn(game)
            allowed = turn.allowed_steps()
            if kind == "elsewhere":
                with another_process():
                    if allowed and arg % 3:
                        step = allowed[arg % len(allowed)]
                        services.make_step(game.pk, user, version, step.src, step.dst, step.die)
                    else:
                        services.undo_step(game.pk, user, version)
            elif allowed:
                step = allowed[arg % len(allowed)]
                done = services.make_step(game.pk, user, version, step.src, step.dst, step.die)
        elif kind == "step":
            done = services.make_step(game.pk, user, version, *arg)
        elif kind == "undo":
            done = services.undo_step(game.pk, user, version)
        elif kind == "end_turn":
            done = services.end_turn(game.pk, user, version)
        elif kind == "stale":
            services.make_step(game.pk, user, version - 1, 13, 8)
        elif kind == "hint":
            with another_process():
                services.request_hint(game.pk, user, version)
        elif kind == "computer":
            begun = dark_turn(game.pk, version)
            if begun is not None:
                plays = legal_plays(*begun)
                play = plays[arg % len(plays)] if plays else None
                assert services.finish_computer_turn(game.pk, version, play)
    except services.ServiceError:
        game.refresh_from_db()
        assert game.version == version  # a refused command changes nothing
        return
    game.refresh_from_db()
    assert game.version in (version, version + 1)
    if done is not None:  # what the command answers with is what a fresh read shows
        assert build_state(done) == build_state(game)


def check(game: Game) -> None:
    position = reading.position_of(game)
    light_on_board = sum(position.me)
    dark_on_board = sum(position.opp)
    light_off, dark_off = position.borne_off()
    assert light_on_board + light_off == 15 and dark_on_board + dark_off == 15
    if game.turn == "light" and game.dice is not None and not game.is_over:
        turn = reading.current_turn(game)  # the stored steps replay
        assert len(turn.steps) == len(game.steps)
    numbers = list(Turn.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    if numbers:
        assert game.last_turn is not None and game.last_turn["number"] == numbers[-1]


@pytest.mark.slow
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    commands=st.lists(COMMAND, min_size=20, max_size=120),
    seed=st.integers(0, 2**16),
    near_end=st.booleans(),
)
def test_random_command_sequences_never_corrupt_a_game(
    commands: list[tuple[str, Any]],
    seed: int,
    near_end: bool,
    user: Any,
    make_game: Any,
    computer_queue: list,
    hints_not_queued: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    rng = random.Random(seed)
    monkeypatch.setattr(services.dice, "roll_die", lambda: rng.randint(1, 6))
    # Half the runs start in a bear-off race, so games end and commands
    # keep arriving on finished games.
    position = board(light={1: 2, 2: 2, 3: 1}, dark={24: 2, 23: 2, 22: 1}) if near_end else None
    game = make_game(position, dice=[rng.randint(1, 6), rng.randint(1, 6)])
    for kind, arg in commands:
        run(game, user, kind, arg)
        check(game)
