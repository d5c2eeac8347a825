"""Reasons (``ai_worker.explain.Reason`` as JSON) in the page's language,
and the glossary's terms the words about a play link (``linked_terms``: the
hint's, the review's and the tutor's words)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from learning.glossary.marks import with_terms

# The glossary's terms the words about a play link where they first name
# them (the cube's are linked in a cube action's words only: a play's words
# say 放弃 of a point, which is no pass of a double).
PLAY_TERMS = (
    "blot",
    "builder",
    "anchor",
    "prime",
    "backgammon",
    "gammon",
    "race",
    "pip-count",
    "bear-off",
    "hit",
    "back-checkers",
    "home-board",
    "outer-board",
    "slot",
    "made-point",
    "shots",
    "enter",
)
CUBE_TERMS = ("take-point", "take", "pass", "double")


def _list(points: Sequence[int]) -> str:
    return pgettext("list separator", ", ").join(str(p) for p in points)


def _hits(p: Mapping[str, Any]) -> str:
    n = int(p["count"])
    return ngettext(
        "Hits %(n)d checker, sending it to the bar.",
        "Hits %(n)d checkers, sending them to the bar.",
        n,
    ) % {"n": n}


def _enters(p: Mapping[str, Any]) -> str:
    n = int(p["count"])
    return ngettext(
        "Enters %(n)d checker from the bar.", "Enters %(n)d checkers from the bar.", n
    ) % {"n": n}


def _makes_points(p: Mapping[str, Any]) -> str:
    pts = p["points"]
    return ngettext("Makes the %(points)s point.", "Makes the %(points)s points.", len(pts)) % {
        "points": _list(pts)
    }


def _breaks_points(p: Mapping[str, Any]) -> str:
    pts = p["points"]
    return ngettext(
        "Gives up the %(points)s point.", "Gives up the %(points)s points.", len(pts)
    ) % {"points": _list(pts)}


def _splits(p: Mapping[str, Any]) -> str:
    pts = p["points"]
    return ngettext(
        "Splits the back checkers on the %(points)s point.",
        "Splits the back checkers on the %(points)s points.",
        len(pts),
    ) % {"points": _list(pts)}


def _blots(p: Mapping[str, Any]) -> str:
    text = _exposed_blots(p)
    if not p.get("back_points"):
        return text
    back = ngettext(
        "Its back checker alone on %(points)s is hit by %(shots)d rolls of 36, which "
        "costs little while the opponent's home board is weak.",
        "Its back checkers alone on %(points)s are hit by %(shots)d rolls of 36, which "
        "costs little while the opponent's home board is weak.",
        len(p["back_points"]),
    ) % {"points": _list(p["back_points"]), "shots": int(p["back_shots"])}
    return _("%(first)s %(second)s") % {"first": text, "second": back}


def _exposed_blots(p: Mapping[str, Any]) -> str:
    n, shots = int(p["count"]), int(p["shots"])
    if shots == 0:
        return ngettext(
            "Leaves %(n)d blot (on %(points)s), but no roll can hit it.",
            "Leaves %(n)d blots (on %(points)s), but no roll can hit them.",
            n,
        ) % {"n": n, "points": _list(p["points"])}
    return ngettext(
        "Leaves %(n)d blot (on %(points)s): %(shots)d of 36 rolls hit it.",
        "Leaves %(n)d blots (on %(points)s): %(shots)d of 36 rolls hit one.",
        n,
    ) % {"n": n, "points": _list(p["points"]), "shots": shots}


def _no_blots(p: Mapping[str, Any]) -> str:
    return _("Leaves no blot: nothing to hit.")


def _home_points(p: Mapping[str, Any]) -> str:
    n, change = int(p["count"]), int(p["change"])
    text = ngettext(
        "%(n)d point made in the home board", "%(n)d points made in the home board", n
    ) % {"n": n}
    if change > 0:
        return _("%(text)s (%(change)+d).") % {"text": text, "change": change}
    if change < 0:
        return _("%(text)s (%(change)d).") % {"text": text, "change": change}
    return _("%(text)s.") % {"text": text}


def _prime(p: Mapping[str, Any]) -> str:
    n = int(p["length"])
    if n >= 6:
        return _("A full prime from %(top)d to %(bottom)d: the opponent cannot pass.") % p
    return _("A %(length)d-point prime from %(top)d to %(bottom)d blocks the opponent.") % p


def _pips(p: Mapping[str, Any]) -> str:
    lead = int(p["lead"])
    if lead > 0:
        return _("Moves %(moved)d pips; pip count %(pips)d, %(lead)d ahead.") % p
    if lead < 0:
        return _("Moves %(moved)d pips; pip count %(pips)d, %(behind)d behind.") % {
            **p,
            "behind": -lead,
        }
    return _("Moves %(moved)d pips; pip count %(pips)d, level.") % p


def _breaks_contact(p: Mapping[str, Any]) -> str:
    return _("Breaks contact: from now on it is a pure race.")


def _race(p: Mapping[str, Any]) -> str:
    return _("A pure race: no more hitting, pips and dice decide.")


def _bears_off(p: Mapping[str, Any]) -> str:
    n = int(p["count"])
    return ngettext("Bears off %(n)d checker.", "Bears off %(n)d checkers.", n) % {"n": n}


def _anchor(p: Mapping[str, Any]) -> str:
    text = _(
        "Makes an anchor on the %(point)d point: a safe landing spot in the opponent's home board."
    )
    return text % p


def _more_shots_than_best(p: Mapping[str, Any]) -> str:
    return _("Riskier than the best play: %(shots)d rolls of 36 hit, against %(best)d.") % p


RENDERERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "hits": _hits,
    "enters": _enters,
    "makes_points": _makes_points,
    "breaks_points": _breaks_points,
    "splits": _splits,
    "blots": _blots,
    "no_blots": _no_blots,
    "home_points": _home_points,
    "prime": _prime,
    "pips": _pips,
    "breaks_contact": _breaks_contact,
    "race": _race,
    "bears_off": _bears_off,
    "anchor": _anchor,
    "more_shots_than_best": _more_shots_than_best,
}


def render_reason(reason: Mapping[str, Any]) -> str:
    """One reason ({"code", "params"}) as a sentence; unknown codes say so plainly."""
    renderer = RENDERERS.get(str(reason.get("code")))
    if renderer is None:
        return str(reason.get("code"))
    return renderer(reason.get("params") or {})


def render_reasons(reasons: Sequence[Mapping[str, Any]]) -> list[str]:
    return [render_reason(r) for r in reasons]


def linked_terms(texts: Iterable[str]) -> list[str]:
    """Each sentence with the terms of ``PLAY_TERMS`` it names marked where
    it first names them, for the page to link (``learning.glossary.marks``)."""
    return [with_terms(text, PLAY_TERMS) for text in texts]
