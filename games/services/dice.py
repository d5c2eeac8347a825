"""The one source of dice in the site (tests replace ``roll_die`` here): the
seeds and the function are docs/dice.md's. A game stored before the
commitments rolls with ``secrets`` as it always did.
"""

from __future__ import annotations

import secrets
from typing import Any

from games.engine import fairdice
from games.models import DiceSource, Game, NextDiceSeed, SeedFrom, Turn
from games.services.errors import CommitmentUsedError


def roll_die() -> int | None:
    """None: the game's seeds decide. A test puts its own source here (a queue,
    a seeded ``random``), and its dice then win over the seeds'."""
    return None


def draw_die(game: Game, number: int) -> int:
    """Die ``number`` of ``game``."""
    forced = roll_die()
    if forced is not None:
        return forced
    if not game.server_seed:
        return secrets.randbelow(6) + 1
    return fairdice.die(bytes.fromhex(game.server_seed), game.person_seed, number)


def roll_dice(game: Game) -> list[int]:
    """The game's next roll, two dice; ``rolls_drawn`` counts it (saved with the row)."""
    roll = game.rolls_drawn
    game.rolls_drawn = roll + 1
    return [draw_die(game, 2 * roll), draw_die(game, 2 * roll + 1)]


def roll_number(game: Game) -> int | None:
    """The roll number of the dice in ``game.dice``: the last drawn, or None
    when they were not drawn from seeds (set with the position, or rolled
    before the commitments)."""
    if game.dice_source != DiceSource.SEEDS or game.rolls_drawn == 0:
        return None
    return game.rolls_drawn - 1


def new_server_seed() -> str:
    return secrets.token_hex(fairdice.SERVER_SEED_BYTES)


def next_commitment(user: Any) -> str:
    """The commitment of ``user``'s next game: its server seed drawn now if need be."""
    row, _created = NextDiceSeed.objects.get_or_create(
        owner=user, defaults={"seed": new_server_seed()}
    )
    return fairdice.commitment(bytes.fromhex(row.seed))


def keep_next_seed(user: Any, seed: str) -> None:
    """A visitor's next seed, drawn before they had an account (its commitment
    shown in the lobby then), becomes their account's, unless it has one."""
    fairdice.server_seed_from_hex(seed)
    NextDiceSeed.objects.get_or_create(owner=user, defaults={"seed": seed})


def seed_game(game: Game, person_seed: str | None, commitment: str | None = None) -> None:
    """Give a new game (not yet saved), inside the transaction that starts it,
    the server seed whose commitment its owner was shown (docs/dice.md) and
    ``person_seed`` (drawn by the server when None, and the game says so).
    ``commitment``: the one the page showed (None: not checked, the shell and
    tests); ``CommitmentUsedError`` when it is not the owner's next one any
    more, ``fairdice.DiceSeedError`` for a person seed that cannot be used."""
    person = fairdice.check_person_seed(person_seed) if person_seed else secrets.token_hex(16)
    row = NextDiceSeed.objects.select_for_update().filter(owner=game.owner).first()
    if commitment is not None and (
        row is None or fairdice.commitment(bytes.fromhex(row.seed)) != commitment
    ):
        raise CommitmentUsedError(commitment)
    if row is None:
        server = new_server_seed()
    else:
        row.delete()
        server = row.seed
    game.dice_source = DiceSource.SEEDS
    game.server_seed = server
    game.dice_commitment = fairdice.commitment(bytes.fromhex(server))
    game.person_seed = person
    game.person_seed_from = SeedFrom.PERSON if person_seed else SeedFrom.SERVER
    game.rolls_drawn = 0


def keep_unplayed(game: Game) -> None:
    """The game ends (its dice are cleared): the roll on the row, drawn from
    its seeds and not played, is kept as it was shown for its proof."""
    number = roll_number(game)
    if game.dice is None or number is None or number < len(game.opening_rolls):
        return  # none, not from seeds, or an opening roll (listed with the openings)
    if not Turn.objects.filter(game=game, roll=number).exists():
        game.unplayed_dice = [int(game.dice[0]), int(game.dice[1])]


def share_token(game_id: int) -> str:
    """The token of the game's share link (docs/dice.md), made on the first ask:
    256 random bits, so a link can be neither guessed nor walked."""
    Game.objects.filter(pk=game_id, share_token="").update(share_token=secrets.token_urlsafe(32))
    return str(Game.objects.values_list("share_token", flat=True).get(pk=game_id))
