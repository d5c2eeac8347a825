"""Lobby, play page, state and a damaged game's resignation: thin, logic lives in services."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.guests import ensure_player
from accounts.models import MATCH_LENGTHS, GameKind
from accounts.preferences import board_prefs, remember_game_type
from games import services
from games.access import owned_game
from games.damage_page import damaged_page
from games.engine.fairdice import valid_person_seed
from games.live.commands import bad_seed_message
from games.live.state import build_state
from games.models import Game
from games.start_form import VISITOR_SEED, keep_form, kept_form, next_commitment_for
from games.tiers import DEFAULT_TIER, TIERS, tier_choices, tier_pr
from games.words.dice import commitment_words, unproven_words
from games.words.play import board_words

LOBBY_UNFINISHED = 20
LOBBY_RECENT = 10


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
    # A refused start's choices come back as they were sent.
    kept = kept_form(request)
    tier = kept.get("tier") if kept.get("tier") in TIERS else None
    kind = kept.get("kind") if kept.get("kind") in GameKind.values else None
    length = _length(kept.get("length"))
    context = {
        # (key, label, PR measured by bench/strength.py --pr or None)
        "tiers": [(key, label, _tier_pr(key)) for key, label in tier_choices()],
        "default_tier": tier or prefs.get("default_tier", DEFAULT_TIER.value),
        "kinds": GameKind.choices,
        "default_kind": kind or prefs["game_kind"],
        "match_lengths": MATCH_LENGTHS,
        "default_length": length if length in MATCH_LENGTHS else prefs["match_length"],
        "unfinished": unfinished,
        "recent": recent,
        "kept_form": kept,
    }
    return render(request, "games/lobby.html", context)


def _length(text: Any) -> int:
    try:
        return int(text or "")
    except ValueError:
        return 0


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """A new game under the commitment its page showed (docs/dice.md)."""
    tier = request.POST.get("tier", "")
    if tier not in TIERS:
        messages.error(request, _("Choose a strength tier."))
        return redirect("games:lobby")
    kind = request.POST.get("kind", GameKind.SINGLE)
    length = _length(request.POST.get("length"))
    if kind not in GameKind.values or (kind == GameKind.MATCH and length not in MATCH_LENGTHS):
        messages.error(request, _("Choose a game type and, for a match, its length."))
        return redirect("games:lobby")
    seed = request.POST.get("dice_seed", "").strip() or None
    if seed is not None and not valid_person_seed(seed):
        messages.error(request, bad_seed_message())
        return _refused(request)
    shown = request.POST.get("commitment", "").strip().lower()
    if not shown:
        words = commitment_words("commitment_missing", next_commitment_for(request))
        return _refused(request, words)
    visitor_seed = request.session.pop(VISITOR_SEED, None)
    user = ensure_player(request)
    if visitor_seed:
        services.keep_next_seed(user, visitor_seed)
    prefs = board_prefs(user)
    try:
        if kind == GameKind.MATCH:
            game = services.start_match(user, tier, length, person_seed=seed, commitment=shown)
        else:
            game = services.start_game(
                user, tier, kind, jacoby=prefs["jacoby"], person_seed=seed, commitment=shown
            )
    except services.CommitmentUsedError:
        words = commitment_words("commitment_used", next_commitment_for(request))
        return _refused(request, words)
    remember_game_type(user, kind, length if length in MATCH_LENGTHS else prefs["match_length"])
    return redirect("games:play", game_id=game.pk)


def _refused(request: HttpRequest, words: str | None = None) -> HttpResponse:
    """Back to the page the start came from, its choices kept, with why in words."""
    if words is not None:
        messages.error(request, words)
    keep_form(request)
    back = request.POST.get("back", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("games:lobby")


@require_GET
@never_cache
def next_commitment(request: HttpRequest) -> JsonResponse:
    """The commitment a start form shows now: a tab asks again when it gains focus."""
    return JsonResponse({"commitment": next_commitment_for(request)})


@require_GET
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    game = owned_game(request, game_id)
    state = build_state(game, moves=True)
    if state["damaged"]:
        return damaged_page(request, game)
    context = {
        "game": game,
        "state_json": state,
        "ws_url": f"/ws/games/{game.pk}/",
        "state_url": reverse("games:state", args=[game.pk]),
        "prefs_json": board_prefs(request.user),
        "board_words": board_words(game),
        # Said beside the commitment when the dice prove nothing to the person.
        "dice_unproven": unproven_words(game),
        # window.__shuanglu, the browser tests' hook: never on a production page.
        "test_hook": settings.DEBUG,
    }
    return render(request, "games/play.html", context)


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
