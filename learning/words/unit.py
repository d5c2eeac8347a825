"""The one line a page says about its figures: what they are measured in
(``ai_worker.context``, the judgement unit) and at which depth."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from learning.glossary.marks import term


def unit_kind(context: Any) -> str:
    """``cubeless``, ``money`` or ``match``: the unit of a ranking at ``context``
    (an ``ai_worker.context.CubeContext`` or None)."""
    if context is None:
        return "cubeless"
    return "money" if context.match.is_money else "match"


def unit_line(kind: str, ply: int | None) -> str:
    """The figures' unit and depth in one sentence, in the active language."""
    depth = "" if ply is None else _("Searched %(ply)s-ply.") % {"ply": ply}
    if kind == "match":
        words = _(
            "Equities and losses at this score and cube: the chance to win the match in "
            "normalized money equivalents (EMG, 1 = a single game won at the cube's value), "
            "as GNU Backgammon and XG count them."
        )
    elif kind == "money":
        words = _(
            "Equities and losses with the cube, per unit of the cube's value (1 = a single "
            "game), as GNU Backgammon and XG count them."
        )
    else:
        words = _("Equities and losses without the cube (1 = a single game).")
    # Chinese sentences follow each other without a space.
    return words + depth if not depth or words.endswith("。") else f"{words} {depth}"


def unit_name(kind: str) -> str:
    """The unit in a few words, for a figure's brackets (a title, no marks)."""
    if kind == "match":
        return _("EMG at this score")
    if kind == "money":
        return _("equity with the cube, per unit of its value")
    return _("cubeless equity")


def unit_term(kind: str) -> str:
    """``unit_name`` marked as its glossary term (``learning.glossary.marks``)."""
    key = {"match": "match", "money": "cubeful"}.get(kind, "cubeless")
    return term(key, unit_name(kind))


def unit_of_game(game: Any) -> str:
    """A game's unit kind (a ``games.Game``): single, money or match."""
    if not game.has_cube:
        return "cubeless"
    return "match" if game.match_id is not None else "money"
