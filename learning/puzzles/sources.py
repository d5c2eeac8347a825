"""Where the bank's positions come from: no one picks them by hand.

Two sources, both games of the five tiers: the reviewed games the tiers'
PR was measured on (``bench/data/tier_pr_games.jsonl``, every decision
with a choice), and games the tiers play against each other for the bank
(``play_games``: seeded, each a pair of tiers drawn from the seed, every
play of both sides through ``ai_worker.policy`` as on the site). A
person's own puzzles come from their reviewed errors instead
(``learning.puzzles.personal``).

No Django here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.engine import Dice, Position, Side, legal_plays, outcome
from games.tiers import TIERS, Tier


@dataclass(frozen=True, slots=True)
class Decision:
    """A checker decision of a game: the mover's position and roll."""

    pos: str  # Position ID, the mover on roll
    dice: tuple[int, int]
    turn: int  # the game's turn number (the phase's opening counts turns)
    source: str  # "tiers:<game>" or "played:<seed>:<game>"
    tier: str  # the mover's tier

    @property
    def key(self) -> str:
        """One puzzle per position and roll, whichever game met it."""
        high, low = max(self.dice), min(self.dice)
        return f"{self.pos}:{high}{low}"

    def to_json(self) -> dict[str, Any]:
        return {
            "pos": self.pos,
            "dice": list(self.dice),
            "turn": self.turn,
            "source": self.source,
            "tier": self.tier,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        d1, d2 = data["dice"]
        return cls(data["pos"], (int(d1), int(d2)), int(data["turn"]), data["source"], data["tier"])


def tier_decisions(path: Path) -> Iterator[Decision]:
    """Every decision with a choice of the tiers' reviewed games (the PR's records)."""
    with path.open(encoding="utf-8") as lines:
        for n, line in enumerate(lines):
            record = json.loads(line)
            for side in record["sides"]:
                for d in side["decisions"]:
                    d1, d2 = d["dice"]
                    yield Decision(d["pos"], (d1, d2), int(d["turn"]), f"tiers:{n}", side["tier"])


def play_game(tiers: tuple[Tier, Tier], seed: int, game: int) -> list[Decision]:
    """One cubeless game, ``tiers[0]`` first, on the dice of ``seed``: every
    decision with more than one legal play, of both sides."""
    from ai_worker.policy import choose_play

    rng = random.Random(seed)
    position, seat = Position.start(), 0
    found: list[Decision] = []
    for number in range(1, 2001):
        dice = _roll(rng, first=number == 1)
        plays = legal_plays(position, dice)
        if len(plays) > 1:
            tier = tiers[seat].value
            found.append(
                Decision(position.position_id(), (dice.d1, dice.d2), number, f"played:{game}", tier)
            )
        if plays:
            play = choose_play(position, dice, tiers[seat], f"puzzles:{game}")
            assert play is not None
            after = play.result
            if outcome(after, Side.LIGHT) is not None:
                return found
            position = after
        position, seat = position.swapped(), 1 - seat
    raise RuntimeError("game did not finish")


def pairing(seed: int, game: int) -> tuple[Tier, Tier]:
    """The two tiers of game ``game``, drawn from ``seed``."""
    rng = random.Random(seed * 1_000_003 + game)
    tiers = list(TIERS)
    return rng.choice(tiers), rng.choice(tiers)


def play_games(seed: int, games: Iterable[int]) -> Iterator[tuple[int, list[Decision]]]:
    for game in games:
        yield game, play_game(pairing(seed, game), seed * 1_000_003 + game, game)


def _roll(rng: random.Random, first: bool) -> Dice:
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if not (first and d1 == d2):  # the opening roll is never a double
            return Dice(d1, d2)


def unique(decisions: Iterable[Decision]) -> list[Decision]:
    """One decision per position and roll, the first met."""
    seen: dict[str, Decision] = {}
    for d in decisions:
        seen.setdefault(d.key, d)
    return list(seen.values())
