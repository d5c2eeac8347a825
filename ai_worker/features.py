"""Plain facts about a position, used to explain plays in words.

Pure Python, standard library plus ``games.engine`` value objects: no Django.
Everything is read from the side that just moved (the mover), on the board
*after* its play but before the opponent's roll, in the mover's numbering:
its checkers travel 24 → 1, its bar is 25; the opponent's checkers travel the
other way, entering from its bar onto the mover's points 1..6.

The shot counter answers "how many of the 36 rolls hit one of my blots": for
every roll it searches the opponent's moves die by die, so it counts direct
and indirect (combination) shots, refuses landings on the mover's made points
(also in the middle of a combination), and makes an opponent on the bar enter
before anything else moves. Like gnubg's and XG's shot counts it ignores the
rare case where the hit would be part of a play that does not use the most
dice possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from games.engine import BAR, CHECKERS, ROLLS


class Board(Protocol):
    """What the features need of ``games.engine.Position``: the TanBoard tuples."""

    @property
    def me(self) -> tuple[int, ...]: ...

    @property
    def opp(self) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class Features:
    """Facts about one position from the mover's side (see the module docstring)."""

    blots: tuple[int, ...]  # the mover's points holding one checker, highest first
    shots: int  # of the 36 rolls, how many let the opponent hit at least one blot
    made_points: tuple[int, ...]  # the mover's points holding two or more, highest first
    home_points: int  # made points among 1..6
    prime: int  # longest run of consecutive made points
    prime_top: int  # the highest point of that run (0 when there is none)
    pips: int  # the mover's pip count (a bar checker counts 25)
    opp_pips: int
    contact: bool  # can either side still hit the other?
    on_bar: int  # the mover's checkers on the bar
    opp_on_bar: int
    borne_off: int
    opp_borne_off: int


def position_features(board: Board) -> Features:
    """Every fact the explanations use, for ``board`` seen from the mover's side."""
    me, opp = board.me, board.opp
    made = tuple(p for p in range(24, 0, -1) if me[p - 1] >= 2)
    prime, prime_top = longest_prime(board)
    blots = tuple(p for p in range(24, 0, -1) if me[p - 1] == 1)
    return Features(
        blots=blots,
        shots=count_shots(board) if blots else 0,
        made_points=made,
        home_points=sum(1 for p in made if p <= 6),
        prime=prime,
        prime_top=prime_top,
        pips=sum(p * me[p - 1] for p in range(1, 26)),
        opp_pips=sum(p * opp[p - 1] for p in range(1, 26)),
        contact=has_contact(board),
        on_bar=me[BAR - 1],
        opp_on_bar=opp[BAR - 1],
        borne_off=CHECKERS - sum(me),
        opp_borne_off=CHECKERS - sum(opp),
    )


def longest_prime(board: Board) -> tuple[int, int]:
    """(length, highest point) of the longest run of the mover's made points."""
    best, best_top, run = 0, 0, 0
    for p in range(1, 25):
        run = run + 1 if board.me[p - 1] >= 2 else 0
        if run > best or (run == best and run > 0):
            best, best_top = run, p
    return best, best_top


def has_contact(board: Board) -> bool:
    """True while some checker of one side still has to pass one of the other's."""
    mine = [p for p in range(1, 26) if board.me[p - 1]]
    # The opponent's checker on its own point q stands on the mover's point 25 - q;
    # its bar counts as the mover's point 0 (it enters onto the mover's 1..6).
    theirs = [25 - q for q in range(1, 26) if board.opp[q - 1]]
    return bool(mine and theirs) and max(mine) > min(theirs)


def count_shots(board: Board, target: int | None = None) -> int:
    """Of the 36 rolls, how many let the opponent hit a blot of the mover's.

    With ``target`` only that point's blot counts.
    """
    blots = {p for p in range(1, 25) if board.me[p - 1] == 1}
    if target is not None:
        blots &= {target}
    if not blots:
        return 0
    blocked = frozenset(p for p in range(1, 25) if board.me[p - 1] >= 2)
    # The opponent's checkers in the mover's numbering (0 = its bar).
    sources = tuple(25 - q for q in range(1, 25) if board.opp[q - 1])
    on_bar = board.opp[BAR - 1]
    return sum(
        weight for d1, d2, weight in ROLLS if _roll_hits(sources, on_bar, blocked, blots, d1, d2)
    )


def shots_by_blot(board: Board) -> tuple[tuple[int, int], ...]:
    """(point, rolls of 36 that hit it) for each of the mover's blots."""
    return tuple(
        (p, count_shots(board, target=p)) for p in range(24, 0, -1) if board.me[p - 1] == 1
    )


def _roll_hits(
    sources: tuple[int, ...],
    on_bar: int,
    blocked: frozenset[int],
    blots: set[int],
    d1: int,
    d2: int,
) -> bool:
    dice = (d1,) * 4 if d1 == d2 else None
    if dice is not None:
        return _search(dice, sources, on_bar, blocked, blots)
    return _search((d1, d2), sources, on_bar, blocked, blots) or _search(
        (d2, d1), sources, on_bar, blocked, blots
    )


def _search(
    dice: tuple[int, ...],
    sources: tuple[int, ...],
    on_bar: int,
    blocked: frozenset[int],
    blots: set[int],
) -> bool:
    """Can the opponent, playing ``dice`` in this order, land on a blot?

    Checkers on the bar enter first, one die each. After that only one
    checker's path matters: moving a checker never opens or closes a point for
    another (only the mover's checkers block), so each checker walks the
    remaining dice on its own and every landing on the way must be open.
    """
    if not dice:
        return False
    if on_bar:
        land = dice[0]
        if land in blocked:
            return False
        if land in blots:
            return True
        return _search(dice[1:], (*sources, land), on_bar - 1, blocked, blots)
    for start in set(sources):
        land = start
        for die in dice:
            land += die
            if land > 24 or land in blocked:
                break
            if land in blots:
                return True
    return False
