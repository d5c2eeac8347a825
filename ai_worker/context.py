"""The cube and the score a decision is judged at, and the unit of its figures.

Every loss, luck and equity the site prints is in the unit GNU Backgammon
and eXtreme Gammon print (docs/interfaces.md, "The judgement unit"):

- a single game without the cube (no context): cubeless money equity;
- a money game: cubeful money equity per unit of the cube now (Jacoby as
  the game was set), what GNU Backgammon's "EMG" is in a money game;
- a match: the match winning chances (MWC) at the score and cube, converted
  to normalized money equivalents ("EMG") as GNU Backgammon's ``mwc2eq``
  does: a straight line through -1 = the MWC if the side loses a single
  game at the cube now and +1 = the MWC if it wins one, so
  ``EMG = (2 MWC - (W + L)) / (W - L)`` and a loss of ``e`` EMG is
  ``e (W - L) / 2`` of match winning chances (``mwc_of``).

No Django here: the bot runs without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Cube, Match, Side


@dataclass(frozen=True, slots=True)
class CubeContext:
    """What bgsage needs to know of the cube and the score, from the mover's side."""

    cube: Cube
    match: Match
    mover: Side

    def bgsage_kwargs(self) -> dict[str, Any]:
        owner = self.cube.owner
        cube_owner = (
            "centered" if owner is None else "player" if owner is self.mover else "opponent"
        )
        match = self.match
        return {
            "cube_value": self.cube.value,
            "cube_owner": cube_owner,
            "away1": match.away(self.mover),
            "away2": match.away(self.mover.other),
            "is_crawford": match.crawford,
            "jacoby": match.is_money and match.jacoby,
            "beaver": False,
        }

    def key(self) -> str:
        """The part of a key that tells cube and score apart."""
        m = self.match
        owner = self.cube.owner.value if self.cube.owner else "centre"
        return f"{self.cube.value}{owner}|{m.length}:{m.light}:{m.dark}:{m.crawford}:{m.jacoby}"

    def turned(self) -> CubeContext:
        """The same cube and score from the other side (the opponent on roll)."""
        return CubeContext(self.cube, self.match, self.mover.other)


def context_key(context: CubeContext | None) -> str:
    """A cache key's part for the unit of a ranking: ``cubeless`` without the
    cube, else the cube and the score as the mover sees them (its cube or
    the opponent's, the points each side needs)."""
    if context is None:
        return "cubeless"
    owner = context.cube.owner
    mine = "centre" if owner is None else "mine" if owner is context.mover else "theirs"
    m = context.match
    if m.is_money:
        return f"money:{context.cube.value}{mine}:{int(m.jacoby)}"
    away = (m.away(context.mover), m.away(context.mover.other))
    return f"match:{context.cube.value}{mine}:{away[0]}-{away[1]}:{int(m.crawford)}"


def mwc_of(context: CubeContext, emg: float) -> float:
    """``emg`` (normalized money equivalents at ``context``'s cube and score,
    the mover's) as match winning chances (a change of, not a level):
    ``emg (W - L) / 2``, W and L the mover's MWC after winning or losing a
    single game at the cube now. Money games have no MWC: a ValueError."""
    import bgbot_cpp

    m = context.match
    if m.is_money:
        raise ValueError("a money game has no match winning chances")
    args = (m.away(context.mover), m.away(context.mover.other), context.cube.value, m.crawford)
    return float(bgbot_cpp.eq2mwc(emg, *args) - bgbot_cpp.eq2mwc(0.0, *args))


def points_of(context: CubeContext | None, equity: float) -> float:
    """``equity`` per unit of the cube as points at the cube now (money: the
    cube's value; a single game: one)."""
    return equity * (context.cube.value if context is not None else 1)


def gammons_count(context: CubeContext | None, side: Side) -> bool:
    """Whether a gammon won by ``side`` is worth more than a single at
    ``context``: not while the Jacoby rule holds a centred cube, nor in a
    match where a single at the cube now already wins ``side`` the match
    (the Crawford game's and the post-Crawford games' leader, both sides at
    double match point)."""
    if context is None:
        return True
    m, cube = context.match, context.cube
    if m.is_money:
        return not (m.jacoby and cube.centred)
    return m.away(side) > cube.value


def gammon_go(context: CubeContext) -> bool:
    """The doubler (``context.mover``) needs more than a single at the cube
    now and a gammon at it wins the match: a position too good to double
    may be played on for the gammon."""
    m, value = context.match, context.cube.value
    return not m.is_money and value < m.away(context.mover) <= 2 * value


def free_drop(context: CubeContext) -> bool:
    """After the Crawford game the leader (the taker, 1 away) may pass the
    trailer's double (``context.mover``, an even number away) almost for
    free: a pass leaves the trailer an odd number away, as good for it as
    the even one it had (it doubles at every turn)."""
    m = context.match
    taker, doubler = m.away(context.mover.other), m.away(context.mover)
    return m.post_crawford and taker == 1 and doubler % 2 == 0
