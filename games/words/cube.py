"""The cube's and the match's words: why a cube command changed nothing, the
take/pass dialog, the score, in the active language (from the state alone:
docs/interfaces.md §4a).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import Cube, ResultKind, Side, result_points
from games.engine import Match as EngineMatch
from games.models import Status


def word_cube(state: dict[str, Any]) -> None:
    """Put the cube's words into ``state``, in the active language, from the state alone."""
    cube = state.get("cube")
    if not cube:
        return
    code = cube.get("why_not_code")
    cube["why_not"] = describe_cube_refusal(code) if code else None
    answers = state["status"] == Status.DOUBLED and state["turn"] == Side.LIGHT.value
    cube["dialog"] = _dialog(state) if answers else None


def _dialog(state: dict[str, Any]) -> dict[str, str]:
    """What a take and a pass of the computer's double mean at this cube and score."""
    owner = None if state["cube"]["owner"] == "centre" else Side(state["cube"]["owner"])
    cube = Cube(state["cube"]["value"], owner)
    shown = state.get("match")
    if shown is None:
        match = EngineMatch(jacoby=bool(state["cube"]["jacoby"]))
    else:
        start = shown["game_score"]
        match = EngineMatch(shown["length"], start["light"], start["dark"], shown["crawford"])
    taken = cube.taken(Side.LIGHT)
    lost = result_points(ResultKind.SINGLE, cube, match, Side.DARK)
    if match.is_money:
        single = result_points(ResultKind.SINGLE, taken, match, Side.LIGHT)
        take = ngettext(
            "Take: the cube goes to %(value)d on your side; play on for %(points)d point, "
            "twice that with a gammon.",
            "Take: the cube goes to %(value)d on your side; play on for %(points)d points, "
            "twice that with a gammon.",
            single,
        ) % {"value": taken.value, "points": single}
        passed = ngettext(
            "Pass: the computer wins %(points)d point.",
            "Pass: the computer wins %(points)d points.",
            lost,
        ) % {"points": lost}
        return {"take": take, "pass": passed}
    after = match.after(Side.DARK, lost)
    take = _("Take: the cube goes to %(value)d on your side; play on, %(score)s.") % {
        "value": taken.value,
        "score": score_words(match.light, match.dark, match.length),
    }
    passed = ngettext(
        "Pass: the computer wins %(points)d point; %(score)s.",
        "Pass: the computer wins %(points)d points; %(score)s.",
        lost,
    ) % {"points": lost, "score": score_words(after.light, after.dark, after.length)}
    return {"take": take, "pass": passed}


def score_words(light: int, dark: int, length: int) -> str:
    """The score as the person reads it: "you lead 3–2 in a 7-point match"."""
    values = {"light": light, "dark": dark, "length": length}
    if light >= length:
        return _("you win the %(length)d-point match %(light)d–%(dark)d") % values
    if dark >= length:
        return _("the computer wins the %(length)d-point match %(dark)d–%(light)d") % values
    if light > dark:
        return _("you lead %(light)d–%(dark)d in a %(length)d-point match") % values
    if dark > light:
        return _("you trail %(light)d–%(dark)d in a %(length)d-point match") % values
    return _("the score is %(light)d–%(dark)d in a %(length)d-point match") % values


def describe_cube_refusal(code: str) -> str:
    """Why a cube, resign or match command changed nothing, in words."""
    words = {
        "no_cube": _("This game is played without the cube."),
        "game_over": _("This game is over."),
        "crawford_game": _("No doubling in the Crawford game."),
        "not_your_cube": _("The computer owns the cube; only it may double now."),
        "cube_at_max": _("The cube is at 64, as high as it goes."),
        "dead_cube": _("Doubling gains you nothing: the cube already wins you the match."),
        "already_rolled": _("You may double only before you roll."),
        "not_deciding": _("The dice are already rolled."),
        "no_double_pending": _("No double is waiting for your answer."),
        "answer_first": _("Answer the double first: take or pass."),
        "resign_pending": _("The computer is still answering your resignation."),
        "not_finished": _("The next game starts when this one is over."),
        "match_over": _("The match is over."),
        "not_a_match": _("This game is not part of a match."),
    }
    return words.get(code, _("That cube action is not allowed now."))
