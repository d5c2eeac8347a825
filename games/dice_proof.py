"""A stored game's dice beside its seeds: what the play page, the verify page
and ``manage.py verify_dice`` read (docs/dice.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import fairdice
from games.models import DiceSource, Game


@dataclass(frozen=True, slots=True)
class PlayedRoll:
    """One roll drawn in a game: ``roll`` its number, ``dice`` as played,
    ``what`` "opening" or "turn", ``turn`` the Turn's number (None for an
    opening roll, or a roll drawn and not played: the game ended first)."""

    roll: int
    dice: tuple[int, int]
    what: str
    side: str
    turn: int | None


def revealed(game: Game) -> bool:
    """The server seed may be shown: no die will be drawn from it again."""
    return game.is_over and game.dice_source == DiceSource.SEEDS


def dice_proof_json(game: Game) -> dict[str, Any]:
    """The commitment, the person's seed and, once the game is over, the server seed."""
    seeded = game.dice_source == DiceSource.SEEDS
    return {
        "source": game.dice_source,
        "commitment": game.dice_commitment if seeded else None,
        "person_seed": game.person_seed if seeded else None,
        "server_seed": game.server_seed if revealed(game) else None,
    }


def played_rolls(game: Game) -> list[PlayedRoll]:
    """Every roll drawn from the game's seeds as stored: the opening rolls,
    then each Turn's roll in order (the first turn plays the last opening
    roll again: both are listed, each checked)."""
    rolls = [
        PlayedRoll(number, (light, dark), "opening", "", None)
        for number, (light, dark) in enumerate(game.opening_rolls)
    ]
    turns = game.turns.exclude(roll=None).order_by("number")
    for roll, die1, die2, side, turn in turns.values_list("roll", "die1", "die2", "side", "number"):
        assert roll is not None  # excluded above
        rolls.append(PlayedRoll(roll, (die1, die2), "turn", side, turn))
    return rolls


def unplayed_rolls(game: Game, played: list[PlayedRoll]) -> list[int]:
    """Numbers of rolls drawn and never played (the game ended on them)."""
    seen = {r.roll for r in played}
    return [n for n in range(game.rolls_drawn) if n not in seen]


def check_game(game: Game) -> tuple[bool, list[fairdice.RollCheck]]:
    """Whether the server seed matches its commitment, and every roll beside the seeds'.

    Only for a revealed game (``revealed``).
    """
    seed = fairdice.server_seed_from_hex(game.server_seed)
    committed = fairdice.commitment(seed) == game.dice_commitment
    played = [(r.roll, r.dice) for r in played_rolls(game)]
    return committed, fairdice.check_rolls(seed, game.person_seed, played)
