"""Matches: start one from the lobby, start its next game, find it (the
score moves on as each game ends: ``turns.record_result``).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Game, GameKind, Match
from games.services.errors import CubeRefusedError, NotYourGameError
from games.services.person import start_game
from games.services.rows import lock, save
from games.tiers import Tier


def start_match(
    user: Any,
    tier: str,
    length: int,
    *,
    person_seed: str | None = None,
    commitment: str | None = None,
) -> Game:
    """A new match to ``length`` points and its first game (``person_seed``,
    ``commitment``: see start_game)."""
    with transaction.atomic():
        match = Match.objects.create(owner=user, tier=Tier(tier).value, length=length)
        return start_game(
            user,
            match.tier,
            GameKind.MATCH,
            match=match,
            person_seed=person_seed,
            commitment=commitment,
        )


def next_game(
    game_id: int, user: Any, version: int, seed: str | None = None, commitment: str | None = None
) -> Game:
    """Start the match's game after ``game_id`` (finished) unless it was; returns
    the finished game, at a new version when started here so its sockets learn
    ``match.next_game``. ``seed``, ``commitment``: the person's seed for its
    dice and the commitment the page showed (``start_game``)."""
    with transaction.atomic():
        game = lock(game_id)
        if game.owner_id != getattr(user, "pk", None):
            raise NotYourGameError(f"game {game_id} is not yours")
        if game.match_id is None:
            raise CubeRefusedError("not_a_match")
        match = Match.objects.select_for_update().get(pk=game.match_id)
        if match.games.filter(match_game=(game.match_game or 0) + 1).exists():
            return game
        if not game.is_over:
            raise CubeRefusedError("not_finished")
        if match.is_over:
            raise CubeRefusedError("match_over")
        start_game(
            user,
            match.tier,
            GameKind.MATCH,
            match=match,
            person_seed=seed or None,
            commitment=commitment,
        )
        return save(game)
