"""Tags for the study side on other pages: the lobby's practice line."""

from __future__ import annotations

from typing import Any

from django import template

from learning.study import practice

register = template.Library()


@register.inclusion_tag("learning/_practice_due.html", takes_context=True)
def practice_due(context: dict[str, Any]) -> dict[str, Any]:
    """``{% practice_due %}``: how many practice positions are due, as a link."""
    user = context.get("user")
    return {"due": practice.due_count(user) if user is not None else 0}
