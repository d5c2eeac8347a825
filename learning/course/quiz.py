"""Each lesson's closing quiz: fresh positions made from the lesson's theme.

A run through a lesson draws its quiz from the run's seed
(``LessonProgress.seed``), so the server makes the same tasks again when it
checks an answer, and the next run gets new ones. Every task is made with
the engine: the dice are drawn until the theme's goal can be reached (a play
that hits, enters, bears off, moves as the prompt says), the intended steps
are a play the engine lists, a wrong step is one the engine refuses with the
lesson's refusal code, and the answers to questions are the engine's
(``check``). The choices of the habits and the opening replies are drawn
where the hints' ranking (``default_rank`` at ``check.PICK_PLY``, as the
check ranks the pick) puts the two plays at
least ``PICK_GAP`` apart, and the cube's where the cube advice's actions are
``CUBE_GAP`` apart, so the right answer is clear.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any, cast

from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from ai_worker import candidates
from ai_worker.features import position_features
from ai_worker.ranking import default_rank
from games.engine import Dice, Play, Position, RefusalCode, Turn, legal_plays
from learning.course import check
from learning.course.shapes import START, Goal, Lesson, Task, Wrong

QUIZ_SIZE = 2
# Tries at a roll that fits the theme before another board is drawn.
ROLL_TRIES = 20
# The least equity between the two plays of a drawn choice (the hints' 1-ply).
PICK_GAP = 0.06
# The least equity between the right cube action and the other one.
CUBE_GAP = 0.08

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


def _words(text: Promise, **params: Any) -> Promise:
    """``text`` with ``params`` filled in, in the language of the moment it is shown."""
    filled = lazy(lambda: str(text) % params, str)()
    return cast(Promise, filled)  # a lazy proxy, typed as its result


def _refused(
    position: Position, dice: Dice, steps: tuple[tuple[int, int], ...]
) -> RefusalCode | None:
    """The code the engine refuses the last of ``steps`` with (None if it takes them all)."""
    turn = Turn(position, dice)
    for src, dst in steps:
        refusal = turn.refusal(src, dst)
        if refusal is not None:
            return refusal.code
        turn = turn.step(src, dst)
    return None


def _varied(rng: random.Random, turns: int, hits: bool = False) -> Position:
    """The start after ``turns`` random plays of each side, that hit nothing
    unless ``hits`` (light, the person, on roll)."""
    position = Position.start()
    for _turn in range(2 * turns):
        plays = [
            p for p in legal_plays(position, _roll(rng)) if hits or not any(s.hit for s in p.steps)
        ]
        if plays:
            position = rng.choice(plays).result
        position = position.swapped()
    return position


def _pick_rolls(rng: random.Random, doubles: bool = False) -> Dice:
    while True:
        dice = _roll(rng)
        if (dice.d1 == dice.d2) == doubles:
            return dice


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


def _clear_pair(
    rng: random.Random, position: Position, dice: Dice, fits: Callable[[Any, Any], bool]
) -> tuple[str, str] | None:
    """The best play and one the hints rank at least ``PICK_GAP`` below it,
    for which ``fits(better, worse)`` holds (``Candidate``s, with their
    reasons); None if there is none. The hints' ranking (bgsage at
    ``check.PICK_PLY``) first; the reasons only for the plays tried."""
    ranked = default_rank(position, dice, check.PICK_PLY)
    if len(ranked) < 2:
        return None
    before = position_features(position)
    best = candidates.candidate(position, ranked[0], before)
    worse = [r for r in ranked[1:] if ranked[0].equity - r.equity >= PICK_GAP]
    rng.shuffle(worse)
    for ranked_play in worse:
        other = candidates.candidate(position, ranked_play, before)
        if fits(best, other):
            return best.notation, other.notation
    return None


def _codes(candidate: Any) -> set[str]:
    return {reason.code for reason in candidate.reasons}


def _habit(better: Any, worse: Any) -> bool:
    """The better play keeps to a habit the other breaks: no blot in reach
    where the other leaves one, or it makes the 4 or 5 point and the other
    does not."""
    safer = "blots" in _codes(worse) and "blots" not in _codes(better)
    made = {p for r in better.reasons if r.code == "makes_points" for p in r.params["points"]}
    other = {p for r in worse.reasons if r.code == "makes_points" for p in r.params["points"]}
    return safer or bool(made & {4, 5}) and not other & {4, 5}


def _shuffled(rng: random.Random, pair: tuple[str, str]) -> tuple[str, str]:
    return (pair[0], pair[1]) if rng.random() < 0.5 else (pair[1], pair[0])


def habits(rng: random.Random) -> Task:
    while True:
        # Hits allowed: a checker of the person's may be on the bar.
        position, dice = _varied(rng, rng.randint(1, 4), hits=True), _roll(rng)
        pair = _clear_pair(rng, position, dice, _habit)
        if pair is not None:
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.PICK,
                _(
                    "Which of the two plays is better? Think of the three habits: no blot "
                    "within reach, enter first, make your 4 and 5 points."
                ),
                accept=_shuffled(rng, pair),
            )


OPENING_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1)]


def openings(rng: random.Random) -> Task:
    """The reply to the computer's opening: its best play of an opening roll,
    then the person's roll, any of the 21."""
    while True:
        first = Dice(*rng.choice(OPENING_ROLLS))
        opened = default_rank(Position.from_position_id(START), first, check.PICK_PLY)[0].play
        position = opened.result.swapped()
        dice = _roll(rng)
        pair = _clear_pair(rng, position, dice, lambda best, other: True)
        if pair is not None:
            return Task(
                position.position_id(),
                _dice(dice),
                Goal.PICK,
                _words(
                    _(
                        "The computer opened with %(roll)s and played %(play)s. Which of the "
                        "two replies is better?"
                    ),
                    roll=f"{first.d1}-{first.d2}",
                    play=opened.notation(),
                ),
                accept=_shuffled(rng, pair),
            )


def cube(rng: random.Random) -> Task:
    """A race of a few checkers each, one side to double or to answer the
    double, where the cube advice's actions are ``CUBE_GAP`` apart."""
    while True:
        light = _scatter(rng, rng.randint(3, 8), list(range(1, 7)))
        dark = _scatter(rng, rng.randint(3, 8), list(range(19, 25)))
        position = _position(light, dark)
        goal = rng.choice([Goal.DOUBLE, Goal.TAKE])
        advice = check.cube_advice(position.position_id(), goal)
        values = sorted(advice["values"].values(), reverse=True)
        if advice["best"] == "too_good" or values[0] - values[-1] < CUBE_GAP:
            continue
        if goal is Goal.DOUBLE:
            prompt = _words(
                _("Before your roll: you have %(mine)s pips, the computer %(its)s. Double?"),
                mine=position.pips()[0],
                its=position.pips()[1],
            )
        else:
            prompt = _words(
                _(
                    "The computer, on roll with %(its)s pips against your %(mine)s, doubles. "
                    "Take or pass?"
                ),
                mine=position.pips()[0],
                its=position.pips()[1],
            )
        return Task(position.position_id(), None, goal, prompt)


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
    "board": board,
    "two-dice": two_dice,
    "doubles": doubles,
    "blocked": blocked,
    "both-dice": both_dice,
    "habits": habits,
    "openings": openings,
    "cube": cube,
    "hitting": hitting,
    "entering": entering,
    "bearing-off": bearing_off,
    "pip-count": pip_count,
    "winning": winning,
}


@functools.lru_cache(maxsize=256)
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
