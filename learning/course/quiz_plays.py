"""The quiz makers of the lessons answered with steps: a play that moves as
the prompt says, hits, enters or bears off, and for the lessons that teach a
refusal a wrong step the engine refuses with the lesson's code."""

from __future__ import annotations

import random

from django.utils.translation import gettext_lazy as _

from games.engine import Dice, Position, RefusalCode, Turn, legal_plays
from learning.course.quiz_draw import (
    _dice,
    _pick_rolls,
    _position,
    _refused,
    _roll,
    _scatter,
    _steps,
    _varied,
    _words,
)
from learning.course.shapes import Goal, Task, Wrong

# Tries at a roll that fits the theme before another board is drawn.
ROLL_TRIES = 20


def board(rng: random.Random) -> Task:
    """Move a named checker with both dice; a step backwards is refused."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng)
        plays = [
            p
            for p in legal_plays(position, dice)
            if len(p.steps) == 2
            and p.steps[1].src == p.steps[0].dst
            and p.steps[1].dst > 0
            and not any(s.hit for s in p.steps)
        ]
        rng.shuffle(plays)
        for play in plays:
            src, dst = play.steps[0].src, play.steps[1].dst
            back = [
                ((src, src + die),)
                for die in (dice.d1, dice.d2)
                if src + die <= 24
                and _refused(position, dice, ((src, src + die),)) is RefusalCode.WRONG_DIRECTION
            ]
            if back:
                return Task(
                    position.position_id(),
                    _dice(dice),
                    Goal.PLAY,
                    _words(
                        _("Move one checker from point %(src)s to point %(dst)s with both dice."),
                        src=src,
                        dst=dst,
                    ),
                    miss=_words(
                        _("This task wants the checker on point %(src)s moved to point %(dst)s."),
                        src=src,
                        dst=dst,
                    ),
                    accept=(play.notation(),),
                    solution=_steps(play),
                    wrong=(Wrong(back[0], RefusalCode.WRONG_DIRECTION),),
                )


def _no_such_die(position: Position, dice: Dice, src: int) -> Wrong | None:
    """A step from ``src`` by a number neither die shows, refused as such."""
    for distance in (1, 2, 3, 4, 5, 6):
        step = ((src, src - distance),)
        if src - distance >= 1 and _refused(position, dice, step) is RefusalCode.NO_SUCH_DIE:
            return Wrong(step, RefusalCode.NO_SUCH_DIE)
    return None


def two_dice(rng: random.Random) -> Task:
    """Two checkers, one die each, as the prompt names them."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng)
        plays = [
            p
            for p in legal_plays(position, dice)
            if len(p.steps) == 2
            and p.steps[1].src not in (p.steps[0].src, p.steps[0].dst)
            and min(p.steps[0].dst, p.steps[1].dst) > 0
            and not any(s.hit for s in p.steps)
        ]
        if not plays:
            continue
        play = rng.choice(plays)
        (a, a2), (b, b2) = _steps(play)
        wrong = _no_such_die(position, dice, a)
        if wrong is None:
            continue
        prompt = _(
            "Move one checker from point %(a)s to point %(a2)s and another from point "
            "%(b)s to point %(b2)s."
        )
        return Task(
            position.position_id(),
            _dice(dice),
            Goal.PLAY,
            _words(prompt, a=a, a2=a2, b=b, b2=b2),
            miss=_words(
                _("Two checkers, one die each: %(a)s to %(a2)s and %(b)s to %(b2)s."),
                a=a,
                a2=a2,
                b=b,
                b2=b2,
            ),
            accept=(play.notation(),),
            solution=_steps(play),
            wrong=(wrong,),
        )


def doubles(rng: random.Random) -> Task:
    """Four steps of a double: two checkers from each of two points."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng, doubles=True)
        die, me, opp = dice.d1, position.me, position.opp
        # Points with two checkers of one's own whose landing point is empty.
        froms = [p for p in range(die + 1, 25) if me[p - 1] >= 2 and opp[24 - (p - die)] == 0]
        if len(froms) < 2:
            continue
        a, b = sorted(rng.sample(froms, 2), reverse=True)
        if b == a - die:
            continue
        steps = ((a, a - die), (a, a - die), (b, b - die), (b, b - die))
        turn = Turn(position, dice)
        for src, dst in steps:
            turn = turn.step(src, dst)
        wrong = _no_such_die(position, dice, a)
        if not turn.complete or wrong is None:
            continue
        return Task(
            position.position_id(),
            _dice(dice),
            Goal.PLAY,
            _words(
                _(
                    "Four steps of %(die)s: move two checkers from point %(a)s to point %(a2)s "
                    "and two from point %(b)s to point %(b2)s."
                ),
                die=die,
                a=a,
                a2=a - die,
                b=b,
                b2=b - die,
            ),
            miss=_words(
                _("Two checkers %(a)s to %(a2)s and two %(b)s to %(b2)s."),
                a=a,
                a2=a - die,
                b=b,
                b2=b - die,
            ),
            accept=(turn.play().notation(),),
            solution=steps,
            wrong=(wrong,),
        )


def blocked(rng: random.Random) -> Task:
    """One checker with both dice, where one order stops on a blocked point."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng)
        candidates = []
        for src in range(1, 25):
            if not position.me[src - 1]:
                continue
            for first, second in ((dice.d1, dice.d2), (dice.d2, dice.d1)):
                mid, dst = src - first, src - first - second
                steps = ((src, mid), (mid, dst))
                blocked_step = ((src, src - second),)
                if (
                    dst >= 1
                    and position.opp[24 - mid] == position.opp[24 - dst] == 0
                    and _refused(position, dice, steps) is None
                    and _refused(position, dice, blocked_step) is RefusalCode.POINT_BLOCKED
                ):
                    candidates.append((steps, blocked_step))
        if not candidates:
            continue
        steps, blocked_step = rng.choice(candidates)
        (src, mid), (_mid, dst) = steps
        block = blocked_step[0][1]
        turn = Turn(position, dice).step(*steps[0]).step(*steps[1])
        return Task(
            position.position_id(),
            _dice(dice),
            Goal.PLAY,
            _words(
                _(
                    "The computer holds point %(block)s. Move one checker from point %(src)s "
                    "to point %(dst)s: which die first?"
                ),
                block=block,
                src=src,
                dst=dst,
            ),
            miss=_words(
                _("Move the checker on point %(src)s to %(mid)s first, then on to %(dst)s."),
                src=src,
                mid=mid,
                dst=dst,
            ),
            accept=(turn.play().notation(),),
            solution=steps,
            wrong=(Wrong(blocked_step, RefusalCode.POINT_BLOCKED),),
        )


BOTH_CODES = (RefusalCode.MUST_USE_BOTH, RefusalCode.MUST_USE_LARGER)


def both_dice(rng: random.Random) -> Task:
    """One back checker behind the computer's points, the rest on point 1:
    a first step that would leave a die unplayed (or play the smaller when
    only one can be played) is refused."""
    while True:
        back = rng.randint(14, 24)
        made = rng.sample(range(back - 11, back), rng.randint(2, 4))
        dark = {point: 15 // len(made) for point in made}
        dark[made[0]] += 15 - sum(dark.values())
        position = _position({back: 1, 1: 14}, dark)
        dice = _roll(rng)
        plays = [p for p in legal_plays(position, dice) if p.steps]
        tried = {((back, back - die),) for die in (dice.d1, dice.d2) if back - die >= 1}
        wrong = [
            Wrong(step, code)
            for step in sorted(tried)
            if (code := _refused(position, dice, step)) in BOTH_CODES
        ]
        if plays and wrong:
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.ANY,
                _(
                    "Play this roll with the checker on the far side: both dice if you can, "
                    "the larger one if only one can be played."
                ),
                solution=_steps(rng.choice(plays)),
                wrong=tuple(wrong),
            )


HIT_DARK = {1: 2, 12: 4, 17: 3, 19: 5}
HIT_LIGHT = {24: 2, 13: 5, 8: 3, 6: 5}


def hitting(rng: random.Random) -> Task:
    while True:
        blot = rng.choice([2, 3, 4, 5, 7, 9, 10, 11])
        position = _position(HIT_LIGHT, {**HIT_DARK, blot: 1})
        for _try in range(ROLL_TRIES):
            dice = _roll(rng)
            plays = legal_plays(position, dice)
            hits = [p for p in plays if any(s.hit for s in p.steps)]
            if hits and len(hits) < len(plays):
                return Task(
                    position.position_id(),
                    _dice(dice),
                    Goal.HIT,
                    _("The computer left a blot: find a play that hits it."),
                    miss=_("That play hits nothing: land a checker on the computer's blot."),
                    solution=_steps(hits[0]),
                )


FAR_DARK = {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}


def bearing_off(rng: random.Random) -> Task:
    while True:
        position = _position(_scatter(rng, rng.randint(3, 8), list(range(1, 7))), FAR_DARK)
        dice = _roll(rng)
        plays = legal_plays(position, dice)
        gains = [15 - sum(p.result.me) - position.borne_off()[0] for p in plays]
        most = max(gains, default=0)
        if most and min(gains) < most:
            best = plays[gains.index(most)]
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.OFF,
                _("Bear off as many checkers as these dice allow."),
                miss=_("Another play bears off more: take a checker off with each die you can."),
                off=most,
                solution=_steps(best),
            )


def entering(rng: random.Random) -> Task:
    made = rng.sample([19, 20, 21, 22, 23, 24], rng.randint(2, 4))
    dark = {point: 2 for point in made}
    dark[12] = 15 - 2 * len(made)
    position = _position({13: 5, 8: 4, 6: 5}, dark, light_bar=1)
    dice = _roll(rng)
    plays = [p for p in legal_plays(position, dice) if p.steps]
    if not plays:
        prompt = _("You are on the bar. Can you enter with these dice?")
        return Task(position.position_id(), _dice(dice), Goal.CAN_ENTER, prompt)
    return Task(
        position.position_id(),
        _dice(dice),
        Goal.ENTER,
        _("You are on the bar: enter, then play on."),
        miss=_("Bring the checker on the bar in first."),
        solution=_steps(plays[0]),
    )
