"""The computer's policy never reads future dice (docs/dice.md): it is handed
the position and its current roll, and nothing in ai_worker reads a seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ai_worker import turns
from games import services
from games.engine import Dice, Position, Side
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

AI_WORKER = Path(__file__).resolve().parents[2] / "ai_worker"
SEED_FIELDS = ("server_seed", "person_seed", "dice_commitment", "rolls_drawn", "NextDiceSeed")


def test_the_policy_is_handed_the_position_and_the_roll_only(
    user: Any, held_computer_turns: list[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = services.start_game_from(user, "beginner", Position.start(), turn=Side.DARK)
    game = Game.objects.get(pk=game.pk)
    calls: list[tuple[Any, ...]] = []
    real = turns.choose_play

    def watched(*args: Any, **kwargs: Any) -> Any:
        calls.append((*args, *kwargs.values()))
        return real(*args, **kwargs)

    monkeypatch.setattr(turns, "choose_play", watched)
    turns.run_computer_turn(game.pk, game.version)
    assert len(calls) == 1
    position, dice, tier, seed_key = calls[0]
    assert isinstance(position, Position) and isinstance(dice, Dice)
    assert (dice.d1, dice.d2) == tuple(game.dice)  # the roll already drawn, no other
    assert tier == "beginner" and seed_key == f"game:{game.pk}"
    for secret in (game.server_seed, game.person_seed, game.dice_commitment):
        assert all(secret not in repr(arg) for arg in calls[0])


def test_nothing_in_the_computer_player_reads_a_seed() -> None:
    for path in AI_WORKER.rglob("*.py"):
        text = path.read_text()
        assert not [name for name in SEED_FIELDS if name in text], path
