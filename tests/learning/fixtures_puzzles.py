"""Small puzzle banks for the puzzle tests, never the shipped one.

``checker_puzzle`` ranks a real position at 1-ply (``learning.puzzles.
screen.rank``: every play with its equity) and stores it as a rated puzzle
whose answers are the plays within ``ACCEPT`` of the best, as the bank's
builder does; ``cube_puzzle`` stores a cube question with the review's
advice at 1-ply. ``only`` clears the table first: the shipped bank the
migration loaded stays out of a test's way.
"""

from __future__ import annotations

from typing import Any

from ai_worker.cube import CubeContext
from ai_worker.cube_advice import advise
from games.engine import Cube, Match, Position, Side
from learning.board.input import context_json
from learning.puzzles import screen
from learning.puzzles.models import Puzzle
from learning.puzzles.rules import accepted
from learning.puzzles.sources import Decision
from tests.boards import board

# A middle game where 3-1 has one clear best play (the 5-point).
START = Position.start()
HITTABLE = board({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 10: 1, 12: 4, 17: 3, 19: 5})


def only() -> None:
    Puzzle.objects.all().delete()


def checker_puzzle(
    position: Position = START,
    dice: tuple[int, int] = (3, 1),
    *,
    key: str = "",
    rating: float = 1500.0,
    tags: str = " phase:opening ",
    owner: Any = None,
    status: str = "confirmed",
) -> Puzzle:
    d = Decision(position.position_id(), dice, 1, "test", "expert")
    record = screen.rank(d, 1)
    plays = record["plays"]
    n = accepted([p[2] for p in plays])
    return Puzzle.objects.create(
        key=key or f"test:{d.key}:{owner.pk if owner else ''}",
        kind="checker",
        owner=owner,
        position_id=d.pos,
        die1=dice[0],
        die2=dice[1],
        turn=1,
        phase="opening",
        tags=tags,
        answers=[p[1] for p in plays[:n]],
        ranking=plays,
        rollout={"status": status, "margin": 0.1, "se": 0.01, "trials": 18, "batches": 3},
        status=status,
        rating=rating,
        deviation=150.0,
    )


def cube_puzzle(
    question: str = "double", *, key: str = "test:cube", match: Match | None = None
) -> Puzzle:
    """A cube question on a strong race position (1-ply advice), in a money
    game or at ``match``'s score."""
    position = board({6: 3, 5: 3, 4: 3, 3: 3}, {19: 4, 20: 4, 21: 4, 22: 3})
    context = CubeContext(Cube(), match or Match(jacoby=True), Side.LIGHT)
    advice = advise(position, context, question, 1)
    best = "no_double" if str(advice.best) == "too_good" else str(advice.best)
    return Puzzle.objects.create(
        key=key,
        kind="cube",
        position_id=position.position_id(),
        question=question,
        context=context_json(context),
        turn=40,
        phase="bearoff",
        tags=f" phase:bearoff {best} ",
        answers=[best],
        ranking=advice.to_json(),
        rollout={"status": "confirmed", "margin": 0.1, "se": 0.01, "trials": 18, "batches": 3},
        status="confirmed",
        deviation=150.0,
    )
