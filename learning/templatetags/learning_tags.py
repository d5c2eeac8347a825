"""Small filters for the learning pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from learning.words.client_strings import HINT_STRINGS, REVIEW_STRINGS
from learning.words.coach import panel_strings
from learning.words.labels import (
    ERROR_LABELS,
    PR_LABELS,
    RATING_LABELS,
    SIDE_LABELS,
    millipoints,
    pr_text,
    side_names,
)

register = template.Library()


@register.simple_tag
def hint_strings() -> dict[str, Any]:
    """hint.js's words: ``{% hint_strings as s %}{{ s|json_script:"hint-strings" }}``,
    with how long the page waits before it offers a retry."""
    return {**HINT_STRINGS, "retry_after": settings.WAIT_RETRY_SECONDS}


@register.simple_tag
def tutor_strings() -> dict[str, Any]:
    """tutor.js's words, for json_script like hint_strings."""
    return panel_strings()


@register.simple_tag
def review_strings() -> dict[str, Any]:
    """review.js's words, for json_script like hint_strings."""
    return REVIEW_STRINGS


@register.simple_tag
def game_unit_line(game: Any) -> str:
    """What a game's hint figures are in and at which depth (``learning.words.unit``)."""
    from games.tiers import Tier, tier_spec
    from learning.words.unit import unit_line, unit_of_game

    return unit_line(unit_of_game(game), tier_spec(Tier.EXPERT).ply)


@register.simple_tag
def history_winner(game: Any) -> str:
    """Who won, as the history names them: you, the file's player, or the computer."""
    named = game.file_players
    if game.winner == "light" and not game.is_study:
        return str(_("You"))
    if named is not None:
        return str(named[0] if game.winner == "light" else named[1])
    if game.match is not None and game.match.opponent_name:
        return str(game.match.opponent_name)
    return str(_("Computer"))


@register.simple_tag
def history_error_rate(game: Any) -> str:
    """The person's error rate once the game is analysed, else a dash."""
    row = getattr(game, "analysis", None)  # a missing reverse one-to-one is an AttributeError
    if row is None or row.state != "done":
        return "—"
    side = row.summary.get("light", {})
    rate = side.get("error_rate")
    if rate is None:
        return "—"
    return rate_and_rating(rate, side.get("rating"))


@register.simple_tag
def history_pr(game: Any) -> str:
    """The person's PR and its band once the game is analysed, else a dash."""
    row = getattr(game, "analysis", None)  # a missing reverse one-to-one is an AttributeError
    if row is None or row.state != "done":
        return "—"
    figures = row.summary.get("light", {}).get("pr") or {}
    if figures.get("overall") is None:
        return "—"
    return pr_and_band(figures["overall"], figures.get("band"))


@register.simple_tag
def rate_and_rating(rate: object, rating: str | None) -> SafeString:
    """An error rate with its rating in brackets: "150.2 (Awful)", "150.2（很差）"
    (full-width brackets, no space before them, in Chinese)."""
    return _with_name(millipoints(_number(rate)), rating_label(rating))


@register.simple_tag
def pr_and_band(pr: object, band: str | None) -> SafeString:
    """A PR with XG's band in brackets: "12.3 (Advanced)", "12.3（高级）"."""
    return _with_name(pr_text(_number(pr)), pr_label(band))


def _with_name(figure: str, name: str) -> SafeString:
    # Translators: an error rate and its rating; Chinese writes full-width brackets, no space.
    pattern = _("{rate} <small>({rating})</small>")
    inner = format_html(pattern, rate=figure, rating=name)
    # One box: a phone's stacked table spreads a cell's boxes apart (site.css).
    return format_html('<span class="rate-rating">{}</span>', inner)


def _number(value: object) -> float | None:
    """A template value as a float; missing values ("" or None) give None."""
    if value is None or value == "":
        return None
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


@register.filter
def mp(rate: object) -> str:
    return millipoints(_number(rate))


@register.filter
def rating_label(code: str | None) -> str:
    return str(RATING_LABELS.get(code or "", "—"))


@register.filter
def pr_label(code: str | None) -> str:
    return str(PR_LABELS.get(code or "", "—"))


@register.filter
def pr(value: object) -> str:
    return pr_text(_number(value))


@register.filter
def error_label(code: str) -> str:
    return str(ERROR_LABELS.get(code, code))


@register.filter
def side_label(code: str) -> str:
    return str(SIDE_LABELS.get(code, code))


@register.filter
def side_name(code: str, game: Any) -> str:
    """``code`` (light or dark) named as ``game``'s pages name it (``side_names``)."""
    return side_names(game).get(code, code)


@register.filter
def percent(value: object, digits: int = 1) -> str:
    number = _number(value)
    return "—" if number is None else f"{number * 100:.{digits}f}%"


@register.filter
def signed_pct(value: object) -> str:
    """A change of a chance, signed: "+1.2%"."""
    number = _number(value)
    return "—" if number is None else f"{number * 100:+.1f}%"


@register.filter
def signed(value: object, digits: int = 3) -> str:
    number = _number(value)
    return "—" if number is None else f"{number:+.{digits}f}"


@register.filter
def pvalue(value: object) -> str:
    number = _number(value)
    if number is None:
        return "—"
    return "< 0.0001" if number < 0.0001 else f"{number:.4f}"
