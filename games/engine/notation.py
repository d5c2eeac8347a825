"""GNU Backgammon move notation, written and read.

Writing follows gnubg's ``FormatMove``: moves sorted by source point, one
checker's consecutive moves joined (the passed point is kept only where it
hit), identical moves counted as ``(n)``, and ``*`` once per hit point.
"""

from __future__ import annotations

import re

from games.engine.errors import InvalidNotationError
from games.engine.movegen import Step
from games.engine.position import BAR, OFF


def point_name(point: int) -> str:
    """``bar`` for 25, ``off`` for 0, else the number.

    >>> point_name(25), point_name(0), point_name(13)
    ('bar', 'off', '13')
    """
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def _chains(steps: tuple[Step, ...], hits: set[int], full: bool) -> list[list[int]]:
    moves = sorted(((s.src, s.dst) for s in steps), reverse=True)
    paths: list[list[int] | None] = [[src, dst] for src, dst in moves]
    for i, path in enumerate(paths):
        if path is None:
            continue
        for j in range(i + 1, len(paths)):
            other = paths[j]
            if other is not None and path[-1] == other[0]:
                if full or path[-1] in hits:
                    path.append(other[1])
                else:
                    path[-1] = other[1]
                paths[j] = None
    return [p for p in paths if p is not None]


def format_play(steps: tuple[Step, ...], full: bool = False) -> str:
    """gnubg notation for a sequence of steps (empty string for no move).

    >>> from games.engine.movegen import Step
    >>> format_play((Step(13, 7, 6, False), Step(7, 2, 5, True)))
    '13/2*'
    >>> format_play((Step(13, 8, 5, True), Step(8, 2, 6, False)))
    '13/8*/2'
    >>> format_play((Step(13, 8, 5, False), Step(8, 2, 6, False)), full=True)
    '13/8/2'
    >>> format_play(tuple(Step(8, 5, 3, False) for _ in range(2)) + (Step(6, 3, 3, False),) * 2)
    '8/5(2) 6/3(2)'
    """
    hits = {s.dst for s in steps if s.hit}
    counted: list[tuple[list[int], int]] = []
    for path in _chains(steps, hits, full):
        for index, (seen, count) in enumerate(counted):
            if seen == path:
                counted[index] = (seen, count + 1)
                break
        else:
            counted.append((path, 1))
    starred: set[int] = set()
    parts = []
    for path, count in counted:
        text = point_name(path[0])
        for point in path[1:]:
            text += "/" + point_name(point)
            if point in hits and point not in starred:
                text += "*"
                starred.add(point)
        parts.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(parts)


_TOKEN = re.compile(r"^(bar|\d{1,2})((?:/(?:\d{1,2}|off)\*?)+)(?:\((\d)\))?$")


def parse_segments(text: str) -> list[tuple[int, int, bool]]:
    """Split notation into (from, to, starred) hops, repeats expanded.

    >>> parse_segments('bar/22* 13/11(2)')
    [(25, 22, True), (13, 11, False), (13, 11, False)]
    >>> parse_segments('24/21/16')
    [(24, 21, False), (21, 16, False)]
    """
    segments: list[tuple[int, int, bool]] = []
    for token in text.lower().replace("-", "/").split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotationError(f"cannot read move {token!r}")
        points = [_read_point(match.group(1))]
        stars = [False]
        for part in match.group(2).split("/")[1:]:
            points.append(_read_point(part.rstrip("*")))
            stars.append(part.endswith("*"))
        repeat = int(match.group(3) or 1)
        if not 1 <= repeat <= 4:
            raise InvalidNotationError(f"bad repeat count in {token!r}")
        hops = [(points[i], points[i + 1], stars[i + 1]) for i in range(len(points) - 1)]
        for src, dst, _star in hops:
            if dst >= src:
                raise InvalidNotationError(f"{token!r} moves backwards")
        segments.extend(hops * repeat)
    if len(segments) > 4 * 4:
        raise InvalidNotationError(f"too many moves in {text!r}")
    return segments


def _read_point(text: str) -> int:
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    point = int(text)
    if not 0 <= point <= 25:
        raise InvalidNotationError(f"no point {point}")
    return point
