"""Reading the work files' records: a candidate's position, plays and tags.

No Django here.
"""

from __future__ import annotations

from typing import Any

from games.engine import Dice, Play, Position, legal_plays
from learning.puzzles import themes
from learning.puzzles.generate import CONTEXTS
from learning.puzzles.rules import accepted

PROBS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def position_of(record: dict[str, Any]) -> Position:
    return Position.from_position_id(record["decision"]["pos"])


def plays_of(record: dict[str, Any]) -> dict[str, Play]:
    """A checker record's legal plays by the Position ID they lead to."""
    d = record["decision"]
    plays = legal_plays(position_of(record), Dice(*d["dice"]))
    return {p.result.position_id(): p for p in plays}


def probs(row: list[Any]) -> dict[str, float]:
    """A ranked play's chances (``screen.rank``'s fourth field) by name."""
    return dict(zip(PROBS, (float(v) for v in row[3]), strict=True))


def first_rejected(record: dict[str, Any]) -> int:
    return accepted([float(p[2]) for p in record["plays"]])


def tags_of(record: dict[str, Any]) -> dict[str, object]:
    """The themes of a ranked checker record or a judged cube record."""
    position, turn = position_of(record), int(record["decision"]["turn"])
    if record["kind"] == "cube":
        match = CONTEXTS[record["context"]].match.length > 0
        return themes.cube_themes(
            position, turn, record["question"], record["advice"]["best"], match
        )
    by_id = plays_of(record)
    best, other = record["plays"][0], record["plays"][first_rejected(record)]
    return themes.checker_themes(
        position, turn, by_id[best[1]], by_id[other[1]], probs(best), probs(other)
    )
