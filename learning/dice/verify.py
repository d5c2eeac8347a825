"""The verify page's data and the proof's download: a finished game's seeds
and every roll as shown (docs/dice.md), recomputed in the browser by
``static/learning/verify.js``, or away from the site by docs/dice.md's
standalone check."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.dice_proof import PlayedRoll, check_game, proof_rolls, revealed, unplayed_rolls
from games.models import DiceSource, Game
from games.words.dice import unproven_words

PROOF_FORMAT = "shuanglu-dice-proof-1"
FUNCTION = (
    "die n: the first byte below 252 of HMAC-SHA-256(key = server seed (32 bytes), "
    'message = "<person seed>:<n>:<block>"), block 0, 1, ..., gives byte % 6 + 1; '
    "roll r is dice 2r and 2r + 1 (docs/dice.md)"
)


def verify_context(game: Game, *, shared: bool = False) -> dict[str, Any]:
    """What the page says: why there is nothing to check, or every roll
    (``shared``: for someone the player gave the share link)."""
    base = {"game": game, "shared": shared, "unproven": unproven_words(game, shared=shared)}
    if game.dice_source != DiceSource.SEEDS:
        return {**base, "state": game.dice_source}
    if not revealed(game):
        return {**base, "state": "not_over"}
    committed, checked = check_game(game)
    rolls = proof_rolls(game)
    labels = [_roll_label(r, shared) for r in rolls]
    return {
        **base,
        "state": "revealed",
        "committed": committed,
        "rows": [{"roll": r, "label": label} for r, label in zip(rolls, labels, strict=True)],
        "all_match": committed and all(c.matches for c in checked),
        "not_kept": unplayed_rolls(game, rolls),
        "command": _command(game, rolls),
        "verify_data": {
            "server_seed": game.server_seed,
            "person_seed": game.person_seed,
            "commitment": game.dice_commitment,
            "rolls": [
                {"roll": r.roll, "dice": list(r.dice), "label": label}
                for r, label in zip(rolls, labels, strict=True)
            ],
        },
    }


def proof_json(game: Game, *, shared: bool = False) -> dict[str, Any]:
    """The download: the commitment, both seeds, every roll in order as shown
    (the last one drawn and never played too), and whether it proves anything."""
    seeded = game.dice_source == DiceSource.SEEDS
    unproven = unproven_words(game, shared=shared)
    proof: dict[str, Any] = {
        "format": PROOF_FORMAT,
        "source": game.dice_source,
        "commitment": game.dice_commitment if seeded else None,
        "server_seed": game.server_seed if revealed(game) else None,
        "person_seed": game.person_seed if seeded else None,
        "person_seed_from": (game.person_seed_from or "unknown") if seeded else None,
        "proven": seeded and unproven is None,
        "unproven_why": unproven,
        "function": FUNCTION,
        "rolls": [],
    }
    if not seeded:
        proof["unproven_why"] = _source_words(game.dice_source)
        return proof
    if not revealed(game):
        proof["note"] = _("The server seed is shown once the game is over.")
        return proof
    rolls = proof_rolls(game)
    proof["rolls"] = [_roll_json(r) for r in rolls]
    proof["not_kept"] = unplayed_rolls(game, rolls)
    return proof


def _roll_json(roll: PlayedRoll) -> dict[str, Any]:
    shown: dict[str, Any] = {"roll": roll.roll, "dice": list(roll.dice), "what": roll.what}
    if roll.side:
        shown["side"] = roll.side
    if roll.turn is not None:
        shown["turn"] = roll.turn
    return shown


def _source_words(source: str) -> str:
    if source == DiceSource.IMPORTED:
        return _("Imported from a match file: no dice commitment.")
    return _("Started before dice commitments: these dice cannot be checked.")


def _roll_label(roll: PlayedRoll, shared: bool) -> str:
    if roll.what == "opening":
        return _("Opening roll")
    if roll.what == "unplayed":
        return _("Drawn and never played: the game ended on it")
    if roll.side == "light" and shared:
        return _("Turn %(turn)s, the player's") % {"turn": roll.turn}
    if roll.side == "light":
        return _("Turn %(turn)s, yours") % {"turn": roll.turn}
    return _("Turn %(turn)s, the computer's") % {"turn": roll.turn}


def _command(game: Game, rolls: list[PlayedRoll]) -> str:
    played = " ".join(f"{r.roll}={r.dice[0]}{r.dice[1]}" for r in rolls)
    return (
        f"python -m games.engine verify-dice --server-seed {game.server_seed} "
        f"--person-seed {game.person_seed} --commitment {game.dice_commitment} {played}"
    )


def verify_strings() -> dict[str, str]:
    """The words verify.js writes, in the page's language."""
    return {
        "match": _("matches"),
        "mismatch": _("does not match"),
        "all_match": _(
            "Every roll (%(count)s) matches the seeds, and the server seed matches "
            "the commitment shown before the first roll."
        ),
        "roll_mismatch": _(
            "Roll %(roll)s (%(label)s) does not match: shown %(played)s, the seeds give "
            "%(derived)s."
        ),
        "commitment_mismatch": _(
            "The server seed does not match the commitment shown before the first roll."
        ),
        "no_crypto": _(
            "This browser cannot compute SHA-256 here (Web Crypto needs HTTPS); use the "
            "command below instead."
        ),
        "noted_match": _("The server seed's SHA-256 is the commitment you noted down."),
        "noted_mismatch": _(
            "The server seed's SHA-256 is not the commitment you noted down: this game "
            "was not played under it."
        ),
        "noted_seed_match": _("The seed is the one you noted down."),
        "noted_seed_mismatch": _("The seed is not the one you noted down."),
    }
