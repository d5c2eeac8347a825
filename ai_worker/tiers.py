"""The strength tiers: the one table the site, the worker and the benches read.

Each of the four lower tiers evaluates every legal play with bgsage's network
at 1-ply and adds Gaussian noise of ``sigma`` (in cubeless money equity) to
each candidate before choosing, as GNU Backgammon's skill levels do. Expert
adds no noise and searches deeper ("anticipates your roll"). The sigmas are
calibrated against gnubg-nn 0-ply in bench/strength.py; the measured figures
live in bench/README.md. No Django import here: the bot runs without Django.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Tier(enum.StrEnum):
    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"


@dataclass(frozen=True, slots=True)
class TierSpec:
    key: Tier
    label_zh: str
    label_en: str
    ply: int
    sigma: float  # standard deviation of the noise added to each play's equity


# Sigmas calibrated against gnubg-nn 0-ply for -1.2 / -0.85 / -0.5 / -0.2
# points per game (bench/README.md has the measured table). Expert searches
# at 2-ply: 3-ply measured no stronger here (+0.015 +- 0.090 ppg against
# +0.056 +- 0.092) at ten times the decision time (p95 154 ms idle, 939 ms
# on the loaded machine, against 15 ms and 57 ms).
TIERS: dict[Tier, TierSpec] = {
    spec.key: spec
    for spec in (
        TierSpec(Tier.BEGINNER, "入门", "Beginner", ply=1, sigma=0.17),
        TierSpec(Tier.CASUAL, "休闲", "Casual", ply=1, sigma=0.125),
        TierSpec(Tier.INTERMEDIATE, "进阶", "Intermediate", ply=1, sigma=0.08),
        TierSpec(Tier.ADVANCED, "老手", "Advanced", ply=1, sigma=0.045),
        TierSpec(Tier.EXPERT, "高手", "Expert", ply=2, sigma=0.0),
    )
}

DEFAULT_TIER = Tier.CASUAL


def tier_spec(tier: Tier | str) -> TierSpec:
    """The spec for a tier given as a ``Tier`` or its key; ValueError if unknown."""
    return TIERS[Tier(tier)]
