"""The quiz makers of the lessons on reading a play and counting shots: a
play written in notation to play as written, a blot whose shots to count,
and a roll to play so that the fewest rolls hit you (the goal, never the
clicks, is given)."""

from __future__ import annotations

import random

from django.utils.translation import gettext_lazy as _

from ai_worker.features import count_shots
from games.engine import legal_plays
from learning.course.quiz_draw import _dice, _position, _roll, _steps, _varied, _words
from learning.course.quiz_questions import spoken
from learning.course.shapes import Goal, Task


def notation(rng: random.Random) -> Task:
    """A play of two steps or more written in notation, on a fresh board."""
    while True:
        position, dice = _varied(rng, rng.randint(1, 4), hits=True), _roll(rng)
        every = legal_plays(position, dice)
        plays = [p for p in every if len(p.steps) >= 2]
        # Several plays to choose from: reading the notation decides.
        if plays and len(every) >= 3:
            play = rng.choice(plays)
            text = play.notation()
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.PLAY,
                _words(_("Play it as written: %(play)s."), play=spoken(text)),
                miss=_words(_("This task's play is %(play)s."), play=spoken(text)),
                accept=(text,),
                solution=_steps(play),
            )


# Your made points in front of the blot, and where the computer's checkers may stand.
SHOT_LIGHT = {6: 3, 5: 3, 4: 2, 3: 2}


def shots(rng: random.Random) -> Task:
    """A blot of yours 1 to 12 points in front of one or two of the
    computer's checkers (the rest far away): count the rolls that hit it."""
    while True:
        blot = rng.randint(8, 18)
        if blot == 13:
            continue
        light = {**SHOT_LIGHT, blot: 1, 13: 15 - sum(SHOT_LIGHT.values()) - 1}
        free = [p for p in range(max(1, blot - 12), blot) if p not in light]
        shooters = sorted(rng.sample(free, min(len(free), rng.randint(1, 2))))
        dark = {point: 1 for point in shooters}
        dark[24] = 15 - len(shooters)
        position = _position(light, dark)
        count = count_shots(position, target=blot)
        if 0 < count < 36:
            return Task(
                position.position_id(),
                None,
                Goal.SHOTS,
                _words(
                    _(
                        "How many of the 36 rolls let the computer hit your blot on point "
                        "%(point)s?"
                    ),
                    point=blot,
                ),
                point=blot,
            )


def safest(rng: random.Random) -> Task:
    """A roll where plays differ in shots: leave the fewest."""
    while True:
        position, dice = _varied(rng, rng.randint(2, 4)), _roll(rng)
        plays = legal_plays(position, dice)
        counts = [count_shots(p.result) for p in plays]
        least = min(counts, default=0)
        fewest = [p for p, n in zip(plays, counts, strict=True) if n == least]
        if plays and least < max(counts) and len(fewest) * 2 <= len(plays):
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.SAFEST,
                _("Play this roll so that the fewest rolls can hit you."),
                solution=_steps(fewest[0]),
            )


def shots_or_safest(rng: random.Random) -> Task:
    return shots(rng) if rng.random() < 0.5 else safest(rng)
