"""What the best play does that another does not (``ai_worker.versus``), worded.

Each sentence is about the best play, for a page that shows it next to the
play it beats; figures come from the reason's parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.words.notation import notation_words


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
    if int(p["other"]) == 0:
        return ngettext(
            "The best play hits %(n)d checker; this one hits none.",
            "The best play hits %(n)d checkers; this one hits none.",
            n,
        ) % {"n": n}
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
    if int(p["best"]) == 0:
        n = int(p["other"])
        return ngettext(
            "The best play brings every back checker out of the opponent's home board; "
            "this one leaves %(n)d there.",
            "The best play brings every back checker out of the opponent's home board; "
            "this one leaves %(n)d there.",
            n,
        ) % {"n": n}
    text = _(
        "The best play brings back checkers out: %(best)d left in the opponent's home "
        "board, against %(other)d."
    )
    return text % p


def _list(points: Sequence[Any]) -> str:
    return pgettext("list separator", ", ").join(str(p) for p in points)


def _traded(text: str, p: Mapping[str, Any]) -> str:
    """``text`` and, when the other play holds points the best gives up, that too."""
    if not p.get("other_points"):
        return text
    points = p["other_points"]
    but = ngettext(
        "But this one holds the %(points)s point, which the best play does not.",
        "But this one holds the %(points)s points, which the best play does not.",
        len(points),
    ) % {"points": _list(points)}
    return _("%(first)s %(second)s") % {"first": text, "second": but}


def _makes_point(p: Mapping[str, Any]) -> str:
    return _traded(_("The best play makes the %(point)d-point; this one does not.") % p, p)


def _keeps_point(p: Mapping[str, Any]) -> str:
    return _traded(_("The best play keeps the %(point)d-point; this one gives it up.") % p, p)


def _anchor(p: Mapping[str, Any]) -> str:
    text = _("The best play makes an anchor on the %(point)d-point; this one does not.") % p
    return _traded(text, p)


def _builders(p: Mapping[str, Any]) -> str:
    if int(p["other"]) == 0:
        n = int(p["best"])
        return ngettext(
            "The best play has %(n)d builder for the next points; this one has none.",
            "The best play has %(n)d builders for the next points; this one has none.",
            n,
        ) % {"n": n}
    text = _("The best play has more builders for the next points: %(best)d, against %(other)d.")
    return text % p


def _slots(p: Mapping[str, Any]) -> str:
    return _("The best play slots the %(point)d-point, to cover it next turn.") % p


def _safer(p: Mapping[str, Any]) -> str:
    if "other_points" not in p:  # stored before the blots were named
        return _("The best play is safer: %(best)d rolls of 36 hit it, against %(other)d.") % p
    values = {
        "best": int(p["best"]),
        "other": int(p["other"]),
        "best_points": _list(p["best_points"]),
        "other_points": _list(p["other_points"]),
    }
    if values["best"] == 0 and int(p["best_all"]) == 0:
        text = _(
            "The best play leaves no shot; this one leaves blots on %(other_points)s, "
            "hit by %(other)d rolls of 36."
        )
    elif values["best"] == 0:
        text = _(
            "The best play leaves no blot outside the opponent's home board; this one "
            "leaves blots on %(other_points)s, hit by %(other)d rolls of 36."
        )
    elif int(p["best_all"]) <= int(p["other_all"]):
        text = _(
            "The best play is safer: its blots on %(best_points)s are hit by %(best)d rolls "
            "of 36, this one's on %(other_points)s by %(other)d."
        )
    else:
        text = _(
            "The best play leaves fewer shots at the blots that matter: its blots on "
            "%(best_points)s are hit by %(best)d rolls of 36, this one's on "
            "%(other_points)s by %(other)d."
        )
    first = text % values
    if not (p["best_back_points"] or p["other_back_points"]):
        return first
    back = _(
        "Counting the back checkers alone in the opponent's home board too (a hit there "
        "costs little while that board is weak): %(best)d rolls hit the best play, "
        "%(other)d this one."
    ) % {"best": int(p["best_all"]), "other": int(p["other_all"])}
    return _("%(first)s %(second)s") % {"first": first, "second": back}


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
    if int(p["other"]) == 0:
        n = int(p["best"])
        return ngettext(
            "The best play bears off %(n)d checker; this one bears off none.",
            "The best play bears off %(n)d checkers; this one bears off none.",
            n,
        ) % {"n": n}
    return _("The best play bears off more checkers: %(best)d, against %(other)d.") % p


def _only_equity(p: Mapping[str, Any]) -> str:
    if "loss" not in p:
        return _("The two plays do the same things on the board; they differ only in equity.")
    text = _(
        "The two plays do the same things on the board; they differ only in equity: "
        "the best play is worth %(loss).3f more."
    )
    return text % {"loss": float(p["loss"])}


def _chances_side_by_side(p: Mapping[str, Any]) -> str:
    def one(prefix: str) -> dict[str, str]:
        return {
            "win": _pct(p[f"{prefix}_win"]),
            "gammon": _pct(p[f"{prefix}_win_gammon"]),
            "backgammon": _pct(p[f"{prefix}_win_backgammon"]),
            "lose_gammon": _pct(p[f"{prefix}_lose_gammon"]),
            "lose_backgammon": _pct(p[f"{prefix}_lose_backgammon"]),
        }

    text = _(
        "The difference shows in no single feature; the engine sees it in the chances. "
        "The best play, %(best_play)s: wins %(b_win)s (gammons %(b_gammon)s, "
        "backgammons %(b_backgammon)s), loses a gammon %(b_lose_gammon)s, a backgammon "
        "%(b_lose_backgammon)s. This one, %(other_play)s: wins %(o_win)s (gammons "
        "%(o_gammon)s, backgammons %(o_backgammon)s), loses a gammon %(o_lose_gammon)s, "
        "a backgammon %(o_lose_backgammon)s."
    )
    values = {f"b_{k}": v for k, v in one("best").items()}
    values.update({f"o_{k}": v for k, v in one("other").items()})
    plays = {key: notation_words(str(p[key])) for key in ("best_play", "other_play")}
    return text % {**values, **plays}


def _gammons_free(p: Mapping[str, Any]) -> str:
    if p.get("why") == "jacoby":
        return _(
            "The gammon chances count for nothing here: with the cube in the middle the "
            "Jacoby rule counts a gammon as a single game."
        )
    if p.get("whose") == "theirs":
        return _(
            "The opponent's gammons count for nothing at this score: a single win already "
            "wins the opponent the match."
        )
    return _(
        "The gammons won count for nothing at this score: a single win already wins the match."
    )


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
    "chances": _chances_side_by_side,
    "gammons_free": _gammons_free,
}


def render_versus(reasons: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each comparison reason as a sentence; an unknown code is shown as is."""
    out = []
    for reason in reasons:
        renderer = RENDERERS.get(str(reason.get("code")))
        out.append(renderer(reason.get("params") or {}) if renderer else str(reason.get("code")))
    return out
