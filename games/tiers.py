"""The strength tiers: the one table the site, the worker and the benches read.

A leaf importing nothing of the project nor Django (the bot runs without
it; docs/architecture.md §1): the labels are English, marked with
``gettext_noop``, and translated by ``tier_choices()``. The lower tiers add
Gaussian noise of ``sigma`` (cubeless money equity) to each play's 1-ply
equity before choosing, as GNU Backgammon's skill levels do; Expert adds
none and searches deeper.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks ``message`` for makemessages (the keyword it knows); translated later."""
    return message


class Tier(enum.StrEnum):
    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"


@dataclass(frozen=True, slots=True)
class TierSpec:
    key: Tier
    label: str  # English; shown through gettext (tier_choices)
    ply: int
    sigma: float  # standard deviation of the noise added to each play's equity
    cube_sigma: float = 0.0  # the same for each cube equity (ai_worker/cube.py)
    cube_ply: int = 0  # the depth of its cube decisions; 0: ``ply``

    @property
    def noise(self) -> str:
        """What its checker play's noise is, as measured figures are keyed
        (``tier_pr``, ``bench/_pr.py``): a figure measured at another says
        nothing of this one."""
        return f"ply {self.ply}, sigma {self.sigma:g}"

    @property
    def cube_depth(self) -> int:
        """The ply its cube decisions are searched at (``ai_worker.cube``)."""
        return self.cube_ply or self.ply


# Sigmas first calibrated against gnubg-nn 0-ply for -1.2 / -0.85 / -0.5 /
# -0.2 points per game (bench/README.md has the measured table); then, by PR
# (bench/strength.py --pr, issue 34), Beginner's 0.17 and Casual's 0.125
# measured PR 31.4 and 22.9 against the targets 25 and 17: they moved to
# 0.136 and 0.096 (interpolated between the measured tiers, PR rising about
# 200 per unit of sigma there); Intermediate's 0.08 measured in its band.
# A smaller sigma only plays better: the ppg order stays. Expert searches
# at 2-ply: 3-ply measured no stronger here (+0.015 +- 0.090 ppg against
# +0.056 +- 0.092) at ten times the decision time (p95 154 ms idle, 939 ms
# on the loaded machine, against 15 ms and 57 ms). Its cube decisions are
# searched at 3-ply (GNU Backgammon's 2-ply): bgsage's 2-ply ends on the
# opponent's roll and overstates the doubler's chances before it (the
# odd-even effect), so at 2-ply it doubled where GNU Backgammon 2-ply and a
# cubeful rollout do not (issue 31; bench/cube_rollout.py measures it).
TIERS: dict[Tier, TierSpec] = {
    spec.key: spec
    for spec in (
        TierSpec(Tier.BEGINNER, gettext_noop("Beginner"), ply=1, sigma=0.136, cube_sigma=0.136),
        TierSpec(Tier.CASUAL, gettext_noop("Casual"), ply=1, sigma=0.096, cube_sigma=0.096),
        TierSpec(
            Tier.INTERMEDIATE, gettext_noop("Intermediate"), ply=1, sigma=0.08, cube_sigma=0.08
        ),
        TierSpec(Tier.ADVANCED, gettext_noop("Advanced"), ply=1, sigma=0.045, cube_sigma=0.045),
        TierSpec(Tier.EXPERT, gettext_noop("Expert"), ply=2, sigma=0.0, cube_ply=3),
    )
}

DEFAULT_TIER = Tier.CASUAL


def tier_choices() -> list[tuple[str, Any]]:
    """(value, lazily translated label) pairs for a field's or a form's ``choices``."""
    from django.utils.translation import gettext_lazy  # the site's side only

    return [(spec.key.value, gettext_lazy(spec.label)) for spec in TIERS.values()]


def tier_spec(tier: Tier | str) -> TierSpec:
    """The spec for a tier given as a ``Tier`` or its key; ValueError if unknown."""
    return TIERS[Tier(tier)]


# Each tier's PR as ``bench/strength.py --pr --write`` measured it (bench/_pr.py):
# the lobby shows it beside the tier, the progress page names the closest tier.
TIER_PR_FILE = Path(__file__).resolve().parent / "tier_pr.json"


@cache
def tier_pr() -> dict[str, dict[str, Any]]:
    """{tier key: {"pr", "low", "high", "games", ...}} from the last measured run,
    the tiers measured at today's noise (``TierSpec.noise``); empty when no run
    was written (the lobby shows no PR then)."""
    try:
        body = json.loads(TIER_PR_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    tiers = body.get("tiers", {})
    # A figure measured at another noise than the tier's today says nothing of it.
    return {
        key: tiers[key]
        for key, spec in TIERS.items()
        if tiers.get(key, {}).get("pr") is not None and tiers[key].get("noise") == spec.noise
    }


def closest_tier(pr: float) -> Tier | None:
    """The tier whose measured PR is closest to ``pr`` (None before any measurement)."""
    measured = tier_pr()
    if not measured:
        return None
    return Tier(min(measured, key=lambda key: abs(float(measured[key]["pr"]) - pr)))
