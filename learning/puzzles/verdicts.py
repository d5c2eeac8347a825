"""What the page says after an answer: the review's words and the
rollout's figures.

The best play and the person's are the review's ``Candidate``s, built from
the puzzle's stored ranking (``ai_worker.candidates``: each play's own
reasons, and what the best does that the person's does not, ``versus``),
worded as the review words them (``learning.review.replay.candidate_json``).
A cube answer is worded as practice words it (``learning.words.cube``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from ai_worker.candidates import candidate, compared
from ai_worker.features import position_features
from ai_worker.sanity import Probs
from games.engine import Dice, Play, Position, legal_plays
from games.models import Game
from learning.board.input import read_context
from learning.glossary.marks import term
from learning.puzzles.models import Puzzle
from learning.review.replay import candidate_json
from learning.words import cube as cube_words
from learning.words.unit import unit_kind, unit_of_game, unit_term


@dataclass(frozen=True, slots=True)
class _Ranked:
    """A stored ranking's play as ``ai_worker.ranking.Ranked``."""

    play: Play
    equity: float
    probs: Probs


def ranked_play(puzzle: Puzzle, result_id: str) -> tuple[int, list[Any]] | None:
    """(index, row) of the ranking's play leading to ``result_id``."""
    for i, row in enumerate(puzzle.ranking):
        if row[1] == result_id:
            return i, row
    return None


def _candidate(position: Position, plays: dict[str, Play], row: list[Any]) -> Any:
    probs = Probs(*(float(v) for v in row[3]))
    return candidate(position, _Ranked(plays[row[1]], float(row[2]), probs))


def checker_words(puzzle: Puzzle, play: Play) -> dict[str, Any]:
    """The best play and the person's, each with the review's reasons; the
    person's with what the best does that it does not."""
    position = Position.from_position_id(puzzle.position_id)
    plays = {
        p.result.position_id(): p for p in legal_plays(position, Dice(puzzle.die1, puzzle.die2))
    }
    before = position_features(position)
    best_row = puzzle.ranking[0]
    best = _candidate(position, plays, best_row)
    found = ranked_play(puzzle, play.result.position_id())
    mine = None
    if found is not None and found[0] > 0:
        mine = compared(_candidate(position, plays, found[1]), best, before)
    return {
        "best_play": candidate_json(best.to_json(), "light"),
        "your_play": candidate_json(mine.to_json(), "light") if mine is not None else None,
        "ply": int(best_row[4]),
    }


def puzzle_unit(puzzle: Puzzle) -> str:
    """The unit kind of the puzzle's ranking (``learning.words.unit``): a
    cube puzzle's at its cube and score; a person's own puzzle the game's
    (its review ranked the plays there); the bank's checker puzzles were
    ranked without the cube (``learning.puzzles.screen``)."""
    if puzzle.kind == "cube":
        return unit_kind(read_context(puzzle.context, "light"))
    number = puzzle.source.removeprefix("game:")
    if puzzle.owner_id is not None and number.isdigit():
        game = Game.objects.filter(pk=int(number)).first()
        return unit_of_game(game) if game is not None else "cubeless"
    return "cubeless"


def rollout_words(puzzle: Puzzle) -> str:
    """The rollout's figures in one sentence, with their unit."""
    r = puzzle.rollout
    figures = {"trials": r["trials"], "margin": f"{r['margin']:.3f}", "se": f"{r['se']:.3f}"}
    if puzzle.kind == "cube":
        if puzzle_unit(puzzle) == "match":
            return _(
                "Rollout (%(trials)s games a decision, %(cubeful)s): the right answer is ahead "
                "by %(margin)s ± %(se)s (one standard error), in %(unit)s."
            ) % {**figures, "cubeful": term("cubeful"), "unit": unit_term("match")}
        return _(
            "Rollout (%(trials)s games a decision, %(cubeful)s): the right answer is ahead by "
            "%(margin)s ± %(se)s (one standard error), in units of the cube now."
        ) % {**figures, "cubeful": term("cubeful")}
    return _(
        "Rollout (%(trials)s games a play, %(cubeless)s): the best play is ahead of the best "
        "rejected play by %(margin)s ± %(se)s (one standard error)."
    ) % {**figures, "cubeless": term("cubeless")}


def cube_words_for(puzzle: Puzzle, action: str) -> dict[str, Any]:
    hint = cube_words.cube_hint_json(puzzle.ranking)
    return {
        "best_action": hint["title"],
        "reasons": hint["lines"],
        "your_action": cube_words.action_label(action),
    }
