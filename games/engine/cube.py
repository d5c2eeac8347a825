"""The doubling cube and the match score: value objects beside ``Position``.

``Cube`` is the cube's value (1, 2, 4 … 64) and owner (``None`` in the
centre); ``Match`` is the length (0 for a money game, as gnubg's
``nMatchTo``), the score, the Crawford flag and, in money games, the Jacoby
rule. The beginners' single game has no cube at all: it is passed as
``cube=None``.

Who may double follows GNU Backgammon's ``GetDPEq``: never in the Crawford
game, never with the opponent's cube, and never with a dead cube, one whose
current value already wins the match for the doubler (the leader's cube
after the Crawford game is always dead). Points: a result is worth its kind
(1, 2, 3) times the cube; with the Jacoby rule a money game with the cube
still in the centre counts a single; in a match a side scores at most what
it still needs (gnubg records the full value in its files and adds it as
is; the site's score never runs past the match length).

>>> match = Match(length=5, light=3, dark=1)
>>> double_refusal(Cube(), match, Side.LIGHT) is None
True
>>> after = match.after(Side.LIGHT, result_points(ResultKind.SINGLE, Cube(), match, Side.LIGHT))
>>> after.light, after.crawford
(4, True)
>>> double_refusal(Cube(), after, Side.DARK)
<CubeRefusal.CRAWFORD_GAME: 'crawford_game'>
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.errors import CubeRefusal
from games.engine.outcome import ResultKind
from games.engine.position import Side

MAX_CUBE = 64
# The longest match any notation the site reads may name (a .mat file, an XGID).
MAX_MATCH_LENGTH = 64


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube: its value and who owns it (``None``: the centre).

    >>> Cube()
    Cube(value=1, owner=None)
    >>> Cube().taken(Side.DARK)
    Cube(value=2, owner=<Side.DARK: 'dark'>)
    >>> Cube(3)
    Traceback (most recent call last):
    ...
    ValueError: a cube shows 1, 2, 4 ... 64, got 3
    """

    value: int = 1
    owner: Side | None = None

    def __post_init__(self) -> None:
        value = self.value
        if type(value) is not int or not 1 <= value <= MAX_CUBE or value & (value - 1):
            raise ValueError(f"a cube shows 1, 2, 4 ... {MAX_CUBE}, got {value!r}")

    @property
    def centred(self) -> bool:
        return self.owner is None

    @property
    def level(self) -> int:
        """The cube's power of two (XGID's cube field): 0 for 1, 6 for 64."""
        return self.value.bit_length() - 1

    def taken(self, taker: Side) -> Cube:
        """The cube after ``taker`` takes a double: twice the value, on its side."""
        return Cube(self.value * 2, taker)


@dataclass(frozen=True, slots=True)
class Match:
    """What the games are played for: match length and score, or a money game.

    ``crawford`` says that *this* game is the Crawford game (the one right
    after a side first reaches ``length - 1``); the games after it are
    post-Crawford. ``jacoby`` is the money game's Jacoby rule.

    >>> Match(length=7, light=6, dark=2).post_crawford
    True
    >>> Match(length=7, light=6, dark=2, crawford=True).post_crawford
    False
    >>> Match().is_money
    True
    """

    length: int = 0
    light: int = 0
    dark: int = 0
    crawford: bool = False
    jacoby: bool = False

    def __post_init__(self) -> None:
        if self.length < 0 or self.light < 0 or self.dark < 0:
            raise ValueError(f"a match length and score are not negative: {self}")
        if self.length and (self.jacoby or max(self.light, self.dark) > self.length):
            raise ValueError(f"a match to {self.length} has no Jacoby rule, no score past it")
        if self.crawford and (self.length == 0 or self.length - 1 not in (self.light, self.dark)):
            raise ValueError("only a side at match point minus one makes a Crawford game")

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def score(self, side: Side) -> int:
        return self.light if side is Side.LIGHT else self.dark

    def away(self, side: Side) -> int:
        """Points ``side`` still needs to win the match (0 in a money game)."""
        return max(self.length - self.score(side), 0) if self.length else 0

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game: a side needs one point and it is not Crawford."""
        at_one_away = self.length - 1 in (self.light, self.dark)
        return bool(self.length) and not self.crawford and at_one_away and self.winner is None

    @property
    def winner(self) -> Side | None:
        """The side that has won the match, if one has."""
        for side in (Side.LIGHT, Side.DARK):
            if self.length and self.score(side) >= self.length:
                return side
        return None

    def after(self, winner: Side, points: int) -> Match:
        """The match for the next game, once ``winner`` has won ``points``.

        The next game is the Crawford game when this one takes a side to one
        point from the end for the first time.

        >>> Match(length=3).after(Side.DARK, 2)
        Match(length=3, light=0, dark=2, crawford=True, jacoby=False)
        >>> Match(length=3, dark=2, crawford=True).after(Side.LIGHT, 1).crawford
        False
        """
        light = self.light + (points if winner is Side.LIGHT else 0)
        dark = self.dark + (points if winner is Side.DARK else 0)
        if self.length:
            light, dark = min(light, self.length), min(dark, self.length)
        first_at_one_away = (
            bool(self.length)
            and not self.crawford
            and not self.post_crawford
            and self.length - 1 in (light, dark)
            and max(light, dark) < self.length
        )
        return Match(self.length, light, dark, first_at_one_away, self.jacoby)


def double_refusal(
    cube: Cube | None, match: Match, mover: Side, *, game_over: bool = False
) -> CubeRefusal | None:
    """Why ``mover`` may not double now (before its roll), or None when it may.

    >>> double_refusal(Cube(2, Side.DARK), Match(), Side.LIGHT)
    <CubeRefusal.NOT_YOUR_CUBE: 'not_your_cube'>
    >>> double_refusal(Cube(2, Side.LIGHT), Match(length=5, light=3), Side.LIGHT)
    <CubeRefusal.DEAD_CUBE: 'dead_cube'>
    """
    if cube is None:
        return CubeRefusal.NO_CUBE
    if game_over or match.winner is not None:
        return CubeRefusal.GAME_OVER
    if match.crawford:
        return CubeRefusal.CRAWFORD_GAME
    if cube.owner is mover.other:
        return CubeRefusal.NOT_YOUR_CUBE
    if cube.value >= MAX_CUBE:
        return CubeRefusal.CUBE_AT_MAX
    if match.length and match.score(mover) + cube.value >= match.length:
        return CubeRefusal.DEAD_CUBE
    return None


def result_points(kind: ResultKind, cube: Cube | None, match: Match, winner: Side) -> int:
    """The points ``winner`` scores for a game won as ``kind``.

    >>> result_points(ResultKind.GAMMON, Cube(4, Side.DARK), Match(), Side.DARK)
    8
    >>> result_points(ResultKind.GAMMON, Cube(), Match(jacoby=True), Side.DARK)
    1
    >>> result_points(ResultKind.BACKGAMMON, Cube(2, Side.LIGHT), Match(length=5), Side.LIGHT)
    5
    >>> result_points(ResultKind.GAMMON, None, Match(), Side.LIGHT)
    2
    """
    if cube is None:
        return kind.points
    multiple = kind.points
    if match.is_money and match.jacoby and cube.centred:
        multiple = 1
    points = multiple * cube.value
    return min(points, match.away(winner)) if match.length else points


def pass_points(cube: Cube, match: Match, doubler: Side) -> int:
    """What a pass gives the side that doubled: a single game at the cube before the double.

    >>> pass_points(Cube(2, Side.LIGHT), Match(), Side.DARK)
    2
    >>> pass_points(Cube(), Match(length=7, dark=6), Side.DARK)
    1
    """
    return result_points(ResultKind.SINGLE, cube, match, doubler)
