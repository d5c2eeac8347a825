"""The analysis board's jobs worded for the page (``board_analysis_json``).

The result of a ``BoardAnalysis`` job (``learning.study.board``) for the
page, and while the job waits, what it waits for: how many jobs are ahead of
it in the queue, or how long it has been running; a lost job is told so in
words. The plays are worded with arrows for the side the page shows, the cube
action with the doubler's and the taker's advice, a rollout (精确分析) with
its note and the play made judged by it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ai_worker.grading import ErrorClass, classify
from games.engine import Display, Position
from learning.board.input import seen_by_light, stored_context
from learning.models import AnalysisState, BoardAnalysis
from learning.review.replay import candidate_json
from learning.study.board import (
    is_lost,
    queued_ahead,
    waited_seconds,
)
from learning.study.queue import ROLLOUT_PLY
from learning.study.rollouts import rollout_progress
from learning.words.cube import cube_hint_json, cube_table, proper_action
from learning.words.unit import unit_kind, unit_line


def board_analysis_json(row: BoardAnalysis | None, side: str) -> dict[str, Any]:
    """The job for the page: state, and the plays worded, arrows for ``side``."""
    if row is None:
        return {"state": None}
    data: dict[str, Any] = {"state": row.state, "dice": row.dice, "ply": row.ply}
    if row.state in (AnalysisState.PENDING, AnalysisState.RUNNING):
        waiting = {**data, **_waiting_json(row)}
        if row.ply == ROLLOUT_PLY:
            waiting["progress"] = rollout_progress(row.pk)
        return waiting
    if row.state == AnalysisState.FAILED:
        return {**data, "message": _("The analysis failed on the server. Try again.")}
    if row.state != AnalysisState.DONE:
        return data
    if "cube" in row.result:
        data["cube"] = _cube_json(row.result["cube"], row.cube.get("side", side))
    elif "plays" in row.result:
        data["unit"] = _unit(row)
        plays = row.result["plays"]
        best = plays[0]["equity"] if plays else 0.0
        data["plays"] = [_play_json(c, side, best) for c in plays]
        if "rollout" in row.result:
            data["rollout"] = _play_rollout_json(row.result["rollout"], plays)
    else:
        data["unit"] = _unit(row)
        rolls = row.result["rolls"]
        data["average"] = round(sum(r["weight"] * r["equity"] for r in rolls) / 36, 4)
        data["rolls"] = [_roll_json(r, side) for r in rolls]
    return data


def _waiting_json(row: BoardAnalysis) -> dict[str, Any]:
    """What a waiting job waits for: ``ahead`` in the queue, ``seconds`` so far;
    a lost job is ``state`` "lost" with a ``message`` in words."""
    seconds = waited_seconds(row)
    ahead = queued_ahead(row) if row.state == AnalysisState.PENDING else None
    if is_lost(row, ahead):
        message = _("The analysis was lost on its way (the server took too long). Try again.")
        return {"state": "lost", "seconds": seconds, "message": message}
    return {"seconds": seconds, "ahead": ahead}


def _cube_json(cube: dict[str, Any], side: str) -> dict[str, Any]:
    """The cube action in words: the doubler's (``side``, on roll) and the taker's."""
    if "refusal" in cube:
        return {"refusal": cube["refusal"], "message": refusal_words(cube["refusal"])}
    double, take = cube["double"], cube["take"]
    rollout = cube.get("rollout")
    return {
        "action": proper_action(double),
        "best": double["best"],
        "answer": take["best"],
        "equities": double["equities"],
        "labels": [row["label"] for row in cube_table(double)["rows"]],
        "double": cube_hint_json(double),
        "take": cube_hint_json(take),
        "rollout": None if rollout is None else {**rollout, "note": _rollout_note(rollout)},
    }


def _rollout_note(rollout: dict[str, Any]) -> str:
    return _(
        "Rollout: %(trials)d games played out from here with the cube, each cut off "
        "after 5 half-moves and valued there; ± is one standard error."
    ) % {"trials": rollout["trials"]}


def _play_rollout_json(rollout: dict[str, Any], plays: list[dict[str, Any]]) -> dict[str, Any]:
    """A play rollout's note, and the play made judged by it: its rank, the
    equity it lost against the rollout's best and its error class."""
    note = _(
        "Rollout: each of these %(count)d plays played out %(trials)d times without "
        "the cube, each game cut off after 5 half-moves and valued there; ranked by "
        "the rollout; ± is one standard error."
    ) % {"count": len(plays), "trials": rollout["trials"]}
    data: dict[str, Any] = {"trials": rollout["trials"], "note": note, "played": None}
    index = next((i for i, c in enumerate(plays) if c["result"] == rollout["played"]), None)
    if index is not None:
        lost = max(0.0, plays[0]["equity"] - plays[index]["equity"])
        error = classify(lost)
        data["played"] = {
            "rank": index,
            "equity_lost": round(lost, 4),
            "error": error.value,
            "mark": error.mark if error is not ErrorClass.NONE else "",
        }
    return data


def refusal_words(code: str) -> str:
    """Why the side on roll may not double, on the analysis board."""
    words = {
        "crawford_game": _("No doubling in the Crawford game."),
        "not_your_cube": _("The other side owns the cube: only it may double now."),
        "cube_at_max": _("The cube is at 64, as high as it goes."),
        "dead_cube": _("The cube already wins the match for the side on roll: no double here."),
    }
    return str(words.get(code, _("The side on roll may not double now.")))


def _play_json(c: dict[str, Any], side: str, best: float) -> dict[str, Any]:
    result = seen_by_light(Position.from_position_id(c["result"]), side)
    return {
        **candidate_json(c, side),
        "se": c.get("se"),  # a rollout's standard error; None for an N-ply value
        "difference": round(c["equity"] - best, 4),
        # After the play the other side is on roll: its Position ID is the
        # result seen from the other side.
        "next_id": Position.from_position_id(c["result"]).swapped().position_id(),
        "board_after": Display.from_position(result).to_json(),
    }


def _roll_json(r: dict[str, Any], side: str) -> dict[str, Any]:
    play = r["play"]
    return {
        "dice": r["dice"],
        "weight": r["weight"],
        "equity": round(r["equity"], 4),
        "play": candidate_json(play, side) if play else None,
        "no_move": "" if play else _("No legal move: the turn passes."),
    }


def _unit(row: BoardAnalysis) -> str:
    """What a play job's figures are in and at which depth (one line)."""
    return unit_line(unit_kind(stored_context(row)), row.ply)
