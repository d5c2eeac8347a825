"""The analysis board's page and its JSON endpoints: thin views.

The page at ``/analysis/?id=POSITION_ID_OR_XGID&dice=63&side=light`` opens
on the position its address holds; the script then calls
``analysis_position`` (read an ID or a set-up), ``analysis_step`` (play a
variation) and ``analysis_run`` (ranked plays, queued on ``analysis``).
Everything works for visitors without an account too.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.throttling import client_ip
from ai_worker.cube import CubeContext
from games.engine import ROLLS, Dice, Position
from games.json_input import JsonInputError, check_fields, read_object
from games.models import Game
from learning import tasks
from learning.board import steps as board_steps
from learning.board.errors import BoardInputError
from learning.board.input import (
    ALL_ROLLS,
    MAX_MATCH,
    board_facts,
    context_json,
    context_query,
    describe_context,
    from_game,
    from_setup,
    plays_context,
    read_context,
    read_dice,
    read_position,
    read_side,
    refuse_non_game,
    xgid_context,
)
from learning.models import PracticeItem
from learning.review.phases import PHASE_LABELS
from learning.study import board as analysis_board
from learning.study import board_json as analysis_board_json
from learning.study import practice
from learning.study import queue as study_queue
from learning.words.cube import action_label as cube_action_label
from learning.words.study_strings import ANALYSIS_STRINGS, PRACTICE_STRINGS

DICE_CHOICES = [f"{d1}{d2}" for d1, d2, _weight in ROLLS]
CUBE_VALUES = [1 << i for i in range(7)]


# The study pages' bodies: a set-up is the largest (50 counts), and nests
# three deep ({"setup": {"light": [...]}}, {"steps": [[from, to]]}).
MAX_BODY_BYTES = 4096
MAX_BODY_DEPTH = 4
SCALAR = ("text", "number", "flag", "null")
BODY_FIELDS = {
    "id": ("text", "null"),
    "dice": ("text", "null"),
    "side": ("text", "null"),
    "steps": ("list", "null"),
    "setup": ("object", "null"),
    "action": ("text", "null"),
    "rollout": ("text", "null"),
    "played": ("text", "null"),
    **{key: SCALAR for key in ("cube", "owner", "match", "score", "crawford", "jacoby")},
}
BadInput = BoardInputError | JsonInputError


def _bad(error: BadInput, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": error.code, "message": error.message}, status=status)


def _body(request: HttpRequest) -> dict[str, Any]:
    """The JSON object of a study page's request, its fields' types checked."""
    data = read_object(request.body, MAX_BODY_BYTES, MAX_BODY_DEPTH)
    check_fields(data, BODY_FIELDS)
    return data


SETTING_KEYS = ("cube", "owner", "match", "score", "crawford", "jacoby")


def _open(
    data: Any, *, to_play: bool = False
) -> tuple[Position, Dice | str | None, str, CubeContext]:
    """Position, dice, side, cube and score from a query or a JSON body
    (``to_play``: for a variation or an analysis, so a game still on)."""
    side = read_side(data.get("side"))
    text = str(data.get("id") or "")
    position, rolled = read_position(text)
    refuse_non_game(position, side, to_play=to_play)
    dice = read_dice(data.get("dice")) if data.get("dice") else rolled
    return position, dice, side, _setting(data, text, side)


def _setting(data: Any, text: str, side: str) -> CubeContext:
    """The cube and score named in ``data``; else an XGID's; else a money game."""
    if any(data.get(k) not in (None, "") for k in SETTING_KEYS):
        return read_context(data, side)
    return xgid_context(text, side) or read_context({}, side)


def _setting_json(context: CubeContext) -> dict[str, Any]:
    return {"setting": context_json(context), "setting_words": describe_context(context)}


def _from_game(request: HttpRequest) -> HttpResponse:
    """``?game=ID[&turn=N]`` (links from a review or a hint): the visitor's own
    game's position, sent on to the address that holds it."""
    game_id = request.GET.get("game", "")
    if not game_id.isdigit() or not request.user.is_authenticated:
        raise Http404
    game = get_object_or_404(Game, pk=int(game_id), owner=request.user)
    turn = request.GET.get("turn", "")
    try:
        position, dice, side, context = from_game(game, int(turn) if turn.isdigit() else None)
    except BoardInputError as bad:
        return render(request, "learning/analysis.html", _page_context(bad.message))
    query = {"id": position.position_id(), "side": side}
    if dice is not None:
        query["dice"] = analysis_board.dice_key(dice)
    query |= context_query(context)
    return redirect(f"{reverse('study:analysis')}?{urlencode(query)}")


@require_GET
def analysis_page(request: HttpRequest) -> HttpResponse:
    if request.GET.get("game"):
        return _from_game(request)
    error = ""
    position, dice, side, context = Position.start(), None, "light", None
    if any(request.GET.get(k) for k in ("id", "dice", *SETTING_KEYS)):
        try:
            position, dice, side, context = _open(
                {"id": request.GET.get("id") or Position.start().position_id(), **_get(request)}
            )
        except BoardInputError as bad:
            error = bad.message
    show_cube = request.GET.get("show") == "cube"
    page = _page_context(error, position, dice, side, context, show_cube)
    return render(request, "learning/analysis.html", page)


def _page_context(
    error: str,
    position: Position | None = None,
    dice: Dice | str | None = None,
    side: str = "light",
    context: CubeContext | None = None,
    show_cube: bool = False,
) -> dict[str, Any]:
    position = position or Position.start()
    context = context or read_context({}, side)
    rolled = dice if isinstance(dice, Dice) else None
    initial = {
        **board_facts(position, side, rolled, context),
        **_setting_json(context),
        "dice": "" if dice is None else analysis_board.dice_key(dice),
        # ``show=cube``: the address of a cube action shown; the page asks for it again.
        "show_cube": show_cube and dice is None and not error,
        "error": error,
        "urls": {
            "position": reverse("study:analysis_position"),
            "step": reverse("study:analysis_step"),
            "run": reverse("study:analysis_run"),
            "page": reverse("study:analysis"),
        },
    }
    return {
        "initial": initial,
        # How long the page waits before it offers a retry (analysis.js).
        "strings": {**ANALYSIS_STRINGS, "retry_after": settings.WAIT_RETRY_SECONDS},
        "dice_choices": DICE_CHOICES,
        "cube_values": CUBE_VALUES,
        "match_lengths": range(0, MAX_MATCH + 1),
    }


def _get(request: HttpRequest) -> dict[str, str]:
    return {k: request.GET[k] for k in ("dice", "side", *SETTING_KEYS) if request.GET.get(k)}


@require_POST
def analysis_position(request: HttpRequest) -> JsonResponse:
    """Read an ID (``id``) or a set-up (``setup: {light, dark}``) for the page."""
    try:
        data = _body(request)
        side = read_side(data.get("side"))
        setup = data.get("setup")
        if isinstance(setup, dict):
            check_fields(setup, {"light": ("list", "null"), "dark": ("list", "null")})
            position = from_setup(setup.get("light") or [], setup.get("dark") or [], side)
            context = _setting(data, "", side)
            return JsonResponse(
                {**board_facts(position, side, None, context), **_setting_json(context)}
            )
        position, dice, side, context = _open(data)
    except (BoardInputError, JsonInputError) as bad:
        return _bad(bad)
    facts = board_facts(position, side, dice if isinstance(dice, Dice) else None, context)
    dice_text = "" if dice is None else analysis_board.dice_key(dice)
    return JsonResponse({**facts, **_setting_json(context), "dice": dice_text})


@require_POST
def analysis_step(request: HttpRequest) -> JsonResponse:
    """Replay the steps of a play on the board: ``id``, ``dice``, ``side``, ``steps``."""
    try:
        data = _body(request)
        position, dice, side, _context = _open(data, to_play=True)
        if not isinstance(dice, Dice):
            raise BoardInputError("bad_dice", {"text": str(data.get("dice") or "")})
        steps = board_steps.read_steps(data.get("steps", []))
    except (BoardInputError, JsonInputError) as bad:
        return _bad(bad)
    return JsonResponse(board_steps.walk(position, dice, side, steps))


def visitor_key(request: HttpRequest) -> str:
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return f"ip:{client_ip(request)}"


@require_http_methods(["GET", "POST"])
def analysis_run(request: HttpRequest) -> JsonResponse:
    """POST: ask for the analysis of ``id`` and ``dice`` (no dice: the cube
    action, with the cube and score); GET: the analysis, once ready."""
    try:
        data = _body(request) if request.method == "POST" else request.GET
        position, dice, side, context = _open(data, to_play=True)
    except (BoardInputError, JsonInputError) as bad:
        return _bad(bad)
    if data.get("rollout") and dice != ALL_ROLLS:
        return _rollout(request, position, dice, context, side, str(data.get("played") or ""))
    enqueue = tasks.enqueue_board_analysis
    judged = plays_context(context)
    if dice is None:
        row = analysis_board.find_cube_job(position, context)
    else:
        row = analysis_board.find_job(position, dice, judged)
    if request.method == "POST" and (
        row is None or row.state == "failed" or analysis_board.is_lost(row)
    ):
        visitor, address = visitor_key(request), client_ip(request)
        if not analysis_board.burst_allowed(visitor):
            message = _("Too many analyses in a short time; wait a few seconds and try again.")
            return JsonResponse({"error": "burst", "message": message}, status=429)
        if (full := study_queue.board_job_allowed(visitor, address)) is not None:
            return JsonResponse({"error": "queue_full", "message": full}, status=429)
        requester = {"requested_by": visitor, "address": address}
        if dice is None:
            row = analysis_board.request_cube_analysis(position, context, enqueue, requester)
        else:
            row = analysis_board.request_analysis(position, dice, enqueue, requester, judged)
    return JsonResponse(analysis_board_json.board_analysis_json(row, side))


def _rollout(
    request: HttpRequest,
    position: Position,
    dice: Dice | str | None,
    context: CubeContext,
    side: str,
    played_id: str,
) -> JsonResponse:
    """精确分析 of the cube action (no dice) or of a roll's plays (``played``:
    the result of the play made, in a review): POST asks for it (refused in
    words while one of the visitor's runs or once the day's budget is
    spent), GET polls it."""
    played = None
    if isinstance(dice, Dice) and played_id:
        played = analysis_board.played_play(position, dice, played_id)
        if played is None:
            message = _("That play is not one of the plays of this roll.")
            return JsonResponse({"error": "bad_played", "message": message}, status=400)
    judged = plays_context(context)
    if isinstance(dice, Dice):
        row = analysis_board.find_play_rollout(position, dice, played, judged)
    else:
        row = analysis_board.find_cube_rollout(position, context)
    if request.method == "POST" and (row is None or row.state == "failed"):
        visitor, address = visitor_key(request), client_ip(request)
        if (refused := study_queue.rollout_allowed(visitor)) is not None:
            return JsonResponse({"error": "rollout_refused", "message": refused}, status=429)
        requester = {"requested_by": visitor, "address": address}
        enqueue = tasks.enqueue_board_rollout
        if isinstance(dice, Dice):
            row = analysis_board.request_play_rollout(
                position, dice, played, enqueue, requester, judged
            )
        else:
            row = analysis_board.request_cube_rollout(position, context, enqueue, requester)
    return JsonResponse(analysis_board_json.board_analysis_json(row, side))


# ---------------------------------------------------------------- practice


def _practice_filters(request: HttpRequest) -> dict[str, Any]:
    phase = request.GET.get("phase", "")
    return {
        "blunders": request.GET.get("only") == "blunders",
        "phase": phase if phase in practice.PRACTICE_PHASES else "",
    }


@require_GET
def practice_page(request: HttpRequest) -> HttpResponse:
    """练习: the next due position of the person's own marked decisions."""
    user = request.user
    filters = _practice_filters(request)
    practice.add_from_reviews(user)
    due = practice.due_items(user, **filters) if user.is_authenticated else None
    related = ("turn__analysis", "cube__analysis")
    item = due.select_related(*related).first() if due is not None else None
    context = {
        "filters": filters,
        "phases": [(p, PHASE_LABELS[p]) for p in practice.PRACTICE_PHASES],
        "due": due.count() if due is not None else 0,
        "total": practice.items_of(user).count() if user.is_authenticated else 0,
        "item": practice.item_json(item) if item else None,
        "urls": {
            "step": reverse("study:analysis_step"),
            "answer": reverse("study:practice_answer", args=[item.pk]) if item else "",
        },
        "strings": PRACTICE_STRINGS,
    }
    return render(request, "learning/practice.html", context)


@require_POST
def practice_answer(request: HttpRequest, item_id: int) -> JsonResponse:
    """Judge the person's play (``steps``, board targets) or cube action
    (``action``) and schedule the position."""
    if not request.user.is_authenticated:
        raise Http404
    item = get_object_or_404(
        PracticeItem.objects.select_related("turn", "cube"), pk=item_id, owner=request.user
    )
    try:
        body = _body(request)
        if item.cube_id is not None:
            return _cube_answer(item, body.get("action"))
        steps = board_steps.read_steps(body.get("steps", []))
    except (BoardInputError, JsonInputError) as bad:
        return _bad(bad)
    play = practice.play_from_steps(item, steps)
    if play is None:
        message = _("Finish the play first: dice are still to be played.")
        return JsonResponse({"error": "incomplete", "message": message}, status=400)
    verdict = practice.record(item, practice.judge(item, play))
    return JsonResponse(practice.answer_json(item, verdict))


def _cube_answer(item: PracticeItem, action: Any) -> JsonResponse:
    answers = practice.CUBE_ANSWERS[item.decision]
    if action not in answers:
        labels = [cube_action_label(a) for a in answers]
        message = _("Answer with one of the buttons: %(first)s or %(second)s.") % {
            "first": labels[0],
            "second": labels[1],
        }
        return JsonResponse({"error": "bad_action", "message": message}, status=400)
    verdict = practice.record(item, practice.judge_cube(item, action))
    return JsonResponse(practice.cube_answer_json(item, verdict))
