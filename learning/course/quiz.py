"""Each lesson's closing quiz: fresh positions made from the lesson's theme.

A run through a lesson draws its quiz from the run's seed
(``LessonProgress.seed``), so the server makes the same tasks again when it
checks an answer, and the next run gets new ones. Every task is made with
the engine: the dice are drawn until the theme's goal can be reached (a play
that hits, enters, bears off), the intended steps are a play the engine
lists, and the answers to questions are the engine's (``check``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from django.utils.translation import gettext_lazy as _

from games.engine import Dice, Play, Position, legal_plays
from learning.course.lessons import Goal, Lesson, Task

QUIZ_SIZE = 2
# Tries at a roll that fits the theme before another board is drawn.
ROLL_TRIES = 20

Maker = Callable[[random.Random], Task]


def _position(light: dict[int, int], dark: dict[int, int], light_bar: int = 0) -> Position:
    """A position from LIGHT's side; ``dark`` by display point (LIGHT's numbering)."""
    me, opp = [0] * 25, [0] * 25
    for point, n in light.items():
        me[point - 1] = n
    for point, n in dark.items():
        opp[24 - point] = n
    me[24] = light_bar
    return Position(tuple(me), tuple(opp))


def _scatter(rng: random.Random, count: int, points: list[int]) -> dict[int, int]:
    placed: dict[int, int] = {}
    for _n in range(count):
        point = rng.choice(points)
        placed[point] = placed.get(point, 0) + 1
    return placed


def _roll(rng: random.Random) -> Dice:
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def _steps(play: Play) -> tuple[tuple[int, int], ...]:
    return tuple((s.src, s.dst) for s in play.steps)


def _dice(dice: Dice) -> tuple[int, int]:
    return dice.d1, dice.d2


def pip_count(rng: random.Random) -> Task:
    light = _scatter(rng, rng.randint(2, 5), list(range(1, 14)))
    bar = 1 if rng.random() < 0.3 else 0
    position = _position(light, {19: 5, 20: 5, 21: 5}, bar)
    return Task(position.position_id(), None, Goal.COUNT, _("Count your pips on this board."))


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


def winning(rng: random.Random) -> Task:
    kind = rng.choice(["single", "gammon", "backgammon"])
    if kind == "single":
        dark = _scatter(rng, rng.randint(3, 14), [19, 20, 21, 22, 23, 24])
    elif kind == "gammon":
        dark = _scatter(rng, 15, list(range(7, 25)))
    else:
        dark = {**_scatter(rng, 14, list(range(7, 25))), rng.randint(1, 6): 1}
    position = _position({}, dark)
    return Task(
        position.position_id(), None, Goal.RESULT, _("You have borne off all 15. What is the win?")
    )


MAKERS: dict[str, Maker] = {
    "hitting": hitting,
    "entering": entering,
    "bearing-off": bearing_off,
    "pip-count": pip_count,
    "winning": winning,
}


def quiz(slug: str, seed: int) -> tuple[Task, ...]:
    """The quiz of lesson ``slug`` for a run's ``seed`` (none for a lesson
    without a theme to draw from)."""
    make = MAKERS.get(slug)
    if make is None:
        return ()
    rng = random.Random(f"{slug}:{seed}")
    return tuple(make(rng) for _n in range(QUIZ_SIZE))


def lesson_tasks(lesson: Lesson, seed: int) -> tuple[Task, ...]:
    """The lesson's own tasks, then its quiz."""
    return lesson.tasks + quiz(lesson.slug, seed)
