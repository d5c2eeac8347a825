"""Steps, plays and the list of legal plays for a roll."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from games.engine.dice import Dice
from games.engine.errors import IllegalPlayError
from games.engine.movegen import RawStep, do_step, search_plays, single_moves
from games.engine.position import Position


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


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn's steps and the resulting board (still from the mover's side).

    >>> plays = legal_plays(Position.start(), Dice(3, 1))
    >>> len(plays), '8/5 6/5' in {p.notation() for p in plays}
    (16, True)
    """

    steps: tuple[Step, ...]
    result: Position

    def notation(self, full: bool = False) -> str:
        """GNU Backgammon's notation (``24/18 13/11``, ``bar/22*``, ``8/5(2)``).

        Like gnubg, a checker moving on is written once and the point it
        passes is shown only when it hits there; ``full=True`` shows every
        point it touches (``24/21/16``).
        """
        from games.engine.notation import format_play

        return format_play(self.steps, full=full)

    def __str__(self) -> str:
        return self.notation()


_SET_ME: Callable[[Position, tuple[int, ...]], None] = vars(Position)["me"].__set__
_SET_OPP: Callable[[Position, tuple[int, ...]], None] = vars(Position)["opp"].__set__
_NEW = object.__new__


def make_position(me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
    """Build a Position the generator produced, skipping re-validation (hot path).

    The slot descriptors are set directly: the frozen dataclass's __setattr__
    guard and __post_init__ checks cost more than the whole move search.
    """
    position: Position = _NEW(Position)
    _SET_ME(position, me)
    _SET_OPP(position, opp)
    return position


# Steps are few (25 sources x 6 dice x hit or not): share one object per step.
_STEPS: dict[RawStep, Step] = {}


def _step(raw: RawStep) -> Step:
    step = _STEPS.get(raw)
    if step is None:
        step = _STEPS[raw] = Step(*raw)
    return step


def _to_play(key: tuple[int, ...], raw: tuple[RawStep, ...]) -> Play:
    return Play(tuple(map(_step, raw)), make_position(key[:25], key[25:]))


@lru_cache(maxsize=8192)
def _legal_plays(position: Position, dice: Dice) -> tuple[Play, ...]:
    found = search_plays(position.me, position.opp, dice.d1, dice.d2)
    return tuple(_to_play(key, raw) for key, raw in found.items())


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """One Play per distinct resulting position, using the most dice allowed.

    >>> len(legal_plays(Position.start(), Dice(6, 5)))
    7
    >>> legal_plays(Position.start(), Dice(6, 6))[0].notation()
    '24/18(2) 13/7(2)'
    """
    return list(_legal_plays(position, dice))


def replay(position: Position, steps: tuple[Step, ...]) -> Position:
    """Apply ``steps`` one by one, each checked as a single legal move."""
    me, opp = list(position.me), list(position.opp)
    for step in steps:
        if not 1 <= step.die <= 6:
            raise IllegalPlayError(f"step {step} uses no die")
        raw: RawStep = (step.src, step.dst, step.die, step.hit)
        if raw not in set(single_moves(me, opp, step.die)):
            raise IllegalPlayError(f"step {step} is not a legal move here")
        do_step(me, opp, raw)
    return make_position(tuple(me), tuple(opp))


def _candidate_dice(steps: tuple[Step, ...]) -> list[Dice]:
    dies = sorted({step.die for step in steps})
    if len(steps) > 2 or (len(steps) == 2 and len(dies) == 1):
        return [Dice(dies[0], dies[0])] if len(dies) == 1 else []
    if len(dies) == 2:
        return [Dice(dies[1], dies[0])]
    if len(dies) == 1:
        return [Dice(dies[0], other) for other in range(1, 7)]
    return [Dice(a, b) for a in range(1, 7) for b in range(a, 7)]


def check_play(position: Position, play: Play) -> Position:
    """``play.result`` when the play is legal here; raises IllegalPlayError otherwise."""
    result = replay(position, play.steps)
    if result != play.result:
        raise IllegalPlayError("the play's steps do not lead to its result")
    for dice in _candidate_dice(play.steps):
        plays = _legal_plays(position, dice)
        if not plays and not play.steps:
            return position
        if any(p.result == result for p in plays):
            return result
    raise IllegalPlayError(f"{play.notation()} is not a legal play here")


def parse_play(position: Position, dice: Dice, text: str) -> Play:
    """Read gnubg notation for a play with ``dice`` in ``position``.

    >>> parse_play(Position.start(), Dice(3, 1), '8/5 6/5').notation()
    '8/5 6/5'
    """
    from games.engine.notation import read_play

    return read_play(position, dice, text)
