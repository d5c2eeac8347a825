"""The data the review page replays: boards, steps and analysis per turn.

Everything is in display numbering (LIGHT's points, ``"bar"``/``"off"`` for
DARK's bar and tray), with the reasons worded in the active language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from ai_worker.context import CubeContext
from ai_worker.explain import PLAY_PARAMS, POINT_PARAMS
from games.engine import Display, Position
from games.models import Game, Turn
from games.steps import display_notation, display_point, turn_json
from learning.board.input import context_json, seen_by_light
from learning.models import CubeAnalysis, GameAnalysis, TurnAnalysis
from learning.review.cube import CubeDecision, cube_decisions, turn_contexts
from learning.words.cube import cube_table, cube_verdict, why
from learning.words.labels import side_names
from learning.words.reasons import linked_terms, render_reasons
from learning.words.versus import render_versus


def display_steps(steps: Sequence[Sequence[Any]], side: str) -> list[dict[str, Any]]:
    """[[src, dst, ...], ...] (mover's numbering) as [{"from", "to"}] for arrows."""
    return [
        {"from": display_point(int(s[0]), side), "to": display_point(int(s[1]), side)}
        for s in steps
    ]


def board_json(position_id: str) -> dict[str, Any]:
    return Display.from_position(Position.from_position_id(position_id)).to_json()


def candidate_json(c: dict[str, Any], side: str) -> dict[str, Any]:
    """A stored ``Candidate`` (a hint's or a review's) for the page: reasons
    worded in the active language, steps in display numbering with hits; the
    points the reasons name in display numbering too (one frame on a page)."""
    steps = [
        {**step, "hit": bool(raw[2]) if len(raw) > 2 else False}
        for step, raw in zip(display_steps(c["steps"], side), c["steps"], strict=True)
    ]
    return {
        "notation": display_notation(c["notation"], side),
        "equity": c["equity"],
        "probs": c["probs"],
        # What the best play does that this one does not comes first; the
        # glossary's terms marked for the page to link (terms.js putWords).
        "reasons": linked_terms(
            render_versus([seen_on_board(r, side) for r in c.get("versus") or []])
            + render_reasons([seen_on_board(r, side) for r in c["reasons"]])
        ),
        "steps": steps,
    }


def seen_on_board(reason: dict[str, Any], side: str) -> dict[str, Any]:
    """A stored reason (a play's or a comparison's) with every point and play
    it names (the mover's numbering) in the board's: the computer's 24 point
    is the person's 1 point, its 24/18 the board's 1/7."""
    params = reason.get("params") or {}
    if side == "light":
        return reason
    seen: dict[str, Any] = {}
    for key, value in params.items():
        if key in POINT_PARAMS and isinstance(value, list):
            value = [display_point(int(p), side) for p in value]
        elif key in POINT_PARAMS:
            value = display_point(int(value), side)
        elif key in PLAY_PARAMS:
            value = display_notation(str(value), side)
        seen[key] = value
    return {**reason, "params": seen}


def cube_json(c: CubeAnalysis, decision: CubeDecision | None = None) -> dict[str, Any]:
    """One reviewed cube decision for the page: what was done, the right
    action, the loss and its class, the figures; why, for the person's; and
    the fields with which its 精确分析 is asked for (``rollout_request``)."""
    return {
        "side": c.side,
        "decision": c.decision,
        "action": c.action,
        "best": c.best,
        "equity_lost": round(c.equity_lost, 4),
        "error": c.error_class,
        "mark": _MARKS.get(c.error_class, ""),
        "trivial": c.trivial,
        "verdict": cube_verdict(c.report, c.action),
        "table": cube_table(c.report),
        "why": why(c.report) if c.side == "light" else None,
        "ply": c.report.get("ply"),
        "rollout": None if decision is None else rollout_request(decision),
    }


def rollout_request(decision: CubeDecision) -> dict[str, str]:
    """The analysis board's request (``study:analysis_run``) for a rollout of
    ``decision``: the doubler's board, on roll, with its cube and score. A
    take is rolled out as the double it answers (the same table)."""
    return {
        "id": decision.position.position_id(),
        "dice": "",
        "side": decision.context.mover.value,
        **setting_fields(decision.context),
        "rollout": "1",
    }


def setting_fields(context: CubeContext) -> dict[str, str]:
    """A cube and score as the analysis board's request fields."""
    setting = context_json(context)
    return {
        "cube": str(setting["cube"]),
        "owner": setting["owner"],
        "match": str(setting["match"]),
        "score": setting["score"],
        "crawford": "1" if setting["crawford"] else "",
        "jacoby": "1" if setting["jacoby"] else "",
    }


def review_turn_json(
    turn: Turn,
    review: TurnAnalysis | None,
    cubes: Sequence[CubeAnalysis] = (),
    decisions: Mapping[int, CubeDecision] | None = None,
    context: CubeContext | None = None,
) -> dict[str, Any]:
    """The state's ``last_turn`` shape (``games.steps.turn_json``), with both
    boards, the turn's analysis and the cube decisions made before its roll."""
    data: dict[str, Any] = {
        **turn_json(turn),
        "before": board_json(turn.position_before),
        "after": board_json(turn.position_after),
        "analysis": None,
        "cube": [cube_json(c, (decisions or {}).get(c.before_turn)) for c in cubes],
    }
    if review is not None:
        report = review.report
        data["analysis"] = {
            "forced": review.forced,
            "equity_lost": round(review.equity_lost, 4),
            "error": review.error_class,
            "mark": _MARKS.get(review.error_class, ""),
            "luck": None if review.luck is None else round(review.luck, 4),
            # In a match the same luck in match winning chances.
            "luck_mwc": report.get("luck_mwc"),
            "win_light": round(review.win_light, 4),
            # In a match: the person's chance to win the match after the turn.
            "mwc_light": report.get("mwc_light"),
            "played_rank": report.get("played_rank"),
            # The depth this turn's plays were ranked at (``TurnReport.ply``).
            "ply": report.get("ply"),
            "played": candidate_json(report["played_candidate"], turn.side)
            if report.get("played_candidate")
            else None,
            "alternatives": [candidate_json(c, turn.side) for c in report.get("alternatives", [])],
            "rollout": play_rollout_request(turn, review, context),
        }
    return data


def play_rollout_request(
    turn: Turn, review: TurnAnalysis, context: CubeContext | None = None
) -> dict[str, str] | None:
    """The analysis board's request (``study:analysis_run``) for a rollout of
    the turn's shown plays and the play made, at the turn's cube and score
    (rolled out in the unit the review judged it in); None for a forced turn."""
    played = review.report.get("played_candidate") or {}
    if review.forced or not played.get("result"):
        return None
    position = seen_by_light(Position.from_position_id(turn.position_before), turn.side)
    return {
        "id": position.position_id(),
        "dice": f"{turn.die1}{turn.die2}",
        "side": turn.side,
        "played": played["result"],
        **(setting_fields(context) if context is not None else {}),
        "rollout": "1",
    }


_MARKS = {"doubtful": "?!", "bad": "?", "very_bad": "??"}


def replay_json(game: Game) -> dict[str, Any]:
    """Every turn of ``game`` in order, with its analysis when there is one."""
    reviews = {t.number: t for t in TurnAnalysis.objects.filter(analysis__game=game)}
    cubes: dict[int, list[CubeAnalysis]] = {}
    for c in CubeAnalysis.objects.filter(analysis__game=game):
        cubes.setdefault(c.before_turn, []).append(c)
    turns = list(game.turns.order_by("number"))
    last = turns[-1].number if turns else 0
    start = turns[0].position_before if turns else game.position_id
    row = GameAnalysis.objects.filter(game=game).only("ply").first()
    # Each cube decision's board and cube, by the turn it came before (a
    # double and its answer share them).
    decisions = {d.before_turn: d for d in cube_decisions(game)} if cubes else {}
    contexts = turn_contexts(game)
    return {
        "game": game.pk,
        # Who played, as the page names them (an imported game's players).
        "sides": sides_json(game),
        # The review's depth: a turn ranked shallower was an obvious decision.
        "review_ply": row.ply if row else None,
        "match": game.match_id is not None,
        "start": board_json(start),
        "turns": [
            review_turn_json(
                t, reviews.get(t.number), cubes.get(t.number, []), decisions, contexts.get(t.number)
            )
            for t in turns
        ],
        # A double passed after the last turn ended the game: shown at its end.
        "end_cube": [
            cube_json(c, decisions.get(n)) for n in sorted(cubes) if n > last for c in cubes[n]
        ],
    }


def sides_json(game: Game) -> dict[str, Any]:
    """The two sides' names and the words that name them (``side_names``):
    "you" only for the person's side, an imported game's players as the file
    names them; each sentence in the active language, with its figures left
    as ``%(…)s`` for the page."""
    names = side_names(game)
    if game.file_players is None:  # played here: you and the computer
        return {
            **names,
            "cube_heading": {
                "light": _("Your cube decision"),
                "dark": _("The computer's cube decision"),
            },
            "after": _("Your chance to win afterwards: %(win)s."),
            "after_match": _("Your chance to win the match afterwards: %(win)s."),
            "graph": _("Turn %(n)s: your chance %(win)s"),
            "graph_match": _("Turn %(n)s: your chance to win the match %(win)s"),
            "why_dark": _("Why the computer chose this play:"),
        }
    light = names["light"] if game.is_study else _("you")
    heading = _("Cube decision: %(name)s")
    return {
        **names,
        "cube_heading": {side: heading % {"name": name} for side, name in names.items()},
        "after": _("The chance %(name)s wins afterwards: %%(win)s.") % {"name": light},
        "after_match": _("The chance %(name)s wins the match afterwards: %%(win)s.")
        % {"name": light},
        "graph": _("Turn %%(n)s: the chance %(name)s wins %%(win)s") % {"name": light},
        "graph_match": _("Turn %%(n)s: the chance %(name)s wins the match %%(win)s")
        % {"name": light},
        "why_dark": _("What %(name)s's play does:") % {"name": names["dark"]},
    }
