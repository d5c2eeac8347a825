"""Who may see a game: its owner only, for the views of every app."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from games.models import Game


def owned_game(request: HttpRequest, game_id: int) -> Game:
    """The visitor's own game; 404 for anyone else, signed in or not, so ids leak nothing."""
    if not request.user.is_authenticated:
        raise Http404
    return get_object_or_404(Game, pk=game_id, owner=request.user)
