"""Linking a term of the glossary from a template (``learning.glossary.marks``):

``{% term "blot" %}`` (the term's name) or ``{% term "blot" "blots" %}``
writes the link; ``{{ words|terms }}`` turns the marks of translated or
computed words (``[[blot]]``, ``[[blot|blots]]``) into links.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from learning.glossary.marks import linked
from learning.glossary.marks import term as mark

register = template.Library()


@register.simple_tag
def term(key: str, words: Any = None) -> SafeString:
    return linked(mark(key, words))


@register.filter
def terms(text: Any) -> SafeString:
    return linked(text)
