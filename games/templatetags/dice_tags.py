"""``{% start_dice "prefix" %}``: a start form's dice, on any page that starts a game."""

from __future__ import annotations

from typing import Any

from django import template

from games.start_form import kept_form, next_commitment_for

register = template.Library()


@register.inclusion_tag("games/_start_dice.html", takes_context=True)
def start_dice(context: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The next game's commitment, which the form sends back, and the
    person's seed field (ids ``PREFIX-commitment``, ``PREFIX-dice-seed``)."""
    request = context["request"]
    kept = context.get("kept_form")
    if kept is None:
        kept = context["kept_form"] = kept_form(request)
    return {
        "prefix": prefix,
        "commitment": next_commitment_for(request),
        "seed": kept.get("dice_seed", ""),
    }
