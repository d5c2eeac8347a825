"""Step-by-step validation of a turn, with typed reasons for refusals."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.dice import Dice
from games.engine.errors import IllegalPlayError, IllegalStepError, Refusal, RefusalCode
from games.engine.memo import memo
from games.engine.movegen import RawStep, Step, do_step, max_dice_usable, single_moves, undo_step
from games.engine.plays import Play, legal_plays, make_position
from games.engine.position import BAR, OFF, Position


@dataclass(frozen=True)
class _Rules:
    """What the whole roll allows: how many dice, and which die if only one."""

    total: int
    only_die: int | None


@memo(4096)
def _rules(position: Position, dice: Dice) -> _Rules:
    # A search that stops as soon as all dice are placed: cheaper than listing
    # every play, so a cold click costs less than one enumeration.
    me, opp = list(position.me), list(position.opp)
    total = max_dice_usable(me, opp, dice.values, len(dice.values))
    only = None
    if total == 1 and not dice.is_double:
        only = dice.high if any(single_moves(me, opp, dice.high)) else dice.low
    return _Rules(total, only)


@memo(4096)
def _results(position: Position, dice: Dice) -> frozenset[Position]:
    return frozenset(play.result for play in legal_plays(position, dice))


@memo(16384)
def _allowed(
    origin: Position, dice: Dice, current: Position, remaining: tuple[int, ...], need: int
) -> tuple[Step, ...]:
    """Every next step that still lets ``need`` dice in all be played."""
    if need <= 0:
        return ()
    me, opp = list(current.me), list(current.opp)
    allowed: list[Step] = []
    for die in sorted(set(remaining), reverse=True):
        for raw in list(single_moves(me, opp, die)):
            if _keeps_play(origin, dice, me, opp, remaining, need, raw):
                allowed.append(Step(*raw))
    return tuple(allowed)


def _keeps_play(
    origin: Position,
    dice: Dice,
    me: list[int],
    opp: list[int],
    remaining: tuple[int, ...],
    need: int,
    raw: RawStep,
) -> bool:
    """Whether a rule-legal single move still lets ``need`` dice in all be played.

    A step after which no die can move is also allowed when it already gives
    the board of a legal play: the last checker borne off with a 6 from the
    5-point ends the game exactly as 5/4/off would, so it is the same play.
    """
    only_die = _rules(origin, dice).only_die
    if need <= 0 or (only_die is not None and raw[2] != only_die):
        return False
    if need == 1:
        return True
    rest = list(remaining)
    rest.remove(raw[2])
    do_step(me, opp, raw)
    try:
        usable = max_dice_usable(me, opp, tuple(rest), need - 1)
        return usable >= need - 1 or (usable == 0 and _board(me, opp) in _results(origin, dice))
    finally:
        undo_step(me, opp, raw)


def _find_step(
    origin: Position,
    dice: Dice,
    current: Position,
    remaining: tuple[int, ...],
    need: int,
    move: tuple[int, int, int],
) -> Step | None:
    """The step (src, dst, die) if accepted here, checked alone (no full listing)."""
    src, dst, die = move
    if die not in remaining:
        return None
    me, opp = list(current.me), list(current.opp)
    for raw in single_moves(me, opp, die):
        if raw[0] == src and raw[1] == dst:
            if _keeps_play(origin, dice, me, opp, remaining, need, raw):
                return Step(*raw)
            return None
    return None


def _board(me: list[int], opp: list[int]) -> Position:
    return make_position(tuple(me), tuple(opp))


@dataclass(frozen=True)
class Turn:
    """A turn in progress: the position (mover's side), the dice, the steps so far.

    >>> turn = Turn(Position.start(), Dice(3, 1))
    >>> turn = turn.step(8, 5).step(6, 5)
    >>> turn.complete, turn.play().notation()
    (True, '8/5 6/5')
    >>> Turn(Position.start(), Dice(6, 5)).refusal(13, 10).code
    <RefusalCode.NO_SUCH_DIE: 'no_such_die'>
    """

    position: Position
    dice: Dice
    steps: tuple[Step, ...] = ()

    def __post_init__(self) -> None:
        current, remaining = self.position, list(self.dice.values)
        rules = _rules(self.position, self.dice)
        for index, step in enumerate(self.steps):
            need = rules.total - index
            move = (step.src, step.dst, step.die)
            found = _find_step(self.position, self.dice, current, tuple(remaining), need, move)
            if found != step:
                raise IllegalStepError(self._refusal_at(current, tuple(remaining), index, step))
            current = _after(current, step)
            remaining.remove(step.die)
        object.__setattr__(self, "_current", current)
        object.__setattr__(self, "_remaining", tuple(remaining))
        # Ended early: the last step gave a legal play's board and no die can move.
        early = 0 < len(self.steps) < rules.total and _stuck(current, tuple(remaining))
        object.__setattr__(self, "_complete", len(self.steps) == rules.total or early)

    @property
    def current(self) -> Position:
        """The board after the steps so far."""
        position: Position = self.__dict__["_current"]
        return position

    @property
    def remaining(self) -> tuple[int, ...]:
        """The dice values still to play."""
        values: tuple[int, ...] = self.__dict__["_remaining"]
        return values

    @property
    def _rules(self) -> _Rules:
        return _rules(self.position, self.dice)

    @property
    def complete(self) -> bool:
        """True when the steps form a whole legal play (at once if none exists)."""
        done: bool = self.__dict__["_complete"]
        return done

    def allowed_steps(self) -> tuple[Step, ...]:
        """Every legal next step."""
        need = self._rules.total - len(self.steps)
        return _allowed(self.position, self.dice, self.current, self.remaining, need)

    def refusal(self, src: int, dst: int, die: int | None = None) -> Refusal | None:
        """None when the step is accepted, else the reason it is refused."""
        chosen = self._choose(src, dst, die)
        if isinstance(chosen, Step):
            return None
        return chosen

    def step(self, src: int, dst: int, die: int | None = None) -> Turn:
        """The turn with one more step; raises IllegalStepError with the refusal."""
        chosen = self._choose(src, dst, die)
        if isinstance(chosen, Refusal):
            raise IllegalStepError(chosen)
        return Turn(self.position, self.dice, (*self.steps, chosen))

    def undo(self) -> Turn:
        """The turn without its last step."""
        if not self.steps:
            raise IllegalStepError(Refusal(RefusalCode.NOTHING_TO_UNDO))
        return Turn(self.position, self.dice, self.steps[:-1])

    def play(self) -> Play:
        """The finished play; raises IllegalPlayError while steps are still owed."""
        if not self.complete:
            raise IllegalPlayError("the turn is not complete: dice are still to be played")
        return Play(self.steps, self.current)

    def _choose(self, src: int, dst: int, die: int | None) -> Step | Refusal:
        # Check just this step: cheaper than listing every allowed one.
        for value in sorted(set(self.remaining)) if die is None else [die]:
            need = self._rules.total - len(self.steps)
            move = (src, dst, value)
            step = _find_step(self.position, self.dice, self.current, self.remaining, need, move)
            if step is not None:
                return step
        if self.complete:
            return Refusal(RefusalCode.TURN_COMPLETE)
        probe = Step(src, dst, die or 0, False)
        return self._refusal_at(self.current, self.remaining, len(self.steps), probe)

    def _refusal_at(
        self, current: Position, remaining: tuple[int, ...], done: int, step: Step
    ) -> Refusal:
        if done >= self._rules.total or (done and _stuck(current, remaining)):
            return Refusal(RefusalCode.TURN_COMPLETE)
        return explain(current, remaining, step, self._rules.only_die)


def _stuck(position: Position, remaining: tuple[int, ...]) -> bool:
    return max_dice_usable(list(position.me), list(position.opp), remaining, 1) == 0


def _after(position: Position, step: Step) -> Position:
    me, opp = list(position.me), list(position.opp)
    do_step(me, opp, (step.src, step.dst, step.die, step.hit))
    return make_position(tuple(me), tuple(opp))


def explain(
    current: Position, remaining: tuple[int, ...], step: Step, only_die: int | None
) -> Refusal:
    """The reason a step (die 0 = unspecified) is not among the allowed ones."""
    src, dst = step.src, step.dst
    me = current.me
    if not (OFF <= dst < src <= BAR):
        if not 1 <= src <= BAR:
            return Refusal(RefusalCode.NO_CHECKER, {"point": src})
        return Refusal(RefusalCode.WRONG_DIRECTION, {"src": src, "dst": dst})
    if me[24] and src != BAR:
        return Refusal(RefusalCode.MUST_ENTER_FIRST, {"on_bar": me[24]})
    if not me[src - 1]:
        return Refusal(RefusalCode.NO_CHECKER, {"point": src})
    distance = src - dst
    dice = _dice_for(remaining, step.die, distance, dst == OFF)
    if not dice:
        return Refusal(RefusalCode.NO_SUCH_DIE, {"distance": distance, "remaining": remaining})
    if dst != OFF and current.theirs(dst) >= 2:
        return Refusal(RefusalCode.POINT_BLOCKED, {"point": dst, "count": current.theirs(dst)})
    if dst == OFF:
        outside = tuple(p for p in range(BAR, 6, -1) if me[p - 1])
        if outside:
            count = sum(me[p - 1] for p in outside)
            return Refusal(RefusalCode.BEAR_OFF_OUTSIDE, {"count": count, "points": outside})
        highest = max(p for p in range(1, 7) if me[p - 1])
        if distance not in dice and highest > src:
            return Refusal(RefusalCode.BEAR_OFF_NOT_HIGHEST, {"die": dice[0], "highest": highest})
    die = dice[0]
    if only_die is not None and die != only_die:
        return Refusal(RefusalCode.MUST_USE_LARGER, {"larger": only_die, "smaller": die})
    others = list(remaining)
    others.remove(die)
    stranded = others[0] if others else die
    return Refusal(RefusalCode.MUST_USE_BOTH, {"die": stranded})


def _dice_for(remaining: tuple[int, ...], die: int, distance: int, bearing: bool) -> list[int]:
    """Dice that could move ``distance`` (larger ones too when bearing off), smallest first."""
    values = sorted(set(remaining)) if not die else ([die] if die in remaining else [])
    exact = [v for v in values if v == distance]
    larger = [v for v in values if v > distance] if bearing else []
    return exact + larger


__all__ = ["Refusal", "RefusalCode", "Turn", "explain"]
