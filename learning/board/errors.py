"""The analysis board's bad input, in words.

``BoardInputError`` is any input that is not a board (``learning.board.input``
raises it): its ``code`` names why and its ``params`` the details;
``describe_error`` words it in the active language for the page, so bad
input never changes the board the person sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _


class BoardInputError(ValueError):
    """Input that is not a board: ``code`` names why, ``params`` the details."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.params: Mapping[str, Any] = dict(params or {})
        super().__init__(f"{code}: {self.params}")

    @property
    def message(self) -> str:
        return describe_error(self)


def describe_error(error: BoardInputError) -> str:
    """The reason in words, in the active language."""
    p = dict(error.params)
    texts = {
        "empty": _("Paste a GNU Backgammon Position ID or an XGID first."),
        "malformed": _(
            "“%(text)s” is neither a Position ID (14 letters, digits, + and /) nor an XGID."
        ),
        "not_a_board": _("The Position ID “%(text)s” does not describe a board."),
        "too_many": _("One side has %(count)s checkers: each side has at most 15."),
        "both_sides": _("Both sides have checkers on point %(point)s: a point holds one colour."),
        "bad_dice": _("“%(text)s” is not a roll: write two digits from 1 to 6, such as 63."),
        "bad_side": _("The side on roll is the light or the dark checkers."),
        "bad_point": _("There is no point %(point)s on the board."),
        "no_turn": _("That game has no turn %(turn)s."),
        "bad_cube": _("“%(text)s” is not a cube: it shows 1, 2, 4, 8, 16, 32 or 64."),
        "bad_owner": _("The cube is in the middle or owned by the light or the dark side."),
        "owned_one": _("A cube on 1 is in the middle: nobody owns it before the first double."),
        "bad_match": _(
            "“%(text)s” is not a match length: write a number from 1 to %(most)s, "
            "or 0 for a money game."
        ),
        "bad_score": _("“%(text)s” is not a score: write light's and dark's points, such as 3-2."),
        "score_past": _(
            "In a %(length)s-point match each side has fewer than %(length)s points: "
            "%(light)s-%(dark)s is past the end."
        ),
        "bad_crawford": _(
            "Only a game where one side is a point from winning the match can be the Crawford game."
        ),
        "jacoby_match": _("The Jacoby rule is for money games, not for a match."),
        "money_score": _("A money game has no score: choose a match length first."),
        "out_of_range": _out_of_range_words(p),
        "empty_board": _("The board is empty: set up both sides' checkers first."),
        "light_off": _(
            "Light has no checkers on the board: it has borne off all 15 and the game is over."
        ),
        "dark_off": _(
            "Dark has no checkers on the board: it has borne off all 15 and the game is over."
        ),
    }
    return texts.get(error.code, _("That is not a position.")) % p


def _out_of_range_words(p: Mapping[str, Any]) -> str:
    """An XGID number past its limit (the engine's ``NumberOutOfRangeError``), in words."""
    texts = {
        "cube": _(
            "The XGID's cube field is %(value)s: it is the power of two the cube shows, "
            "at most %(limit)s (a cube of 64)."
        ),
        "score": _("The XGID's score %(value)s is past %(limit)s."),
        "length": _("The XGID's match length %(value)s is past %(limit)s points."),
        "max_cube": _("The XGID's highest-cube field %(value)s is past %(limit)s."),
    }
    return texts.get(str(p.get("field")), _("A number in the XGID is too large."))
