"""Cube advice (``ai_worker.cube_advice.CubeAdvice.to_json``) in the page's language.

``cube_hint_json`` is the ``cube`` of a hint on a cube decision: the right
action, the chances, each action's equity, the take point and why, as
sentences the hint panel lists. ``cube_verdict`` is the review's line for a
cube decision. Every figure comes from the stored advice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from learning.words.versus import _pct


def action_label(action: str, redouble: bool = False) -> str:
    """An action's name; a double of a cube the doubler owns is a redouble."""
    if redouble:
        again = {
            "no_double": pgettext("cube action", "No redouble"),
            "double": pgettext("cube action", "Redouble"),
            "too_good": pgettext("cube action", "Too good to redouble"),
        }
        if action in again:
            return again[action]
    labels = {
        "no_double": pgettext("cube action", "No double"),
        "double": pgettext("cube action", "Double"),
        "too_good": pgettext("cube action", "Too good to double"),
        "take": pgettext("cube action", "Take"),
        "pass": pgettext("cube action", "Pass"),
    }
    return labels.get(action, action)


def proper_action(advice: Mapping[str, Any]) -> str:
    """The whole right action, as GNU Backgammon names it: "Double, take"
    ("Redouble, take" when the doubler owns the cube)."""
    e = advice["equities"]
    answer = "take" if e["double_take"] <= e["double_pass"] else "pass"
    if advice["decision"] == "take":
        return action_label(advice["best"])
    if advice.get("redouble"):
        again = {
            ("no_double", "take"): pgettext("cube action", "No redouble, take"),
            ("no_double", "pass"): pgettext("cube action", "No redouble, pass"),
            ("double", "take"): pgettext("cube action", "Redouble, take"),
            ("double", "pass"): pgettext("cube action", "Redouble, pass"),
            ("too_good", "pass"): pgettext("cube action", "Too good to redouble, pass"),
        }
        return again.get((advice["best"], answer), action_label(advice["best"], True))
    names = {
        ("no_double", "take"): pgettext("cube action", "No double, take"),
        ("no_double", "pass"): pgettext("cube action", "No double, pass"),
        ("double", "take"): pgettext("cube action", "Double, take"),
        ("double", "pass"): pgettext("cube action", "Double, pass"),
        ("too_good", "pass"): pgettext("cube action", "Too good to double, pass"),
    }
    return names.get((advice["best"], answer), action_label(advice["best"]))


def _equity(value: Any) -> str:
    return f"{float(value):+.3f}"


def _chances(p: Mapping[str, Any], person_doubles: bool) -> dict[str, str]:
    """The person's chances (the stored ones are the doubler's)."""
    if person_doubles:
        mine = (p["win"], p["win_gammon"], p["win_backgammon"], p["lose_gammon"])
        theirs_bg = p["lose_backgammon"]
    else:
        mine = (1.0 - float(p["win"]), p["lose_gammon"], p["lose_backgammon"], p["win_gammon"])
        theirs_bg = p["win_backgammon"]
    return {
        "win": _pct(mine[0]),
        "gammon": _pct(mine[1]),
        "bg": _pct(mine[2]),
        "lose_gammon": _pct(mine[3]),
        "lose_bg": _pct(theirs_bg),
    }


def _too_good(p: Mapping[str, Any]) -> str:
    text = _(
        "You win %(win)s with %(gammon)s gammons: too good to double, play on for the "
        "gammon (doubling would give away %(gain).3f)."
    )
    return text % {**_pcts(p), "gain": float(p["gain"])}


def _double_pass(p: Mapping[str, Any]) -> str:
    if p.get("redouble"):
        text = _(
            "Redouble: the opponent wins only %(opp_win)s and should pass; cashing now gains "
            "%(gain).3f over playing on."
        )
    else:
        text = _(
            "Double: the opponent wins only %(opp_win)s and should pass; cashing now gains "
            "%(gain).3f over playing on."
        )
    return text % {**_pcts(p), "gain": float(p["gain"])}


def _double_take(p: Mapping[str, Any]) -> str:
    if p.get("redouble"):
        text = _(
            "Redouble: you win %(win)s and the cube is worth %(gain).3f more turned now; the "
            "opponent should still take."
        )
    else:
        text = _(
            "Double: you win %(win)s and the cube is worth %(gain).3f more turned now; the "
            "opponent should still take."
        )
    return text % {**_pcts(p), "gain": float(p["gain"])}


def _no_double(p: Mapping[str, Any]) -> str:
    if p.get("redouble"):
        text = _(
            "Not yet: you win %(win)s with %(gammon)s gammons, and you own the cube; "
            "redoubling now would hand it over and give away %(loss).3f."
        )
    else:
        text = _(
            "Not yet: you win %(win)s with %(gammon)s gammons; doubling now would give away "
            "%(loss).3f."
        )
    return text % {**_pcts(p), "loss": float(p["loss"])}


def _teacher(p: Mapping[str, Any]) -> list[str]:
    """What a teacher names besides the chances: the market losers, the score."""
    said = []
    if p.get("market") is not None:
        said.append(
            _(
                "Market losers: after %(market)s of the sequences of your roll and the "
                "opponent's reply, the opponent should pass your next double."
            )
            % {"market": _pct(p["market"])}
        )
    if p.get("away") is not None:
        said.append(
            _("The score: you need %(away)d more points, the opponent %(opp_away)d.")
            % {"away": int(p["away"]), "opp_away": int(p["opp_away"])}
        )
    return said


def _take(p: Mapping[str, Any]) -> str:
    if p.get("against_take_point"):
        text = _(
            "Take: you win %(win)s, more than the %(take_point)s you need at this score; "
            "passing would give away %(margin).3f."
        )
    else:
        text = _("Take: at this score taking is worth %(margin).3f more than passing.")
    return text % {**_pcts(p), "margin": float(p["margin"])}


def _pass(p: Mapping[str, Any]) -> str:
    if p.get("against_take_point"):
        text = _(
            "Pass: you win only %(win)s, less than the %(take_point)s you need at this "
            "score; taking would give away %(margin).3f."
        )
    else:
        text = _(
            "Pass: at this score passing is worth %(margin).3f more than taking (%(lose_gammon)s "
            "gammons against you)."
        )
    return text % {**_pcts(p), "margin": float(p["margin"])}


def _pcts(p: Mapping[str, Any]) -> dict[str, str]:
    keys = ("win", "opp_win", "gammon", "lose_gammon", "take_point")
    return {k: _pct(p[k]) for k in keys if p.get(k) is not None}


WHY: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "too_good": _too_good,
    "double_pass": _double_pass,
    "double_take": _double_take,
    "no_double": _no_double,
    "take": _take,
    "pass": _pass,
}


def _at_score(code: str, p: Mapping[str, Any]) -> list[str]:
    """The score's own reason, where it decides: gammon-go, the free drop,
    gammons the taker cannot use (``ai_worker.context``)."""
    said = []
    if code == "too_good" and p.get("gammon_go"):
        said.append(
            _(
                "Gammon-go: a gammon at the cube's value wins you the match, so playing on "
                "for it is worth more than what the opponent's pass would give."
            )
        )
    if code in ("take", "pass") and p.get("free_drop"):
        said.append(
            _(
                "A free drop: after the Crawford game, passing leaves the trailer an odd "
                "number of points away, no better for it than the even number it had."
            )
        )
    if code in ("take", "pass") and p.get("taker_gammons_free"):
        said.append(
            _(
                "Your gammons count for nothing here: once you own the cube a single win "
                "already wins you the match."
            )
        )
    return said


def why(advice: Mapping[str, Any]) -> str:
    """Why: the chances and the gain or loss, the score's own reason when it
    decides, then the market losers and the score when the advice has them
    (a doubler's decision)."""
    reason = advice["why"]
    params = reason["params"]
    code = reason["code"]
    return joined([WHY[code](params), *_at_score(code, params), *_teacher(params)])


def joined(parts: list[str]) -> str:
    """Sentences joined as each language writes them: no space after "。"
    (``sentences`` in static/games/common.js)."""
    text = ""
    for part in filter(None, parts):
        text = (
            part
            if not text
            else text + part
            if text[-1] in "。！？；：，、）」"
            else f"{text} {part}"
        )
    return text


def cube_hint_json(advice: Mapping[str, Any]) -> dict[str, Any]:
    """The hint on the person's cube decision (LIGHT doubles, or answers)."""
    doubles = advice["decision"] == "double"
    c = _chances(advice["probs"], doubles)
    e, values = advice["equities"], advice["values"]
    if doubles:
        equities = _(
            "Equities (in units of the cube now): no double %(nd)s, double/take %(dt)s, "
            "double/pass %(dp)s."
        ) % {
            "nd": _equity(e["no_double"]),
            "dt": _equity(e["double_take"]),
            "dp": _equity(e["double_pass"]),
        }
    else:
        equities = _("Equities (in units of the cube now): take %(take)s, pass %(pass)s.") % {
            "take": _equity(values["take"]),
            "pass": _equity(values["pass"]),
        }
    lines = [
        _(
            "Your chances: win %(win)s (gammon %(gammon)s, backgammon %(bg)s); lose a gammon "
            "%(lose_gammon)s, a backgammon %(lose_bg)s."
        )
        % c,
        equities,
    ]
    if advice.get("take_point") is not None:
        point = _pct(advice["take_point"])
        if doubles:
            lines.append(
                _("The opponent's take point at this score: %(point)s.") % {"point": point}
            )
        else:
            lines.append(_("Your take point at this score: %(point)s.") % {"point": point})
    lines.append(why(advice))
    return {
        "decision": advice["decision"],
        "best": advice["best"],
        "title": _("The right cube action: %(action)s.") % {"action": proper_action(advice)},
        "lines": lines,
        "ply": advice.get("ply"),
    }


def cube_verdict(advice: Mapping[str, Any], action: str) -> str:
    """The review's sentence for ``action`` taken on this advice."""
    return _("%(action)s; the right action: %(best)s.") % {
        "action": action_label(action, bool(advice.get("redouble"))),
        "best": proper_action(advice),
    }


def cube_table(advice: Mapping[str, Any]) -> dict[str, Any]:
    """The review's table of a cube decision, as GNU Backgammon prints it: each
    action's equity for the side that doubles (in units of the cube now), its
    difference from the right one, the right action and the take point."""
    e = advice["equities"]
    best = max(float(e["no_double"]), min(float(e["double_take"]), float(e["double_pass"])))
    if advice.get("redouble"):
        rows = [
            ("no_double", pgettext("cube action", "No redouble")),
            ("double_take", pgettext("cube action", "Redouble, take")),
            ("double_pass", pgettext("cube action", "Redouble, pass")),
        ]
    else:
        rows = [
            ("no_double", pgettext("cube action", "No double")),
            ("double_take", pgettext("cube action", "Double, take")),
            ("double_pass", pgettext("cube action", "Double, pass")),
        ]
    point = advice.get("take_point")
    return {
        "rows": [
            {
                "key": key,
                "label": label,
                "equity": _equity(e[key]),
                "difference": _equity(float(e[key]) - best),
            }
            for key, label in rows
        ],
        "right": _("The right action: %(action)s.") % {"action": proper_action(advice)},
        "take_point": (
            _("Take point at this score: %(point)s.") % {"point": _pct(point)}
            if point is not None
            else ""
        ),
    }
