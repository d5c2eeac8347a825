"""The words of a game's luck and luck-adjusted result (``learning.review.luck``).

Who is who: in a game played here LIGHT is "you" and DARK the computer (or
the match's named opponent); in an imported game the file's players keep
their names, and "you" is said only for the side the person named as theirs
(``players``). A match game's figures are in match winning chances ("The
dice gave you 12% more chance of winning the match"), the others in points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


class _Result(Protocol):
    @property
    def luck(self) -> float: ...

    @property
    def adjusted(self) -> float: ...

    @property
    def unit(self) -> str: ...

    @property
    def scored(self) -> int: ...

    @property
    def even(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Players:
    """LIGHT's and DARK's names as a page says them; ``you``: LIGHT is the person."""

    light: str
    dark: str
    you: bool


def players(game: Any) -> Players:
    """Who played ``game`` (a ``games.Game``), for the words: the names go
    inside a sentence ("the dice gave you", "the dice gave alice")."""
    names = game.file_players
    if names is not None and game.is_study:
        return Players(names[0], names[1], you=False)
    you = str(_("you"))
    if names is not None:
        return Players(you, names[1], you=True)
    if game.match_id is not None and game.match.opponent_name:
        return Players(you, game.match.opponent_name, you=True)
    return Players(you, str(_("the computer")), you=True)


def luck_words(result: _Result, who: Players) -> list[str]:
    """The result, the luck and the result without it, one sentence each."""
    if result.unit == "mwc":
        return [_result(result, who), _luck_mwc(result, who), _adjusted_mwc(result, who)]
    return [_result(result, who), _luck_points(result, who), _adjusted_points(result, who)]


def _result(result: _Result, who: Players) -> str:
    n = abs(result.scored)
    if who.you:
        won = ngettext(
            "You won this game (%(points)s point).", "You won this game (%(points)s points).", n
        )
        lost = ngettext(
            "You lost this game (%(points)s point).", "You lost this game (%(points)s points).", n
        )
        return (won if result.scored > 0 else lost) % {"points": n}
    words = ngettext(
        "%(name)s won this game (%(points)s point).",
        "%(name)s won this game (%(points)s points).",
        n,
    )
    return words % {"name": who.light if result.scored > 0 else who.dark, "points": n}


def _sides(value: float, who: Players) -> dict[str, str]:
    """The side ``value`` (LIGHT's) favours as ``name``, the other as ``them``."""
    return (
        {"name": who.light, "them": who.dark}
        if value > 0
        else {
            "name": who.dark,
            "them": who.light,
        }
    )


def _luck_points(result: _Result, who: Players) -> str:
    if abs(result.luck) < result.even:
        return _("The dice were about even.")
    words = _("The dice gave %(name)s %(luck)s points more than average rolls would have.")
    return words % {**_sides(result.luck, who), "luck": f"{abs(result.luck):.1f}"}


def _even(who: Players) -> str:
    return _("By the plays alone %(name)s and %(them)s were even.") % {
        "name": who.light,
        "them": who.dark,
    }


def _adjusted_points(result: _Result, who: Players) -> str:
    if abs(result.adjusted) < result.even:
        return _even(who)
    adjusted = f"{abs(result.adjusted):.1f}"
    if who.you:  # "you were", not "was"
        words = (
            _("By the plays alone you were %(adjusted)s points ahead of %(them)s.")
            if result.adjusted > 0
            else _("By the plays alone you were %(adjusted)s points behind %(them)s.")
        )
        return words % {"adjusted": adjusted, "them": who.dark}
    words = _("By the plays alone %(name)s was %(adjusted)s points ahead of %(them)s.")
    return words % {**_sides(result.adjusted, who), "adjusted": adjusted}


def _pct(value: float) -> str:
    return f"{abs(value) * 100:.1f}%"


def _luck_mwc(result: _Result, who: Players) -> str:
    if abs(result.luck) < result.even:
        return _("The dice were about even.")
    words = _(
        "The dice gave %(name)s %(luck)s more chance of winning the match than average rolls "
        "would have."
    )
    return words % {**_sides(result.luck, who), "luck": _pct(result.luck)}


def _adjusted_mwc(result: _Result, who: Players) -> str:
    if abs(result.adjusted) < result.even:
        return _even(who)
    words = _("By the plays alone %(name)s gained %(adjusted)s chance of winning the match.")
    return words % {**_sides(result.adjusted, who), "adjusted": _pct(result.adjusted)}
