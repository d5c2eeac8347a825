"""The one writer of a puzzle answer: judged, recorded once, rated.

A person's first answer to a puzzle is the one that counts: it is stored
(``PuzzleAttempt``, one per person and puzzle) and, for a rated puzzle, it
is a Glicko-2 game between the person and the puzzle, both ratings moved
in the same transaction, damped when a theme was trained
(``learning.puzzles.glicko``). Anything else changes nothing and says why
in words (``AnswerError``): a puzzle answered already (a second try, or
the same request sent again), another person's own-game puzzle, a puzzle
that is not there, a play that is not a whole legal play of the roll, an
answer of the wrong kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engine import Dice, Play, Position, Turn
from learning.puzzles import glicko, themes
from learning.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating

CUBE_ACTIONS = {"double": ("double", "no_double"), "take": ("take", "pass")}
MAX_STEPS = 8


class AnswerError(Exception):
    """A refused answer: ``code`` for the page and tests, words for people."""

    def __init__(self, code: str, words: str, status: int = 400) -> None:
        super().__init__(words)
        self.code = code
        self.words = words
        self.status = status


def visible(user: Any, puzzle_id: int) -> Puzzle:
    """The puzzle ``user`` may see: the bank's, or one of their own errors."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise AnswerError("missing", _("There is no such puzzle."), 404)
    if puzzle.owner_id is not None and puzzle.owner_id != getattr(user, "pk", None):
        raise AnswerError(
            "not_yours",
            _("This puzzle comes from another person's own game: only they can answer it."),
            403,
        )
    return puzzle


def angle_of(theme: str) -> str:
    """What training ``theme`` tells the solver (``glicko.weight``'s angle)."""
    if not theme:
        return glicko.MIX
    if theme in themes.CHECKER_THEMES:
        return glicko.HINTING
    if theme in themes.CUBE_THEMES and theme != themes.MATCH_SCORE:
        return glicko.OBVIOUS
    return glicko.SETTING


def play_of(puzzle: Puzzle, steps: Any) -> Play:
    """The whole play ``steps`` make on the puzzle's roll."""
    if puzzle.kind != "checker":
        raise AnswerError("not_a_play", _("This puzzle asks for a cube decision, not a play."))
    return steps_play(puzzle.position_id, (puzzle.die1, puzzle.die2), steps)


def steps_play(position_id: str, dice: tuple[int, int], steps: Any) -> Play:
    """The whole play ``steps`` ([[from, to], ...], the mover's numbering)
    make from ``position_id`` with ``dice``; ``AnswerError`` when they are
    not one."""
    if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_STEPS:
        raise AnswerError("malformed", _("The answer is not a play: send its steps."))
    turn = Turn(Position.from_position_id(position_id), Dice(*dice))
    try:
        for step in steps:
            if not (
                isinstance(step, list) and len(step) == 2 and all(type(v) is int for v in step)
            ):
                raise AnswerError("malformed", _("The answer is not a play: send its steps."))
            turn = turn.step(step[0], step[1])
    except ValueError as error:
        raise AnswerError("illegal", _("That is not a legal play of this roll.")) from error
    if not turn.complete:
        raise AnswerError("incomplete", _("The play is not finished: use the whole roll."))
    return turn.play()


@dataclass(frozen=True, slots=True)
class Answered:
    """The recorded attempt and what the person's rating became."""

    attempt: PuzzleAttempt
    puzzle: Puzzle
    play: Play | None


def answer(
    user: Any, puzzle_id: int, *, steps: Any = None, action: Any = None, theme: str = ""
) -> Answered:
    """Judge and record ``user``'s first answer to the puzzle (``steps`` for
    a checker puzzle, ``action`` for a cube one) while training ``theme``."""
    puzzle = visible(user, puzzle_id)
    if puzzle.status != "confirmed" and puzzle.owner_id is None:
        raise AnswerError("unrated", _("This puzzle is not in the bank."), 404)
    play = None
    if puzzle.kind == "checker":
        play = play_of(puzzle, steps)
        given, solved = play.notation(), play.result.position_id() in puzzle.answers
        lost = _lost(puzzle, play)
    else:
        if action not in CUBE_ACTIONS.get(puzzle.question, ()):
            raise AnswerError("malformed", _("Answer with one of the two cube actions."))
        given, solved, lost = str(action), action in puzzle.answers, _cube_lost(puzzle, action)
    try:
        with transaction.atomic():
            attempt = _record(user, puzzle.pk, solved, given, lost, theme)
    except IntegrityError as error:  # the same answer sent twice at once
        raise _answered() from error
    return Answered(attempt, Puzzle.objects.get(pk=puzzle.pk), play)


def _answered() -> AnswerError:
    return AnswerError(
        "answered", _("You have answered this puzzle already: only your first answer counts."), 409
    )


def _lost(puzzle: Puzzle, play: Play) -> float | None:
    result = play.result.position_id()
    for row in puzzle.ranking:
        if row[1] == result:
            return max(0.0, float(puzzle.ranking[0][2]) - float(row[2]))
    return None


def _cube_lost(puzzle: Puzzle, action: str) -> float | None:
    """What ``action`` gives away against the right answer, in the unit of
    the puzzle's cube and score (the review's advice, its ``values``)."""
    advice = puzzle.ranking if isinstance(puzzle.ranking, dict) else {}
    values = advice.get("values") or {}
    if action not in values or advice.get("best") not in values:
        return None
    return max(0.0, float(values[advice["best"]]) - float(values[action]))


def _record(
    user: Any, puzzle_id: int, solved: bool, given: str, lost: float | None, theme: str
) -> PuzzleAttempt:
    rating, _made = PuzzleRating.objects.select_for_update().get_or_create(user=user)
    if PuzzleAttempt.objects.filter(user=user, puzzle_id=puzzle_id).exists():
        raise _answered()
    puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
    person = glicko.Rating(rating.rating, rating.deviation, rating.volatility)
    before = glicko.Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
    rated = puzzle.rated
    if rated:
        person_after, puzzle_after = glicko.play(person, before, solved, angle_of(theme))
    else:
        person_after, puzzle_after = person, before
    attempt = PuzzleAttempt.objects.create(
        user=user,
        puzzle=puzzle,
        solved=solved,
        answer=given[:40],
        lost=lost,
        theme=theme[:40],
        rated=rated,
        rating_before=person.rating,
        rating_after=person_after.rating,
        puzzle_before=before.rating,
        puzzle_after=puzzle_after.rating,
    )
    rating.rating, rating.deviation = person_after.rating, person_after.deviation
    rating.volatility = person_after.volatility
    rating.attempts += 1
    rating.save()
    puzzle.rating, puzzle.deviation = puzzle_after.rating, puzzle_after.deviation
    puzzle.volatility = puzzle_after.volatility
    puzzle.attempts += 1
    puzzle.solved += int(solved)
    puzzle.save(update_fields=["rating", "deviation", "volatility", "attempts", "solved"])
    return attempt
