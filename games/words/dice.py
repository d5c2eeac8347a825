"""The words of the dice's proof (docs/dice.md): a start refused for its
commitment, and what a game's person seed proves."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import DiceSource, Game, SeedFrom


def commitment_words(code: str, next_commitment: str) -> str:
    """Why a start was refused (``commitment_used``: another game took the
    commitment; ``commitment_missing``: the start sent none), and the next one."""
    values = {"commitment": next_commitment}
    if code == "commitment_missing":
        return (
            _(
                "A new game starts only under the dice commitment its page showed. The next "
                "game's commitment is %(commitment)s; check it and start again."
            )
            % values
        )
    return (
        _(
            "This commitment was used by another game. The next game's commitment is "
            "%(commitment)s; check it and start again."
        )
        % values
    )


def unproven_words(game: Game, *, shared: bool = False) -> str | None:
    """Why the game's dice prove nothing to its player, or None when they can:
    the person seed was drawn by the server, or it is not known who gave it
    (``shared``: said to someone the player shared the proof with)."""
    if game.dice_source != DiceSource.SEEDS or game.person_seed_from == SeedFrom.PERSON:
        return None
    if game.person_seed_from == SeedFrom.SERVER and shared:
        return _(
            "This game has no seed from the player's browser, so its dice cannot prove "
            "that they are fair."
        )
    if game.person_seed_from == SeedFrom.SERVER:
        return _(
            "This game has no seed from your browser, so its dice cannot prove to you "
            "that they are fair."
        )
    return _(
        "This game was started before the site noted where its seed came from: the "
        "server may have drawn it, so its dice cannot prove that they are fair."
    )
