"""Lobby, play page, state and a damaged game's resignation: thin, logic lives in services."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import ensure_player
from accounts.models import MATCH_LENGTHS, GameKind
from accounts.preferences import board_prefs, remember_game_type
from games import services
from games.access import owned_game
from games.engine.fairdice import commitment, valid_person_seed
from games.live.commands import bad_seed_message
from games.live.state import build_state
from games.models import Game
from games.tiers import DEFAULT_TIER, TIERS, tier_choices, tier_pr
from games.words.play import board_words

LOBBY_UNFINISHED = 20
LOBBY_RECENT = 10
# The session key of a visitor's next server seed (docs/dice.md).
VISITOR_SEED = "next_dice_seed"


def _tier_pr(key: str) -> int | None:
    """A tier's measured PR, as the lobby rounds it ("约 PR 12")."""
    measured = tier_pr().get(key)
    return None if measured is None else round(float(measured["pr"]))


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
        # (key, label, PR measured by bench/strength.py --pr or None)
        "tiers": [(key, label, _tier_pr(key)) for key, label in tier_choices()],
        "default_tier": prefs.get("default_tier", DEFAULT_TIER.value),
        "kinds": GameKind.choices,
        "default_kind": prefs["game_kind"],
        "match_lengths": MATCH_LENGTHS,
        "default_length": prefs["match_length"],
        "unfinished": unfinished,
        "recent": recent,
        # The next game's dice commitment, shown before its seed is sent.
        "next_commitment": _next_commitment(request),
    }
    return render(request, "games/lobby.html", context)


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    tier = request.POST.get("tier", "")
    if tier not in TIERS:
        messages.error(request, _("Choose a strength tier."))
        return redirect("games:lobby")
    kind = request.POST.get("kind", GameKind.SINGLE)
    try:
        length = int(request.POST.get("length") or "")
    except ValueError:
        length = 0
    if kind not in GameKind.values or (kind == GameKind.MATCH and length not in MATCH_LENGTHS):
        messages.error(request, _("Choose a game type and, for a match, its length."))
        return redirect("games:lobby")
    seed = request.POST.get("dice_seed", "").strip() or None
    if seed is not None and not valid_person_seed(seed):
        messages.error(request, bad_seed_message())
        return redirect("games:lobby")
    visitor_seed = request.session.pop(VISITOR_SEED, None)
    user = ensure_player(request)
    if visitor_seed:
        services.keep_next_seed(user, visitor_seed)
    prefs = board_prefs(user)
    remember_game_type(user, kind, length if length in MATCH_LENGTHS else prefs["match_length"])
    if kind == GameKind.MATCH:
        game = services.start_match(user, tier, length, person_seed=seed)
    else:
        game = services.start_game(user, tier, kind, jacoby=prefs["jacoby"], person_seed=seed)
    return redirect("games:play", game_id=game.pk)


def _next_commitment(request: HttpRequest) -> str:
    """The commitment of the next game started from this page (a visitor's
    seed: docs/dice.md, "The two seeds")."""
    if request.user.is_authenticated:
        return services.next_commitment(request.user)
    seed = request.session.get(VISITOR_SEED)
    if not seed:
        seed = request.session[VISITOR_SEED] = services.new_server_seed()
    return commitment(bytes.fromhex(seed))


@require_GET
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    game = owned_game(request, game_id)
    state = build_state(game, moves=True)
    if state["damaged"]:
        return _damaged_page(request, game, state)
    context = {
        "game": game,
        "state_json": state,
        "ws_url": f"/ws/games/{game.pk}/",
        "state_url": reverse("games:state", args=[game.pk]),
        "prefs_json": board_prefs(request.user),
        "board_words": board_words(game),
        # The commitment of the game a New game / Next game here would start.
        "next_commitment": services.next_commitment(request.user),
        # window.__shuanglu, the browser tests' hook: never on a production page.
        "test_hook": settings.DEBUG,
    }
    return render(request, "games/play.html", context)


def _damaged_page(request: HttpRequest, game: Game, state: dict[str, Any]) -> HttpResponse:
    """A game whose row cannot be read: why, in words, and resign it or start anew."""
    game.refresh_from_db(fields=["failure"])
    context = {
        "game_id": game.pk,
        "message": state["message"],
        "failure": game.failure.removeprefix(services.DAMAGED),
        "finished": state["status"] == "finished",
        "tier": state["tier"] or DEFAULT_TIER.value,
    }
    return render(request, "games/damaged.html", context)


@require_GET
@never_cache
def state(request: HttpRequest, game_id: int) -> JsonResponse:
    return JsonResponse(build_state(owned_game(request, game_id), moves=True))


@require_POST
def give_up(request: HttpRequest, game_id: int) -> HttpResponse:
    """Resign a damaged game (its page offers nothing else to do with it)."""
    game = owned_game(request, game_id)
    try:
        services.give_up_damaged(game.pk, request.user)
    except services.ServiceError:
        messages.info(request, _("This game is already over."))
    return redirect("games:play", game_id=game.pk)
