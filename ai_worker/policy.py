"""Choose the computer's play for a tier.

The lower tiers add Gaussian noise to each candidate's equity and take the
best noisy value, as GNU Backgammon's skill levels do. The noise is a pure
function of (seed_key, position, dice, candidate): a hash, not a random
generator, so a replayed position in the same game gets the same choice, a
retried task plays the same move, and no process state is involved.
"""

from __future__ import annotations

import hashlib
from statistics import NormalDist

from ai_worker.evaluator import RankedPlay, rank_plays
from games.engine import Dice, Play, Position
from games.tiers import Tier, TierSpec, tier_spec

_NORMAL = NormalDist()


def choose_play(position: Position, dice: Dice, tier: Tier | str, seed_key: str) -> Play | None:
    """The play ``tier`` makes on ``dice`` here, or None when nothing can move.

    ``position`` is from the side on roll; the play comes from
    ``games.engine.legal_plays`` so it goes through the same engine as a
    person's.
    """
    chosen = choose_ranked(position, dice, tier, seed_key)
    return chosen[0].play if chosen else None


def choose_ranked(
    position: Position, dice: Dice, tier: Tier | str, seed_key: str
) -> tuple[RankedPlay, list[RankedPlay]] | None:
    """The chosen candidate with the whole ranking (benches measure the loss)."""
    spec = tier_spec(tier)
    ranked = rank_plays(position, dice, spec.ply)
    if not ranked:
        return None
    return pick(ranked, spec, seed_key, position.position_id(), dice), ranked


def pick(
    ranked: list[RankedPlay], spec: TierSpec, seed_key: str, position_id: str, dice: Dice
) -> RankedPlay:
    """The candidate with the best equity after this tier's noise."""
    if spec.sigma <= 0 or len(ranked) == 1:
        return ranked[0]
    prefix = f"{seed_key}|{position_id}|{_roll_key(dice)}|".encode()

    def noisy(candidate: RankedPlay) -> float:
        result = candidate.play.result
        return candidate.equity + spec.sigma * gaussian(prefix + bytes(result.me + result.opp))

    return max(ranked, key=noisy)


def noise(seed_key: str, position_id: str, dice: Dice, candidate: Position, sigma: float) -> float:
    """The noise ``pick`` adds to ``candidate`` (the position a play leads to).

    A pure function of its inputs, stable across processes and runs:

    >>> from games.engine import Position
    >>> start = Position.start()
    >>> noise("game:1", start.position_id(), Dice(3, 1), start, 0.1) == noise(
    ...     "game:1", start.position_id(), Dice(1, 3), start, 0.1)
    True
    """
    prefix = f"{seed_key}|{position_id}|{_roll_key(dice)}|".encode()
    return sigma * gaussian(prefix + bytes(candidate.me + candidate.opp))


def gaussian(key: bytes) -> float:
    """A standard normal draw fixed by ``key`` (a hash through the inverse CDF)."""
    digest = hashlib.blake2b(key, digest_size=8).digest()
    uniform = (int.from_bytes(digest, "big") + 0.5) / 2.0**64
    return _NORMAL.inv_cdf(uniform)


def _roll_key(dice: Dice) -> str:
    # 6-5 and 5-6 are the same roll: the choice must not depend on the order.
    high, low = max(dice.d1, dice.d2), min(dice.d1, dice.d2)
    return f"{high}{low}"
