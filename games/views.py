"""Lobby, play page, state and resign fallback: thin, logic lives in services."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import ensure_player
from accounts.models import MATCH_LENGTHS, GameKind
from accounts.preferences import board_prefs, remember_game_type
from games import services
from games.access import owned_game
from games.cube_state import describe_cube_refusal
from games.models import Game
from games.play_words import board_words
from games.state import build_state
from games.tiers import DEFAULT_TIER, TIERS, tier_choices

LOBBY_UNFINISHED = 20
LOBBY_RECENT = 10


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    user = request.user
    unfinished: list[Game] = []
    recent: list[Game] = []
    if user.is_authenticated:
        games = Game.objects.filter(owner=user).own_record()  # not an imported study
        unfinished = list(games.unfinished().order_by("-updated_at")[:LOBBY_UNFINISHED])
        recent = list(games.exclude(finished_at=None).order_by("-finished_at")[:LOBBY_RECENT])
    prefs = board_prefs(user)
    context = {
        "tiers": tier_choices(),
        "default_tier": prefs.get("default_tier", DEFAULT_TIER.value),
        "kinds": GameKind.choices,
        "default_kind": prefs["game_kind"],
        "match_lengths": MATCH_LENGTHS,
        "default_length": prefs["match_length"],
        "unfinished": unfinished,
        "recent": recent,
    }
    return render(request, "games/lobby.html", context)


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    tier = request.POST.get("tier", "")
    if tier not in TIERS:
        messages.error(request, _("Choose a strength tier."))
        return redirect("games:lobby")
    kind = request.POST.get("kind", GameKind.SINGLE)
    length = _int(request.POST.get("length"))
    if kind not in GameKind.values or (kind == GameKind.MATCH and length not in MATCH_LENGTHS):
        messages.error(request, _("Choose a game type and, for a match, its length."))
        return redirect("games:lobby")
    user = ensure_player(request)
    prefs = board_prefs(user)
    remember_game_type(user, kind, length if length in MATCH_LENGTHS else prefs["match_length"])
    if kind == GameKind.MATCH:
        game = services.start_match(user, tier, length)
    else:
        game = services.start_game(user, tier, kind, jacoby=prefs["jacoby"])
    return redirect("games:play", game_id=game.pk)


def _int(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        return 0


@require_GET
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    game = owned_game(request, game_id)
    context = {
        "game": game,
        "state_json": build_state(game, moves=True),
        "ws_url": f"/ws/games/{game.pk}/",
        "state_url": reverse("games:state", args=[game.pk]),
        "prefs_json": board_prefs(request.user),
        "board_words": board_words(game),
        # window.__shuanglu, the browser tests' hook: never on a production page.
        "test_hook": settings.DEBUG,
    }
    return render(request, "games/play.html", context)


@require_GET
def state(request: HttpRequest, game_id: int) -> JsonResponse:
    game = owned_game(request, game_id)
    response = JsonResponse(build_state(game, moves=True))
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    game = owned_game(request, game_id)
    try:
        version = int(request.POST.get("version", game.version))
        kind = request.POST.get("kind", "single")  # single / gammon / backgammon
        services.resign(game.pk, request.user, version, kind)
    except services.CubeRefusedError as exc:
        messages.error(request, describe_cube_refusal(exc.refusal_code))
    except (ValueError, services.StaleVersionError):
        messages.error(request, _("The game moved on; look at the board and try again."))
    except services.GameOverError:
        messages.info(request, _("This game is already over."))
    return redirect("games:play", game_id=game.pk)
