"""The page of a game that cannot be read (``games.row_checks``): the same
words and ways on (Resign, New game) wherever it is opened, never a 500."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import services
from games.live.state import damaged_state
from games.models import Game
from games.tiers import DEFAULT_TIER


def damaged_page(request: HttpRequest, game: Game) -> HttpResponse:
    """Why the game cannot be shown, in words, and resign it or start anew."""
    game = Game.objects.get(pk=game.pk)  # as marked
    state = damaged_state(game)
    context = {
        "game_id": game.pk,
        "message": state["message"],
        "failure": state["failure"],
        "finished": state["status"] == "finished",
        "tier": state["tier"] or DEFAULT_TIER.value,
    }
    return render(request, "games/damaged.html", context)


def damaged_or_none(request: HttpRequest, game: Game) -> HttpResponse | None:
    """The damaged page when ``game`` cannot be read (found now: stored and pushed)."""
    return damaged_page(request, game) if services.damage_found(game) else None


def damaged_message(game: Game) -> str | None:
    """What a damaged game's pages say (found now: stored and pushed), or None."""
    if not services.damage_found(game):
        return None
    return str(damaged_state(Game.objects.get(pk=game.pk))["message"])
