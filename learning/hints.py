"""Hints: the best five plays for the person's roll, computed on `analysis`.

``games.services.request_hint`` (the WebSocket "hint" command, or the HTTP
endpoint in ``learning.views``) records that hints were used and queues
``learning.tasks.compute_hint`` after commit. The task stores the ranked
plays in a ``Hint`` row and tells the game's sockets; the page then fetches
``hint_json`` (reasons worded in its own language). A hint never changes the
game beyond ``hints_used`` and never runs on the computer's ``moves`` queue.
"""

from __future__ import annotations

from typing import Any

from ai_worker import candidates
from ai_worker.ranking import RankFn, default_rank
from games import broadcast
from games.engine import Dice, Position
from games.models import Game, Status
from games.tiers import Tier, tier_spec
from learning.models import AnalysisState, Hint
from learning.replay import candidate_json

TOP_PLAYS = 5


def _persons_roll(game: Game) -> bool:
    return (
        game.status in (Status.OPENING, Status.PLAYING)
        and game.turn == "light"
        and game.dice is not None
    )


def compute_hint(game_id: int, version: int, rank: RankFn = default_rank) -> None:
    """Rank the plays for the person's dice at ``version`` and store them."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    hint, _created = Hint.objects.get_or_create(
        game=game, version=version, defaults={"dice": game.dice}
    )
    if hint.state == AnalysisState.DONE:
        return
    # Steps made since the request bump the version but not the roll: the
    # hint is for the whole turn from its starting position, so it still holds.
    rolled: list[int] = list(game.dice or [])
    if not _persons_roll(game) or rolled != list(hint.dice or rolled):
        Hint.objects.filter(pk=hint.pk).update(state=AnalysisState.FAILED)
        return
    position = Position.from_position_id(game.position_id)  # LIGHT's side = the mover's
    dice = Dice(rolled[0], rolled[1])
    plays = candidates.hint(position, dice, tier_spec(Tier.EXPERT).ply, TOP_PLAYS, rank)
    Hint.objects.filter(pk=hint.pk).update(
        state=AnalysisState.DONE,
        dice=[dice.d1, dice.d2],
        candidates=[c.to_json() for c in plays],
    )
    broadcast.send_to_game(game_id, {"type": "hint", "version": version, "ready": True})


def hint_json(hint: Hint) -> dict[str, Any]:
    """The hint for the page, reasons worded in the active language."""
    return {
        "type": "hint",
        "game": hint.game_id,
        "version": hint.version,
        "state": hint.state,
        "dice": hint.dice,
        # The person is LIGHT, whose numbering is the display numbering.
        "plays": [candidate_json(c, "light") for c in hint.candidates],
    }
