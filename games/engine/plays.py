"""Steps, plays and the list of legal plays for a roll."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.dice import ROLLS, Dice
from games.engine.errors import IllegalPlayError
from games.engine.memo import memo
from games.engine.movegen import RawStep, Step, do_step, search_plays, single_moves, undo_step
from games.engine.notation import format_play, parse_segments
from games.engine.position import Position


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


@memo(8192)
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
    return [Dice(d1, d2) for d1, d2, _weight in ROLLS]


def play_leading_to(position: Position, dice: Dice, after: Position) -> Play | None:
    """The legal play with ``dice`` whose result is ``after`` (None: there is none).

    The one way the site finds "the legal play with this result": a stored
    turn's play, or the engine's own copy of a play chosen elsewhere.

    >>> start = Position.start()
    >>> after = parse_play(start, Dice(3, 1), '8/5 6/5').result
    >>> play_leading_to(start, Dice(3, 1), after).notation()
    '8/5 6/5'
    >>> play_leading_to(start, Dice(3, 1), start) is None
    True
    """
    for play in _legal_plays(position, dice):
        if play.result == after:
            return play
    return None


def apply_play(position: Position, play: Play) -> Position:
    """The board after ``play``, still from the mover's side.

    Raises ``IllegalPlayError`` when the play is not one of the legal plays
    for its dice here.

    >>> start = Position.start()
    >>> play = parse_play(start, Dice(3, 1), '8/5 6/5')
    >>> apply_play(start, play) == play.result
    True
    """
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

    The hops may be given in any order and joined or split (``24/21/16`` or
    ``24/21 21/16``); when two legal plays give the same board, the stars
    (``*``) choose the one that hits where they say.

    >>> parse_play(Position.start(), Dice(3, 1), '8/5 6/5').notation()
    '8/5 6/5'
    """
    segments = parse_segments(text)
    plays = legal_plays(position, dice)
    if not segments:
        if not plays:
            return Play((), position)
        raise IllegalPlayError("a play must be made with these dice")
    by_result = {play.result: play for play in plays}
    wanted_hits = frozenset(dst for _src, dst, star in segments if star)
    matches: list[tuple[Play, frozenset[int]]] = []
    for result, hits in _simulate(position, dice, segments):
        play = by_result.get(result)
        if play is not None:
            matches.append((play, hits))
    if not matches:
        raise IllegalPlayError(f"{text!r} is not a legal play with {dice}")
    for play, hits in matches:
        if hits == wanted_hits:
            return play
    return matches[0][0]


def _simulate(
    position: Position, dice: Dice, segments: list[tuple[int, int, bool]]
) -> list[tuple[Position, frozenset[int]]]:
    """Every board the hops can lead to, in any order and split into dice."""
    me, opp = list(position.me), list(position.opp)
    out: dict[Position, frozenset[int]] = {}

    def walk(todo: list[tuple[int, int]], dice_left: list[int], hits: frozenset[int]) -> None:
        if not todo:
            out.setdefault(make_position(tuple(me), tuple(opp)), hits)
            return
        for index, (src, dst) in enumerate(todo):
            if index and todo[index] in todo[:index]:
                continue
            for die in sorted(set(dice_left)):
                for step in single_moves(me, opp, die):
                    if step[0] != src or step[1] < dst or (step[1] == 0 and dst != 0):
                        continue
                    do_step(me, opp, step)
                    left = list(dice_left)
                    left.remove(die)
                    rest = list(todo)
                    if step[1] == dst:
                        rest.pop(index)
                    else:
                        rest[index] = (step[1], dst)
                    walk(rest, left, hits | {step[1]} if step[3] else hits)
                    undo_step(me, opp, step)

    walk([(src, dst) for src, dst, _star in segments], list(dice.values), frozenset())
    return list(out.items())
