"""The quiz makers of the lessons answered with a play, each task a goal on a
fresh position ("bring a checker home", "get a checker to point 9", "hit",
"bear off as many as you can"), never the clicks dictated; for the lessons
that teach a refusal, a wrong step the engine refuses with the lesson's
code."""

from __future__ import annotations

import random
from dataclasses import replace

from django.utils.translation import gettext_lazy as _

from games.engine import Dice, Play, Position, RefusalCode, legal_plays
from learning.course.clicks import expand
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


def _gain(play: Play, position: Position, point: int) -> int:
    return play.result.me[point - 1] - position.me[point - 1]


def _home(position: Position) -> int:
    return sum(position.me[:6])


def _no_hits(plays: list[Play]) -> bool:
    """No play hits: a lesson before the one on hitting never shows a hit."""
    return not any(s.hit for p in plays for s in p.steps)


def _goal_splits(plays: list[Play], reached: list[bool]) -> bool:
    """Some plays reach the goal and some do not: the task asks for judgment."""
    return any(reached) and not all(reached)


def board(rng: random.Random) -> Task:
    """Bring a checker into the home board; a step backwards is refused."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng)
        plays = legal_plays(position, dice)
        reached = [_home(p.result) > _home(position) for p in plays]
        back = [
            ((src, src + die),)
            for src in range(1, 19)
            for die in (dice.d1, dice.d2)
            if position.me[src - 1]
            and _refused(position, dice, ((src, src + die),)) is RefusalCode.WRONG_DIRECTION
        ]
        if _goal_splits(plays, reached) and back and _no_hits(plays):
            best = plays[reached.index(True)]
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.HOME,
                _("Bring one more of your checkers into your home board (points 1 to 6)."),
                miss=_("After this play no more of your checkers are on points 1 to 6."),
                solution=_steps(best),
                wrong=(Wrong(back[0], RefusalCode.WRONG_DIRECTION),),
            )


def _no_such_die(position: Position, dice: Dice, src: int) -> Wrong | None:
    """A step from ``src`` by a number no die shows, nor the dice together
    (a far click the course would play), refused as such."""
    for distance in (1, 2, 3, 4, 5, 6):
        step = ((src, src - distance),)
        far = expand(position, dice, step) != list(step)
        if (
            src - distance >= 1
            and not far
            and _refused(position, dice, step) is RefusalCode.NO_SUCH_DIE
        ):
            return Wrong(step, RefusalCode.NO_SUCH_DIE)
    return None


def _reach_task(position: Position, dice: Dice, point: int, count: int, play: Play) -> Task:
    prompt = (
        _("Get one of your checkers to point %(point)s.")
        if count == 1
        else _("Get two of your checkers to point %(point)s.")
    )
    return Task(
        position.position_id(),
        _dice(dice),
        Goal.REACH,
        _words(prompt, point=point),
        miss=_words(_("After this play point %(point)s has no new checker of yours."), point=point)
        if count == 1
        else _words(
            _("After this play point %(point)s has fewer than two new checkers."), point=point
        ),
        point=point,
        off=count,
        solution=_steps(play),
    )


def two_dice(rng: random.Random) -> Task:
    """A point that only one checker moving with both dice reaches."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng)
        plays = legal_plays(position, dice)
        if not _no_hits(plays):
            continue
        chains = [
            p
            for p in plays
            if len(p.steps) == 2 and p.steps[1].src == p.steps[0].dst and p.steps[1].dst > 0
        ]
        if not chains:
            continue
        play = rng.choice(chains)
        point = play.steps[1].dst
        reached = [_gain(p, position, point) >= 1 for p in legal_plays(position, dice)]
        single = any(s.dst == point for p in plays for s in p.steps if s.src != play.steps[0].dst)
        wrong = _no_such_die(position, dice, play.steps[0].src)
        if _goal_splits(plays, reached) and not single and wrong is not None:
            return replace(_reach_task(position, dice, point, 1, play), wrong=(wrong,))


def doubles(rng: random.Random) -> Task:
    """A point two of the four steps' checkers must reach."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng, doubles=True)
        plays = legal_plays(position, dice)
        if not _no_hits(plays):
            continue
        targets = sorted(
            {point for p in plays for point in range(1, 25) if _gain(p, position, point) >= 2}
        )
        if not targets:
            continue
        point = rng.choice(targets)
        reached = [_gain(p, position, point) >= 2 for p in plays]
        play = next(p for p in plays if _gain(p, position, point) >= 2)
        if _goal_splits(plays, reached) and position.me[point - 1] < 2:
            return _reach_task(position, dice, point, 2, play)


def blocked(rng: random.Random) -> Task:
    """A point some checkers at the right distance cannot reach: one die's
    step lands on the computer's point."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 3)), _pick_rolls(rng)
        plays = legal_plays(position, dice)
        for point in rng.sample(range(1, 19), 18):
            reached = [_gain(p, position, point) >= 1 for p in plays]
            stopped = [
                ((src, src - die),)
                for src in range(point + 1, 25)
                for die in (dice.d1, dice.d2)
                if position.me[src - 1]
                and src - dice.d1 - dice.d2 == point
                and _refused(position, dice, ((src, src - die),)) is RefusalCode.POINT_BLOCKED
            ]
            open_point = not position.opp[24 - point]
            if stopped and _goal_splits(plays, reached) and open_point and _no_hits(plays):
                play = plays[reached.index(True)]
                wrong = Wrong(stopped[0], RefusalCode.POINT_BLOCKED)
                return replace(_reach_task(position, dice, point, 1, play), wrong=(wrong,))


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
