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
    """One roll drawn in a game: ``roll`` its number, ``dice`` as shown,
    ``what`` "opening", "turn" or "unplayed" (drawn, and the game ended on it
    before it was played), ``side`` the Turn's or the unplayed roll's side
    ("" for an opening roll), ``turn`` the Turn's number (None otherwise)."""

    roll: int
    dice: tuple[int, int]
    what: str
    side: str
    turn: int | None


def revealed(game: Game) -> bool:
    """The server seed may be shown: no die will be drawn from it again."""
    return game.is_over and game.dice_source == DiceSource.SEEDS


def dice_proof_json(game: Game) -> dict[str, Any]:
    """The commitment, the person's seed and who gave it and, once the game is
    over, the server seed (docs/interfaces.md §4)."""
    seeded = game.dice_source == DiceSource.SEEDS
    return {
        "source": game.dice_source,
        "commitment": game.dice_commitment if seeded else None,
        "person_seed": game.person_seed if seeded else None,
        "person_seed_from": (game.person_seed_from or "unknown") if seeded else None,
        "server_seed": game.server_seed if revealed(game) else None,
    }


def played_rolls(game: Game) -> list[PlayedRoll]:
    """Every roll drawn from the game's seeds and played, as stored: the
    opening rolls, then each Turn's roll in order (the first turn plays the
    last opening roll again: both are listed, each checked)."""
    rolls = [
        PlayedRoll(number, (light, dark), "opening", "", None)
        for number, (light, dark) in enumerate(game.opening_rolls)
    ]
    turns = game.turns.exclude(roll=None).order_by("number")
    for roll, die1, die2, side, turn in turns.values_list("roll", "die1", "die2", "side", "number"):
        assert roll is not None  # excluded above
        rolls.append(PlayedRoll(roll, (die1, die2), "turn", side, turn))
    return rolls


def proof_rolls(game: Game) -> list[PlayedRoll]:
    """Every roll of the proof in order: the played ones, then the last roll
    drawn and never played (a resignation, a stopped game) as it was shown."""
    rolls = played_rolls(game)
    last = unplayed_roll(game, rolls)
    return rolls if last is None else [*rolls, last]


def unplayed_roll(game: Game, played: list[PlayedRoll]) -> PlayedRoll | None:
    """The last roll drawn, if no turn played it and its dice as shown were
    kept: ``unplayed_dice`` at the end of the game, or the row's dice of a
    game that stopped on them."""
    number = game.rolls_drawn - 1
    if number < 0 or any(r.roll == number for r in played):
        return None
    shown = game.unplayed_dice if game.unplayed_dice is not None else game.dice
    if not (
        isinstance(shown, list)
        and len(shown) == 2
        and all(type(d) is int and 1 <= d <= 6 for d in shown)
    ):
        return None
    side = game.turn if game.turn in ("light", "dark") else ""
    return PlayedRoll(number, (shown[0], shown[1]), "unplayed", side, None)


def unplayed_rolls(game: Game, listed: list[PlayedRoll]) -> list[int]:
    """Numbers of rolls drawn that ``listed`` lacks: drawn and never played,
    in a game that ended before the site kept such a roll as it was shown."""
    seen = {r.roll for r in listed}
    return [n for n in range(game.rolls_drawn) if n not in seen]


def check_game(game: Game) -> tuple[bool, list[fairdice.RollCheck]]:
    """Whether the server seed matches its commitment, and every roll of the
    proof (``proof_rolls``) beside the seeds'. Only for a revealed game."""
    seed = fairdice.server_seed_from_hex(game.server_seed)
    committed = fairdice.commitment(seed) == game.dice_commitment
    checked = [(r.roll, r.dice) for r in proof_rolls(game)]
    return committed, fairdice.check_rolls(seed, game.person_seed, checked)
