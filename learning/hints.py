"""Hints: the best five plays for the person's roll, or the right cube action
when the person may double (status ``deciding``) or must answer the
computer's double (``doubled``), computed on `analysis`.

``games.services.request_hint`` (the WebSocket "hint" command, the one way
to ask) records that hints were used and queues ``learning.tasks.compute_hint``
after commit. The task stores the ranked plays in a ``Hint`` row and sends
the hint itself to the game's sockets, worded in every site language; each
socket passes on its own page language's (``hint_json``). Before it ranks,
the task tells the sockets it is running (state ``running``), so the page
can say whether the hint is still queued or being worked out; a task that
raises stores and sends the hint as failed, so the page says so in words
rather than waiting. A hint never changes the game beyond ``hints_used``
and never runs on the `moves` queue.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation

from ai_worker import candidates, rank_cache
from ai_worker.ranking import RankFn, default_rank
from games.engine import Dice, Position
from games.live import broadcast
from games.models import Game, Status
from games.tiers import Tier, tier_spec
from learning import tutor
from learning.models import AnalysisState, Hint
from learning.review.replay import candidate_json
from learning.words.cube import cube_hint_json

TOP_PLAYS = rank_cache.SHOWN  # one ranking serves the hint, the tutor and the review


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
    if hint.state != AnalysisState.DONE:
        broadcast.send_to_game(game_id, {"type": "hint", "version": version, "state": "running"})
        try:
            if _persons_cube(game):
                _advise_cube(game, hint)
            else:
                _rank_plays(game, hint, rank)
        except Exception:
            Hint.objects.filter(pk=hint.pk).update(state=AnalysisState.FAILED)
            hint.refresh_from_db()
            broadcast.send_to_game(game_id, hint_event(hint))
            raise
    hint.refresh_from_db()
    broadcast.send_to_game(game_id, hint_event(hint))


def _persons_cube(game: Game) -> bool:
    """The person is to double or roll, or to answer the computer's double."""
    return game.status in (Status.DECIDING, Status.DOUBLED) and game.turn == "light"


def _advise_cube(game: Game, hint: Hint) -> None:
    """The right cube action at the Expert's depth, with the cube and score
    (the tutor's advice for the same decision, when it is there already)."""
    found = tutor.cube_decision(game)
    if found is None:
        Hint.objects.filter(pk=hint.pk).update(state=AnalysisState.FAILED)
        return
    advice = rank_cache.cube_advice(*found, tier_spec(Tier.EXPERT).cube_depth)
    Hint.objects.filter(pk=hint.pk).update(
        state=AnalysisState.DONE, dice=None, candidates=[], cube=advice.to_json()
    )


def _rank_plays(game: Game, hint: Hint, rank: RankFn) -> None:
    # Steps made since the request bump the version but not the roll: the
    # hint is for the whole turn from its starting position, so it still holds.
    rolled: list[int] = list(game.dice or [])
    if not _persons_roll(game) or rolled != list(hint.dice or rolled):
        Hint.objects.filter(pk=hint.pk).update(state=AnalysisState.FAILED)
        return
    position = Position.from_position_id(game.position_id)  # LIGHT's side = the mover's
    dice = Dice(rolled[0], rolled[1])
    # The tutor's ranking of the same roll, when it is there already; in the
    # game's unit, at its cube and score, as the review judges the play.
    shared = rank_cache.cached_rank(rank)
    context = rank_cache.game_context(game)
    ply = tier_spec(Tier.EXPERT).ply
    plays = candidates.hint(position, dice, ply, TOP_PLAYS, shared, context)
    Hint.objects.filter(pk=hint.pk).update(
        state=AnalysisState.DONE,
        dice=[dice.d1, dice.d2],
        candidates=[c.to_json() for c in plays],
    )


def hint_event(hint: Hint) -> dict[str, Any]:
    """The socket event: ``hint_json`` in each language, for each socket's own."""
    by_language = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            by_language[code] = hint_json(hint)
    return {"type": "hint", "version": hint.version, "by_language": by_language}


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
        "cube": cube_hint_json(hint.cube) if hint.cube else None,
    }
