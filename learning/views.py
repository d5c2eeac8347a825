"""History, review, dice statistics and help: thin views."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_POST

from games.access import owned_game
from games.damage_page import damaged_or_none
from games.engine import ROLLS
from games.models import Game, Status
from learning import history, tasks, tutor
from learning.dice import stats as dicestats
from learning.models import AnalysisState, GameAnalysis
from learning.puzzles import retry
from learning.review.game import match_summary, needs_queueing, queue_analysis
from learning.review.luck import luck_context
from learning.review.pr import pr_figures
from learning.review.replay import replay_json
from learning.study import progress
from learning.study import queue as study_queue
from learning.words.unit import unit_line, unit_of_game

HISTORY_PAGE_SIZE = 20
HELP_PAGES = ("rules", "glossary", "faq")


@require_GET
def history_page(request: HttpRequest) -> HttpResponse:
    form = history.HistoryFilter(request.GET or None)
    signed_in = request.user.is_authenticated
    mine = history.games_of(request.user) if signed_in else Game.objects.none()
    studies = history.studies_of(request.user) if signed_in else Game.objects.none()
    apart = form.studies()
    games = form.apply(studies if apart else mine)
    page = Paginator(games, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "learning/history.html",
        {
            "form": form,
            "page": page,
            "studies_only": apart,
            # The imported studies, listed apart below the user's own games.
            "study_games": [] if apart else list(form.apply(studies)[:HISTORY_PAGE_SIZE]),
            "study_count": 0 if apart else form.apply(studies).count(),
            "totals": None if apart else history.totals(games),
            "progress": progress.progress_of(games) if signed_in and not apart else None,
            "query": query.urlencode(),
        },
    )


@require_GET
def reviews(request: HttpRequest) -> HttpResponse:
    """复盘 in the header: the finished games, each a link to its review."""
    return redirect(f"{reverse('learning:history')}?status=finished")


@require_GET
def review(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's replay and its analysis as it stands; a visit queues nothing."""
    game = owned_game(request, game_id)
    damaged = damaged_or_none(request, game)
    if damaged is not None:
        return damaged
    row = GameAnalysis.objects.filter(game=game).first()
    return render(
        request,
        "learning/review.html",
        {
            "game": game,
            "analysis": row,
            "ahead": None if row is None else study_queue.reviews_ahead(row),
            "can_queue": game.status == Status.FINISHED and (row is None or needs_queueing(row)),
            "summary": _summary(row),
            "luck_result": luck_context(game, row),
            "unit_line": unit_line(unit_of_game(game), row.ply if row else None),
            "match_summary": _match_rows(game),
            "replay": replay_json(game),
            "tutor_warnings": tutor.warnings_of(game),
            "retry_count": len(retry.errors(game)),
            "status_url": reverse("learning:analysis_status", args=[game.pk]),
            "ws_url": f"/ws/games/{game.pk}/",
        },
    )


@require_POST
def analyse_again(request: HttpRequest, game_id: int) -> HttpResponse:
    """The review page's button: queue a failed, lost or missing analysis again."""
    game = owned_game(request, game_id)
    if queue_analysis(game):
        tasks.enqueue_review(game.pk)
    return redirect("learning:review", game_id=game.pk)


def _match_rows(game: Game) -> dict[str, Any] | None:
    """The match's figures so far, both sides (None outside a match)."""
    summary = match_summary(game)
    if summary is None:
        return None
    rows = [{"side": side, **summary[side]} for side in ("light", "dark")]
    return {"games": summary["games"], "rows": rows}


def _summary(row: GameAnalysis | None) -> list[dict[str, Any]]:
    if row is None or row.state != AnalysisState.DONE:
        return []
    rows = [{"side": side, **row.summary.get(side, {})} for side in ("light", "dark")]
    if any("pr" not in r for r in rows):  # a summary from before PR: from its stored losses
        turns, cubes = list(row.turns.all()), list(row.cube_decisions.all())
        for r in rows:
            r.setdefault("pr", pr_figures(r["side"], turns, cubes))
    return rows


@require_GET
def analysis_status(request: HttpRequest, game_id: int) -> JsonResponse:
    game = owned_game(request, game_id)
    row = GameAnalysis.objects.filter(game=game).first()
    if row is None:
        return JsonResponse({"state": None, "done": 0, "total": 0, "progress": 0.0})
    return JsonResponse(
        {
            "state": row.state,
            "done": row.turns_done,
            "total": row.turns_total,
            "progress": round(row.progress, 4),
            "message": row.message,
            "ahead": study_queue.reviews_ahead(row),
        }
    )


@require_GET
def stats(request: HttpRequest) -> HttpResponse:
    scopes = []
    verifiable: list[Game] = []
    if request.user.is_authenticated:
        scopes.append(("mine", dicestats.statistics_of(request.user)))
        verifiable = dicestats.verifiable_games(request.user)
    scopes.append(("site", dicestats.site_statistics()))
    return render(
        request,
        "learning/stats.html",
        {
            "scopes": [(name, _scope_rows(counts)) for name, counts in scopes],
            "verifiable": verifiable,
        },
    )


def _scope_rows(counts: dict[str, dicestats.DiceCounts]) -> list[dict[str, Any]]:
    rows = []
    for side in ("light", "dark"):
        c = counts[side]
        face_max = max(c.faces) or 1
        roll_max = max(c.rolls) or 1
        rows.append(
            {
                "side": side,
                "counts": c,
                "faces": [(i + 1, n, round(100 * n / face_max)) for i, n in enumerate(c.faces)],
                "rolls": [
                    (f"{d1}-{d2}", n, round(100 * n / roll_max), w)
                    for (d1, d2, w), n in zip(ROLLS, c.rolls, strict=True)
                ],
                "face_test": c.face_test(),
                "roll_test": c.roll_test(),
                "doubles_expected": 1 / 6,
            }
        )
    return rows


@require_GET
def help_page(request: HttpRequest, page: str = "rules") -> HttpResponse:
    if page not in HELP_PAGES:
        raise Http404
    # The help prose is written per language (help_rules.en.html, help_rules.zh-hans.html).
    names = [f"learning/help_{page}.{get_language()}.html", f"learning/help_{page}.en.html"]
    context = {"page": page, "pages": HELP_PAGES, "guest_days": settings.GUEST_RETENTION_DAYS}
    return render(request, names, context)
