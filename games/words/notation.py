"""A play's notation in the reader's language. GNU Backgammon writes
``bar/22*`` and ``6/off``; a Chinese page writes 吧台/22* and 6/移出, never a
Latin move word (issue 45)."""

from __future__ import annotations

import re

from django.utils.translation import pgettext

_MOVE_WORD = re.compile(r"\b(bar|off)\b")


def notation_words(notation: str) -> str:
    """``notation`` with "bar" and "off" in the language of the moment.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     notation_words("bar/22* 6/off(2)")
    'bar/22* 6/off(2)'
    """
    names = {"bar": pgettext("notation", "bar"), "off": pgettext("notation", "off")}
    return _MOVE_WORD.sub(lambda m: names[m.group()], notation)
