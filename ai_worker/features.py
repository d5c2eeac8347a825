"""Plain facts about a position, used to explain plays in words.

Pure Python, standard library plus ``games.engine`` value objects: no Django.
Everything is read from the side that just moved (the mover), on the board
*after* its play but before the opponent's roll, in the mover's numbering:
its checkers travel 24 → 1, its bar is 25; the opponent's checkers travel the
other way, entering from its bar onto the mover's points 1..6.

The shot counter answers "how many of the 36 rolls hit one of my blots" as
the rules do: for every roll it searches the opponent's moves die by die, so
it counts direct and indirect (combination) shots, refuses landings on the
mover's made points (also in the middle of a combination), and makes an
opponent on the bar enter before anything else moves. A hit counts only as
part of a legal play: the dice left after it must still be playable (the
"use both dice / the larger die" rule); when a quick look cannot show that,
the engine's own ``legal_plays`` decides.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
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
    exposed: tuple[int, ...]  # the blots that matter (see ``exposed_blots``)
    shots: int  # of the 36 rolls, how many let the opponent hit an exposed blot
    back_shots: int  # rolls that hit a blot in the opponent's home board
    opp_home_points: int  # points the opponent has made in its home board
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
    back_checkers: int  # the mover's checkers in the opponent's home board or on the bar
    trapped: int  # opponent checkers behind the mover's longest prime (its bar included)
    builders: int  # spare checkers and blots on the mover's 4..11, to make points with
    timing: int  # pips the mover can play without moving a back checker (see ``timing``)
    bearing_off: bool = False  # every checker of the mover's home (1..6) or off


def position_features(board: Board, shots: bool = True) -> Features:
    """Every fact the explanations use, for ``board`` seen from the mover's
    side. With ``shots`` False the shot counts are left at 0 (counting them
    is most of the time spent here), for a caller that compares every legal
    play on other facts."""
    me, opp = board.me, board.opp
    made = tuple(p for p in range(24, 0, -1) if me[p - 1] >= 2)
    prime, prime_top = longest_prime(board)
    blots = tuple(p for p in range(24, 0, -1) if me[p - 1] == 1)
    exposed = exposed_blots(board)
    back = tuple(p for p in blots if p not in exposed)
    return Features(
        blots=blots,
        exposed=exposed,
        shots=count_shots(board, among=exposed) if exposed and shots else 0,
        back_shots=count_shots(board, among=back) if back and shots else 0,
        opp_home_points=opponent_home_points(board),
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
        back_checkers=sum(me[18:25]),
        trapped=_behind(board, prime_top - prime + 1) if prime else 0,
        builders=sum(1 if me[p - 1] == 1 else max(0, me[p - 1] - 2) for p in range(4, 12)),
        timing=timing(board),
        bearing_off=not any(me[6:]),
    )


def timing(board: Board) -> int:
    """The pips the mover can play before it must move a back checker (one
    in the opponent's home board, the mover's 19..24, or on the bar): each
    other checker can still go down to the ace point, p - 1 pips from point
    p, and none may bear off while the back checkers are out.

    >>> from games.engine import Position
    >>> timing(Position.start())  # 5 on the 13, 3 on the 8, 5 on the 6
    106
    """
    return sum((p - 1) * board.me[p - 1] for p in range(2, 19))


def _behind(board: Board, bottom: int) -> int:
    """Opponent checkers that still have to pass the mover's point ``bottom``
    (they travel up the mover's numbering; its bar is the mover's 0)."""
    return sum(board.opp[q - 1] for q in range(1, 26) if 25 - q < bottom)


# A hit on a back checker costs much once the opponent's home board is this strong.
STRONG_BOARD = 4


def opponent_home_points(board: Board) -> int:
    """Points the opponent has made in its home board (the mover's 19..24)."""
    return sum(1 for q in range(1, 7) if board.opp[q - 1] >= 2)


def exposed_blots(board: Board) -> tuple[int, ...]:
    """The blots a player worries about, highest first: a back checker alone
    in the opponent's home board (the mover's 19..24) is left out, since a
    hit there costs little, unless that board is strong (``STRONG_BOARD``
    points) or a checker of the mover's is already on the bar (a blitz)."""
    blitz = opponent_home_points(board) >= STRONG_BOARD or board.me[BAR - 1] > 0
    return tuple(p for p in range(24, 0, -1) if board.me[p - 1] == 1 and (p <= 18 or blitz))


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


def count_shots(
    board: Board, target: int | None = None, among: Collection[int] | None = None
) -> int:
    """Of the 36 rolls, how many let the opponent hit a blot of the mover's.

    With ``target`` only that point's blot counts; with ``among`` only those.
    """
    blots = {p for p in range(1, 25) if board.me[p - 1] == 1}
    if target is not None:
        blots &= {target}
    if among is not None:
        blots &= set(among)
    if not blots:
        return 0
    blocked = frozenset(p for p in range(1, 25) if board.me[p - 1] >= 2)
    # The opponent's checkers in the mover's numbering (0 = its bar).
    sources = tuple(25 - q for q in range(1, 25) if board.opp[q - 1])
    on_bar = board.opp[BAR - 1]
    return sum(
        weight
        for d1, d2, weight in ROLLS
        if _roll_hits(board, sources, on_bar, blocked, blots, d1, d2)
    )


def shots_by_blot(board: Board) -> tuple[tuple[int, int], ...]:
    """(point, rolls of 36 that hit it) for each of the mover's blots."""
    return tuple(
        (p, count_shots(board, target=p)) for p in range(24, 0, -1) if board.me[p - 1] == 1
    )


def _roll_hits(
    board: Board,
    sources: tuple[int, ...],
    on_bar: int,
    blocked: frozenset[int],
    blots: set[int],
    d1: int,
    d2: int,
) -> bool:
    orders: list[tuple[int, ...]] = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    unsure = False
    for dice in orders:
        for remaining, after, bar_after in _hits(dice, sources, on_bar, blocked, blots):
            if _plays_out(remaining, after, bar_after, blocked):
                return True
            unsure = True
    return unsure and _engine_hits(board, blots, d1, d2)


def _hits(
    dice: tuple[int, ...],
    sources: tuple[int, ...],
    on_bar: int,
    blocked: frozenset[int],
    blots: set[int],
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every way the opponent, playing ``dice`` in this order, lands on a
    blot: (dice left, its checkers after the hit, its checkers on the bar).

    Checkers on the bar enter first, one die each. After that only one
    checker's path matters: moving a checker never opens or closes a point for
    another (only the mover's checkers block), so each checker walks the
    remaining dice on its own and every landing on the way must be open.
    """
    if not dice:
        return
    if on_bar:
        land = dice[0]
        if land in blocked:
            return
        if land in blots:
            yield dice[1:], (*sources, land), on_bar - 1
            return
        yield from _hits(dice[1:], (*sources, land), on_bar - 1, blocked, blots)
        return
    for start in set(sources):
        land = start
        for used, die in enumerate(dice, 1):
            land += die
            if land > 24 or land in blocked:
                break
            if land in blots:
                rest = list(sources)
                rest[rest.index(start)] = land
                yield dice[used:], tuple(rest), 0
                break


def _plays_out(
    dice: tuple[int, ...], sources: tuple[int, ...], on_bar: int, blocked: frozenset[int]
) -> bool:
    """Whether the opponent can still play every die in ``dice`` (a quick
    greedy look: ``False`` means "not sure", never "cannot")."""
    checkers = list(sources)
    for die in dice:
        if on_bar:
            if die in blocked:
                return False
            on_bar -= 1
            checkers.append(die)
            continue
        step = next(
            (i for i, s in enumerate(checkers) if s + die <= 24 and s + die not in blocked), None
        )
        if step is not None:
            checkers[step] += die
            continue
        home = min(checkers, default=25) >= 19  # the opponent's home board is our 19..24
        off = next(
            (
                i
                for i, s in enumerate(checkers)
                if home and (s + die == 25 or (s + die > 25 and s == min(checkers)))
            ),
            None,
        )
        if off is None:
            return False
        checkers.pop(off)
    return True


def _engine_hits(board: Board, blots: set[int], d1: int, d2: int) -> bool:
    """The rules' own answer: does some legal play of the opponent hit a blot?"""
    from games.engine import Dice, Position, legal_plays

    opponent = Position(tuple(board.opp), tuple(board.me))  # its point q is our 25 - q
    return any(
        step.hit and 25 - step.dst in blots
        for play in legal_plays(opponent, Dice(d1, d2))
        for step in play.steps
    )
