"""The verify page's data: a finished game's seeds and every roll as played
(docs/dice.md), recomputed in the browser by ``static/learning/verify.js``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.dice_proof import check_game, played_rolls, revealed, unplayed_rolls
from games.models import DiceSource, Game


def verify_context(game: Game) -> dict[str, Any]:
    """What the page says: why there is nothing to check, or every roll."""
    if game.dice_source != DiceSource.SEEDS:
        return {"game": game, "state": game.dice_source}
    if not revealed(game):
        return {"game": game, "state": "not_over"}
    committed, checked = check_game(game)
    rolls = played_rolls(game)
    return {
        "game": game,
        "state": "revealed",
        "committed": committed,
        "rows": [{"roll": r, "label": _roll_label(r.what, r.side, r.turn)} for r in rolls],
        "all_match": committed and all(c.matches for c in checked),
        "unplayed": unplayed_rolls(game, rolls),
        "command": _command(game, rolls),
        "verify_data": {
            "server_seed": game.server_seed,
            "person_seed": game.person_seed,
            "commitment": game.dice_commitment,
            "rolls": [
                {"roll": r.roll, "dice": list(r.dice), "label": _roll_label(r.what, r.side, r.turn)}
                for r in rolls
            ],
        },
    }


def _roll_label(what: str, side: str, turn: int | None) -> str:
    if what == "opening":
        return _("Opening roll")
    if side == "light":
        return _("Turn %(turn)s, yours") % {"turn": turn}
    return _("Turn %(turn)s, the computer's") % {"turn": turn}


def _command(game: Game, rolls: list[Any]) -> str:
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
            "Roll %(roll)s (%(label)s) does not match: played %(played)s, the seeds give "
            "%(derived)s."
        ),
        "commitment_mismatch": _(
            "The server seed does not match the commitment shown before the first roll."
        ),
        "no_crypto": _(
            "This browser cannot compute SHA-256 here (Web Crypto needs HTTPS); use the "
            "command below instead."
        ),
    }
