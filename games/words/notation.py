"""A play's notation in the reader's language. GNU Backgammon writes
``bar/22*`` and ``6/off``; a Chinese page writes 吧台/22* and 6/移出, never a
Latin move word (issue 45), as the notation lesson and the glossary teach
them. The two words live here alone: Python words use ``notation_words``,
a page script ``playWords`` (static/games/common.js) with ``MOVE_WORDS`` in
its strings."""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

_MOVE_WORD = re.compile(r"\b(bar|off)\b")
MOVE_WORDS: dict[str, Promise] = {
    "bar": pgettext_lazy("notation", "bar"),
    "off": pgettext_lazy("notation", "off"),
}


def notation_words(notation: str) -> str:
    """``notation`` with "bar" and "off" in the language of the moment.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     notation_words("bar/22* 6/off(2)")
    'bar/22* 6/off(2)'
    """
    return _MOVE_WORD.sub(lambda m: str(MOVE_WORDS[m.group()]), notation)


def move_words() -> dict[str, str]:
    """ "bar" and "off" in the language of the moment, for a page script."""
    return {word: str(words) for word, words in MOVE_WORDS.items()}
