"""The quiz makers of the lessons on playing well and of the questions: the
habits and the opening replies (a choice of two plays), the opening drill,
the cube, the pip count, the win's kind.

The choices of the habits and the replies are drawn where the hints'
ranking (``default_rank`` at ``check.PICK_PLY``, as the check ranks the
pick) puts the two plays at least ``PICK_GAP`` apart, a habit's only where
the better play keeps the habit the other breaks and leaves no more shots;
the cube's where the cube advice's actions are ``CUBE_GAP`` apart.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from ai_worker import candidates
from ai_worker.features import count_shots, position_features
from ai_worker.ranking import default_rank
from games.engine import Dice, Position
from games.steps import display_notation
from games.words.notation import notation_words
from learning.course import answers, check
from learning.course.lessons_strategy import OPENINGS
from learning.course.quiz_draw import _dice, _position, _roll, _scatter, _varied, _words
from learning.course.shapes import START, Goal, Task

# The least equity between the two plays of a drawn choice (the hints' 1-ply).
PICK_GAP = 0.06
# The least equity between the right cube action and the other one.
CUBE_GAP = 0.08


def spoken(notation: str) -> Any:
    """A play's notation in the language of the moment it is shown."""
    return lazy(notation_words, str)(notation)


def _clear_pair(
    rng: random.Random, position: Position, dice: Dice, fits: Callable[[Any, Any], bool]
) -> tuple[str, str] | None:
    """The best play and one the hints rank at least ``PICK_GAP`` below it,
    for which ``fits(better, worse)`` holds (``Candidate``s, with their
    reasons); None if there is none."""
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


def _shots(candidate: Any) -> int:
    return count_shots(Position.from_position_id(candidate.result_id))


def keeps_habit(better: Any, worse: Any) -> bool:
    """The better play keeps a habit the other breaks, and leaves no more
    shots: no blot in reach where the other leaves one, or it makes the 4 or
    5 point and the other does not."""
    if _shots(better) > _shots(worse):
        return False
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
        pair = _clear_pair(rng, position, dice, keeps_habit)
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


def openings(rng: random.Random) -> Task:
    """One of the 15 opening rolls, to play the standard way (the lesson's own plays)."""
    shown = rng.choice(OPENINGS.tasks)
    assert shown.dice is not None
    d1, d2 = shown.dice
    return Task(
        START,
        shown.dice,
        Goal.PLAY,
        _words(_("Opening roll %(d1)s-%(d2)s: play it the standard way."), d1=d1, d2=d2),
        accept=shown.accept,
        solution=shown.solution,
        why=shown.why,
    )


OPENING_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1)]


def replies(rng: random.Random) -> Task:
    """The reply to the computer's opening: its best play of an opening roll,
    then the person's roll, any of the 21: which of two replies is better."""
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
                    play=spoken(display_notation(opened.notation(), "dark")),
                ),
                accept=_shuffled(rng, pair),
            )


def cube(rng: random.Random) -> Task:
    """A race of a few checkers each (both sides have borne off some, so no
    gammon), one side to double or to answer the double, where the cube
    advice's actions are ``CUBE_GAP`` apart."""
    while True:
        light = _scatter(rng, rng.randint(3, 8), list(range(1, 7)))
        dark = _scatter(rng, rng.randint(3, 8), list(range(19, 25)))
        position = _position(light, dark)
        goal = rng.choice([Goal.DOUBLE, Goal.TAKE])
        advice = answers.cube_advice(position.position_id(), goal)
        values = sorted(advice["values"].values(), reverse=True)
        if advice["best"] == "too_good" or values[0] - values[-1] < CUBE_GAP:
            continue
        pips = {"mine": position.pips()[0], "its": position.pips()[1]}
        if goal is Goal.DOUBLE:
            prompt = _words(
                _(
                    "A money game, the cube in the middle, before your roll: you have %(mine)s "
                    "pips, the computer %(its)s. Double?"
                ),
                **pips,
            )
        else:
            prompt = _words(
                _(
                    "The computer, on roll with %(its)s pips against your %(mine)s, doubles. "
                    "Take or pass?"
                ),
                **pips,
            )
        return Task(position.position_id(), None, goal, prompt)


def pip_count(rng: random.Random) -> Task:
    light = _scatter(rng, rng.randint(2, 5), list(range(1, 14)))
    bar = 1 if rng.random() < 0.3 else 0
    position = _position(light, {19: 5, 20: 5, 21: 5}, bar)
    return Task(position.position_id(), None, Goal.COUNT, _("Count your pips on this board."))


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
