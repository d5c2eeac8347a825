"""Linking a term of the glossary from any words the site shows.

Words made in Python mark a term with ``term(key)``, or carry the mark in a
translated string: ``[[blot]]`` (the term's name) or ``[[blot|blots]]``
(other words for it). ``marked`` gives every mark its words in the language
of the moment, as ``[[key|words]]``, the form a page receives. A page turns
the marks into links to the term's entry: a template through the ``terms``
filter or the ``term`` tag (``learning.templatetags.glossary_tags``), a
script through ``putWords`` (``static/learning/terms.js``). ``plain`` gives
the words alone, for a title, a screen reader's label or a test.

Words made from parts (the coach's warning, a hint's reasons) are marked
by ``with_terms``: each term it is given, where the words first name it
(the term's patterns in ``learning.glossary.terms``). ``uses`` finds every
term words use, for the course's test that a term is taught before it is
used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from learning.glossary.terms import BY_KEY

MARK = re.compile(r"\[\[([a-z][a-z0-9-]*)(?:\|([^\[\]|]*))?\]\]")


def glossary_url(key: str | None = None) -> str:
    """The glossary page, at ``key``'s entry when given."""
    url = reverse("learning:glossary")
    return f"{url}#{key}" if key else url


def _words(match: re.Match[str]) -> str:
    key, words = match.group(1), match.group(2)
    if words is not None:
        return words
    return str(BY_KEY[key].name) if key in BY_KEY else key


def term(key: str, words: Any = None) -> str:
    """Python words: the term ``key`` marked for the page to link, shown as
    ``words`` (its name by default). An unknown key is an error."""
    entry = BY_KEY[key]
    return f"[[{key}|{entry.name if words is None else words}]]"


def marked(text: Any) -> str:
    """``text`` with each mark given its words (``[[key]]`` becomes
    ``[[key|name]]``); a mark of an unknown key becomes its words alone."""

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        return f"[[{key}|{_words(match)}]]" if key in BY_KEY else _words(match)

    return MARK.sub(fill, str(text))


def plain(text: Any) -> str:
    """The words of ``text`` without its marks."""
    return MARK.sub(_words, str(text))


def linked(text: Any, seen: set[str] | None = None) -> SafeString:
    """``text`` as HTML: the words escaped, each mark a link to its entry.
    With ``seen``, a term is linked only the first time (its key is added)."""
    text = str(text)
    parts, last = [], 0
    for match in MARK.finditer(text):
        parts.append(escape(text[last : match.start()]))
        key, words = match.group(1), _words(match)
        if key in BY_KEY and (seen is None or key not in seen):
            html = '<a class="term" href="{}" data-term="{}">{}</a>'
            parts.append(format_html(html, glossary_url(key), key, words))
            if seen is not None:
                seen.add(key)
        else:
            parts.append(escape(words))
        last = match.end()
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))  # every piece escaped above


def with_terms(text: Any, keys: Iterable[str], language: str | None = None) -> str:
    """``text`` with each term of ``keys`` marked where the words first
    name it, outside the marks already there (a term already marked stays
    as it is). Where two terms' words overlap, the one named first wins,
    the longer at one place (打中的掷法 over 打)."""
    words = str(text)
    language = language or translation.get_language() or "zh-hans"
    taken = [(m.start(), m.end()) for m in MARK.finditer(words)]
    done = {m.group(1) for m in MARK.finditer(words)}
    found = sorted(
        (m.start(), -m.end(), key)
        for key in keys
        if key not in done
        for m in BY_KEY[key].found_in(words, language)
        if m.end() > m.start()
    )
    chosen: list[tuple[int, int, str]] = []
    for start, minus_end, key in found:
        end = -minus_end
        if key in done or any(start < b and a < end for a, b in taken):
            continue
        done.add(key)
        taken.append((start, end))
        chosen.append((start, end, key))
    for start, end, key in sorted(chosen, reverse=True):
        words = f"{words[:start]}{term(key, words[start:end])}{words[end:]}"
    return words


def uses(text: Any, language: str = "zh-hans") -> list[tuple[int, str, bool]]:
    """Each use of a term in ``text`` (words in ``language``, marks
    allowed), in order: (where in the plain words, key, whether it stands
    in a link)."""
    text, spans, pieces, at, last = str(text), [], [], 0, 0
    for match in MARK.finditer(text):
        pieces.append(text[last : match.start()])
        at += match.start() - last
        words = _words(match)
        spans.append((at, at + len(words), match.group(1)))
        pieces.append(words)
        at += len(words)
        last = match.end()
    pieces.append(text[last:])
    words_only = "".join(pieces)
    found = []
    for key, entry in BY_KEY.items():
        for where in entry.used_in(words_only, language):
            # Inside any link the learner sees a link (倍数骰 in 不计倍数骰's).
            inside = any(a <= where < b for a, b, _k in spans)
            found.append((where, key, inside))
    for a, _b, key in spans:
        if not any(w == a and k == key for w, k, _in in found):
            found.append((a, key, True))  # a mark whose words no pattern finds
    return sorted(found)
