"""What the best play does that another does not (``ai_worker.versus``), worded.

Each sentence is about the best play, for a page that shows it next to the
play it beats; figures come from the reason's parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _pct(value: Any) -> str:
    return f"{float(value) * 100:.1f}%"


def _chances(p: Mapping[str, Any]) -> dict[str, str]:
    return {"best": _pct(p["best"]), "other": _pct(p["other"])}


def _wins_gammon(p: Mapping[str, Any]) -> str:
    return _("The best play wins more gammons: %(best)s, against %(other)s.") % _chances(p)


def _saves_gammon(p: Mapping[str, Any]) -> str:
    return _("The best play loses fewer gammons: %(best)s, against %(other)s.") % _chances(p)


def _wins_backgammon(p: Mapping[str, Any]) -> str:
    return _("The best play wins more backgammons: %(best)s, against %(other)s.") % _chances(p)


def _saves_backgammon(p: Mapping[str, Any]) -> str:
    text = _("The best play loses fewer backgammons: %(best)s, against %(other)s.")
    return text % _chances(p)


def _blitz(p: Mapping[str, Any]) -> str:
    n = int(p["hits"])
    return ngettext(
        "The best play keeps up the blitz: it hits %(n)d checker with %(home)d home-board "
        "points made.",
        "The best play keeps up the blitz: it hits %(n)d checkers with %(home)d home-board "
        "points made.",
        n,
    ) % {"n": n, "home": int(p["home_points"])}


def _hits_more(p: Mapping[str, Any]) -> str:
    n = int(p["best"])
    return ngettext(
        "The best play hits %(n)d checker; this one hits %(other)d.",
        "The best play hits %(n)d checkers; this one hits %(other)d.",
        n,
    ) % {"n": n, "other": int(p["other"])}


def _prime(p: Mapping[str, Any]) -> str:
    text = _(
        "The best play builds a %(length)d-point prime from %(top)d to %(bottom)d, "
        "with %(behind)d of the opponent's checkers behind it."
    )
    return text % p


def _escapes(p: Mapping[str, Any]) -> str:
    text = _(
        "The best play brings back checkers out: %(best)d left in the opponent's home "
        "board, against %(other)d."
    )
    return text % p


def _makes_point(p: Mapping[str, Any]) -> str:
    return _("The best play makes the %(point)d-point; this one does not.") % p


def _keeps_point(p: Mapping[str, Any]) -> str:
    return _("The best play keeps the %(point)d-point; this one gives it up.") % p


def _anchor(p: Mapping[str, Any]) -> str:
    return _("The best play makes an anchor on the %(point)d-point; this one does not.") % p


def _builders(p: Mapping[str, Any]) -> str:
    text = _("The best play has more builders for the next points: %(best)d, against %(other)d.")
    return text % p


def _slots(p: Mapping[str, Any]) -> str:
    return _("The best play slots the %(point)d-point, to cover it next turn.") % p


def _safer(p: Mapping[str, Any]) -> str:
    if int(p["best"]) == 0:
        return _("The best play leaves no shot; this one is hit by %(other)d rolls of 36.") % p
    text = _("The best play is safer: %(best)d rolls of 36 hit it, against %(other)d.")
    return text % p


def _breaks_contact(p: Mapping[str, Any]) -> str:
    lead = int(p["lead"])
    if lead >= 0:
        return _("The best play breaks contact: a pure race, %(lead)d pips ahead.") % {"lead": lead}
    return _("The best play breaks contact: a pure race, %(behind)d pips behind.") % {
        "behind": -lead
    }


def _fewer_rolls(p: Mapping[str, Any]) -> str:
    text = _(
        "The best play needs fewer rolls to bear off: %(best).2f on average, against %(other).2f."
    )
    return text % {"best": float(p["best"]), "other": float(p["other"])}


def _better_race(p: Mapping[str, Any]) -> str:
    text = _("The best play leaves a better race: it wins %(best)s, against %(other)s.")
    return text % _chances(p)


def _timing(p: Mapping[str, Any]) -> str:
    text = _(
        "The best play keeps its timing: %(best)d pips to play before the back checkers "
        "must move, against %(other)d."
    )
    return text % p


def _bears_off_more(p: Mapping[str, Any]) -> str:
    return _("The best play bears off more checkers: %(best)d, against %(other)d.") % p


def _only_equity(p: Mapping[str, Any]) -> str:
    if "loss" not in p:
        return _("The two plays do the same things on the board; they differ only in equity.")
    text = _(
        "The two plays do the same things on the board; they differ only in equity: "
        "the best play is worth %(loss).3f more."
    )
    return text % {"loss": float(p["loss"])}


RENDERERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "wins_gammon": _wins_gammon,
    "saves_gammon": _saves_gammon,
    "wins_backgammon": _wins_backgammon,
    "saves_backgammon": _saves_backgammon,
    "blitz": _blitz,
    "hits_more": _hits_more,
    "prime": _prime,
    "escapes": _escapes,
    "makes_point": _makes_point,
    "keeps_point": _keeps_point,
    "anchor": _anchor,
    "builders": _builders,
    "slots": _slots,
    "safer": _safer,
    "breaks_contact": _breaks_contact,
    "fewer_rolls": _fewer_rolls,
    "better_race": _better_race,
    "timing": _timing,
    "bears_off_more": _bears_off_more,
    "only_equity": _only_equity,
}


def render_versus(reasons: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each comparison reason as a sentence; an unknown code is shown as is."""
    out = []
    for reason in reasons:
        renderer = RENDERERS.get(str(reason.get("code")))
        out.append(renderer(reason.get("params") or {}) if renderer else str(reason.get("code")))
    return out
