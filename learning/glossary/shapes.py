"""What a term of the glossary is, as data: its key (the anchor of its entry
on the glossary page), its name and one sentence in the page's language, a
small board, the course lesson that teaches it, and the patterns that find
it in each language's words (so a test can hold the course to teaching
before using, and the coach's and the hints' words link it where they name
it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils.functional import Promise, lazy

Arrows = tuple[tuple[int, int], ...]


def filled(text: Promise, **params: Any) -> Promise:
    """``text`` with ``params`` filled in, in the language of the moment it is shown."""
    return cast(Promise, lazy(lambda: str(text) % params, str)())


@dataclass(frozen=True)
class Diagram:
    """A small board in the display numbering: ``points`` maps a point to
    its checkers (positive light, negative dark); ``bar`` and ``off`` are
    (light, dark); ``marks`` are points drawn highlighted (25 the bar, 0 the
    tray); ``arrows`` are light's steps and ``dark_arrows`` dark's;
    ``dice`` the roll shown; ``cube`` the cube as games/board.js draws it."""

    points: tuple[tuple[int, int], ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    marks: tuple[int, ...] = ()
    arrows: Arrows = ()
    dark_arrows: Arrows = ()
    dice: tuple[int, ...] = ()
    cube: tuple[int, str, str] | None = None  # value, owner ("" the middle), offered by

    def board_json(self) -> dict[str, Any]:
        """The board as docs/interfaces.md §4 writes it."""
        row = [0] * 24
        for point, count in self.points:
            row[point - 1] = count
        return {
            "points": row,
            "bar": {"light": self.bar[0], "dark": self.bar[1]},
            "off": {"light": self.off[0], "dark": self.off[1]},
        }

    def to_json(self) -> dict[str, Any]:
        cube = None
        if self.cube is not None:
            value, owner, offered = self.cube
            cube = {"value": value, "owner": owner, "offered": offered}
        return {
            "board": self.board_json(),
            "marks": list(self.marks),
            "arrows": [{"from": a, "to": b} for a, b in self.arrows],
            "dark_arrows": [{"from": a, "to": b} for a, b in self.dark_arrows],
            "dice": list(self.dice),
            "cube": cube,
        }


def diagram(light: Mapping[int, int], dark: Mapping[int, int], **extra: Any) -> Diagram:
    """A ``Diagram`` from each side's checkers by display point."""
    points = {**{p: n for p, n in light.items()}, **{p: -n for p, n in dark.items()}}
    return Diagram(tuple(sorted(points.items())), **extra)


# The starting position, as both sides set it up (docs/interfaces.md §1).
START_LIGHT = {24: 2, 13: 5, 8: 3, 6: 5}
START_DARK = {1: 2, 12: 5, 17: 3, 19: 5}


def start(**extra: Any) -> Diagram:
    return diagram(START_LIGHT, START_DARK, **extra)


@dataclass(frozen=True)
class Term:
    """One entry. ``taught_by`` is the slug of the course lesson whose
    opening words teach the term (None: the course links it wherever it is
    used). ``zh`` and ``en`` are regular expressions that find the term used
    in Chinese and in English words."""

    key: str
    name: Promise
    sentence: Promise
    board: Diagram
    taught_by: str | None = None
    zh: tuple[str, ...] = ()
    en: tuple[str, ...] = ()
    patterns: dict[str, tuple[re.Pattern[str], ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        found = {"zh": self.zh, "en": self.en}
        patterns = {tongue: tuple(re.compile(p) for p in ps) for tongue, ps in found.items()}
        object.__setattr__(self, "patterns", patterns)

    def found_in(self, text: str, language: str) -> list[re.Match[str]]:
        """Each place ``text`` (words in ``language``) names the term, in order."""
        matches = (m for p in self.patterns[tongue(language)] for m in p.finditer(text))
        return sorted(matches, key=lambda m: (m.start(), -m.end()))

    def used_in(self, text: str, language: str = "zh-hans") -> list[int]:
        """Where ``text`` (words in ``language``, marks removed) uses the term."""
        return [m.start() for m in self.found_in(text, language)]


def tongue(language: str) -> str:
    """Which of a term's patterns read words in ``language`` (a language code)."""
    return "zh" if language.lower().startswith("zh") else "en"
