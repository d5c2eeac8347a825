"""The move generator: single-die moves and the depth-first search over dice.

Boards here are mutable 25-int lists in ``Position``'s layout (index
``point - 1``, bar at 24) so the search can move and unmove cheaply;
``Step`` is the public value for one raw step, ``plays.py`` wraps the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

# A raw step: (src, dst, die, hit) in mover-relative points (25 bar, 0 off).
RawStep = tuple[int, int, int, bool]
Board = list[int]


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die; mover-relative (``src`` 25 = bar, ``dst`` 0 = off).

    >>> Step(13, 8, 5, False)
    Step(src=13, dst=8, die=5, hit=False)
    """

    src: int
    dst: int
    die: int
    hit: bool = False


def single_moves(me: Board, opp: Board, die: int, max_src: int = 25) -> Iterator[RawStep]:
    """Every legal move of one checker by ``die``; sources above ``max_src`` skipped."""
    if me[24]:
        if max_src == 25 and opp[die - 1] < 2:
            yield 25, 25 - die, die, opp[die - 1] == 1
        return
    top = highest_point(me)
    bearing = top <= 6
    for src in range(min(top, max_src), 0, -1):
        if not me[src - 1]:
            continue
        dst = src - die
        if dst > 0:
            blockers = opp[24 - dst]
            if blockers < 2:
                yield src, dst, die, blockers == 1
        elif bearing and (dst == 0 or src == top):
            yield src, 0, die, False


def highest_point(me: Board) -> int:
    """The mover's highest occupied point (25 for the bar, 0 when all are off)."""
    for index in range(24, -1, -1):
        if me[index]:
            return index + 1
    return 0


def do_step(me: Board, opp: Board, step: RawStep) -> None:
    src, dst, _die, hit = step
    me[src - 1] -= 1
    if dst:
        me[dst - 1] += 1
        if hit:
            opp[24 - dst] -= 1
            opp[24] += 1


def undo_step(me: Board, opp: Board, step: RawStep) -> None:
    src, dst, _die, hit = step
    me[src - 1] += 1
    if dst:
        me[dst - 1] -= 1
        if hit:
            opp[24 - dst] += 1
            opp[24] -= 1


class _Search:
    """Collects distinct results of the longest step sequences."""

    def __init__(self) -> None:
        self.best = 0
        self.found: dict[tuple[int, ...], tuple[RawStep, ...]] = {}

    def record(self, me: Board, opp: Board, steps: list[RawStep]) -> None:
        used = len(steps)
        if used < self.best:
            return
        if used > self.best:
            self.best = used
            self.found = {}
        key = (*me, *opp)
        if key not in self.found:
            self.found[key] = tuple(steps)

    def run(
        self, me: Board, opp: Board, dice: tuple[int, ...], steps: list[RawStep], max_src: int
    ) -> None:
        if len(steps) == len(dice):
            self.record(me, opp, steps)
            return
        die = dice[len(steps)]
        doubles = dice[0] == dice[-1]
        moved = False
        for step in single_moves(me, opp, die, max_src):
            moved = True
            do_step(me, opp, step)
            steps.append(step)
            self.run(me, opp, dice, steps, step[0] if doubles else 25)
            steps.pop()
            undo_step(me, opp, step)
        if not moved:
            self.record(me, opp, steps)


def search_plays(
    me: tuple[int, ...], opp: tuple[int, ...], d1: int, d2: int
) -> dict[tuple[int, ...], tuple[RawStep, ...]]:
    """Distinct results (50-int keys: me then opp) of every legal play, with steps.

    Applies the rules on dice use: as many dice as possible; when only one
    die of a non-double can be used, the larger one if it can be.
    """
    board_me, board_opp = list(me), list(opp)
    search = _Search()
    if d1 == d2:
        search.run(board_me, board_opp, (d1,) * 4, [], 25)
        return search.found if search.best else {}
    high, low = max(d1, d2), min(d1, d2)
    search.run(board_me, board_opp, (high, low), [], 25)
    search.run(board_me, board_opp, (low, high), [], 25)
    if search.best == 0:
        return {}
    if search.best == 1:
        larger = {k: s for k, s in search.found.items() if s[0][2] == high}
        return larger or search.found
    return search.found


def max_dice_usable(
    me: Board, opp: Board, dice: tuple[int, ...], goal: int, max_src: int = 25
) -> int:
    """How many of ``dice`` can be played in sequence (stops early at ``goal``)."""
    if not dice or goal <= 0:
        return 0
    best = 0
    orders = [dice] if dice[0] == dice[-1] else [dice, dice[::-1]]
    for order in orders:
        die, rest = order[0], order[1:]
        doubles = order[0] == order[-1]
        for step in single_moves(me, opp, die, max_src if doubles else 25):
            do_step(me, opp, step)
            used = 1 + max_dice_usable(me, opp, rest, goal - 1, step[0] if doubles else 25)
            undo_step(me, opp, step)
            if used > best:
                best = used
                if best >= goal:
                    return best
    return best
