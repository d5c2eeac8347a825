"""Chinese as a Chinese reader writes it: the checks the catalogue and page
tests share (full-width punctuation, no stray spaces)."""

from __future__ import annotations

import re

from django.utils import translation

FULL = "，。：；！？、（）「」《》…"
CJK = "\u3400-\u9fff\uf900-\ufaff"
PLACEHOLDER = re.compile(r"%%|%\(\w+\)[sdif]|%[sdif]|<[^>]+>")
MISTAKES = [
    ("half-width punctuation", re.compile(rf"[{CJK}][,:;!?]|[,:;!?] *[{CJK}]|, ")),
    ("half-width full stop", re.compile(rf"[{CJK}]\.|\. *[{CJK}]|\.$")),
    ("space between Chinese characters", re.compile(rf"[{CJK}] +[{CJK}]")),
    ("space beside full-width punctuation", re.compile(rf"[{FULL}] | [{FULL}]")),
]


def chinese_mistakes(text: str) -> list[str]:
    """What a Chinese editor would mark in ``text`` (placeholders and tags aside).

    >>> chinese_mistakes("电脑赢了: 单胜, 1 分.")
    ['half-width punctuation', 'half-width full stop']
    >>> chinese_mistakes("剩余骰子：6, 4")
    ['half-width punctuation']
    >>> chinese_mistakes("你从 24 点 走到 23 点。 你先走。")
    ['space between Chinese characters', 'space beside full-width punctuation']
    >>> chinese_mistakes("卡方 %(x)s，p = %(p)s。胜率 0.5")
    []
    """
    if not re.search(f"[{CJK}]", text):
        return []
    plain = PLACEHOLDER.sub("x", text)
    return [name for name, pattern in MISTAKES if pattern.search(plain)]


def zh(text: object) -> str:
    """Words (a lazy translation, say) as the Chinese pages show them."""
    with translation.override("zh-hans"):
        return str(text)


def en(text: object) -> str:
    """Words as the English pages show them."""
    with translation.override("en"):
        return str(text)
