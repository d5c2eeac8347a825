"""A game's dice proof: the verify page, the download, and the share link
that shows a friend the same page and nothing else of the owner's
(docs/dice.md, "After the game"). Thin: the data is ``verify.py``'s."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.access import owned_game
from games.damage_page import damaged_message
from games.dice_proof import revealed
from games.models import Game
from learning.dice.verify import proof_json, verify_context, verify_strings


@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game's dice beside its seeds, recomputed in the browser (docs/dice.md)."""
    game = owned_game(request, game_id)
    return _page(request, game, shared=False, damaged=damaged_message(game))


@require_GET
def verify_shared(request: HttpRequest, token: str) -> HttpResponse:
    """The same check for whoever holds the share link: the dice and nothing else."""
    return _page(request, _shared_game(token), shared=True)


@require_GET
def proof(request: HttpRequest, game_id: int) -> JsonResponse:
    """The proof as a file: checked away from the site by docs/dice.md's script."""
    game = owned_game(request, game_id)
    data = proof_json(game)
    damaged = damaged_message(game)
    if damaged is not None:
        data["damaged"] = damaged
    return _download(data, f"shuanglu-dice-{game.pk}.json")


@require_GET
def proof_shared(request: HttpRequest, token: str) -> JsonResponse:
    return _download(proof_json(_shared_game(token), shared=True), "shuanglu-dice-proof.json")


@require_POST
def share(request: HttpRequest, game_id: int) -> HttpResponse:
    """Make (once) the game's share link; the verify page then shows it."""
    game = owned_game(request, game_id)
    if revealed(game):
        services.share_token(game.pk)
    return redirect("learning:verify", game_id=game.pk)


def _page(
    request: HttpRequest, game: Game, *, shared: bool, damaged: str | None = None
) -> HttpResponse:
    """The verify page; a damaged game's words above its dice, which still read."""
    context = {
        **verify_context(game, shared=shared),
        "strings": verify_strings(),
        "damaged": damaged,
    }
    if not shared and game.share_token:
        link = reverse("learning:verify_shared", args=[game.share_token])
        context["share_url"] = request.build_absolute_uri(link)
    return render(request, "learning/verify.html", context)


def _shared_game(token: str) -> Game:
    """The game whose share link ``token`` is: only an over one's (the seed is out)."""
    game = Game.objects.filter(share_token=token).exclude(share_token="").first()
    if game is None or not revealed(game):
        raise Http404
    return game


def _download(data: dict[str, object], name: str) -> JsonResponse:
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response
