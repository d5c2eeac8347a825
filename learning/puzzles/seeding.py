"""A new puzzle's starting rating, from how the five tiers solve it.

Each tier of known PR answers the puzzle as it would play: a checker
puzzle by ``ai_worker.policy.pick`` on its own ranking (its depth, its
noise), a cube puzzle by ``ai_worker.cube.with_noise`` on its own cube
equities; a tier with noise answers ``DRAWS`` times under as many seeds,
the Expert (no noise) once. Its share of accepted answers is its solve
rate. The tiers' ratings and the puzzles' are then fitted together
(``fit``): each rate is a score against the puzzle, on Glicko-2's scale,
with the puzzles' mean held at 1500; the Expert's single answer counts as
one game, a noisy tier's as ``DRAWS_WEIGHT``. So a new bank is rated
before anyone plays it.

No Django here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from games.engine import Dice, Position
from games.tiers import TIERS, Tier, tier_spec

DRAWS = 48
DRAWS_WEIGHT = 4.0  # a noisy tier's rate counts as this many games
PRIOR_DEVIATION = 350.0  # the fit's prior on a puzzle: 1500 ± this
# and on a tier: wide, but the Expert, which may solve every puzzle of a
# small bank, then stays finite.
TIER_PRIOR_DEVIATION = 700.0
START_DEVIATION = 150.0  # a fitted puzzle's deviation when the bank is loaded
SCALE = 400 / math.log(10)


def checker_rates(pos: str, dice: tuple[int, int], answers: set[str]) -> dict[str, float]:
    """Each tier's share of accepted answers (result Position IDs) here."""
    from ai_worker.evaluator import rank_plays
    from ai_worker.policy import pick

    position, roll = Position.from_position_id(pos), Dice(*dice)
    rates: dict[str, float] = {}
    rankings: dict[int, Any] = {}
    for tier in TIERS:
        spec = tier_spec(tier)
        if spec.ply not in rankings:
            rankings[spec.ply] = rank_plays(position, roll, spec.ply)
        ranked = rankings[spec.ply]
        draws = DRAWS if spec.sigma > 0 else 1
        solved = sum(
            pick(ranked, spec, f"seed:{n}", pos, roll).play.result.position_id() in answers
            for n in range(draws)
        )
        rates[tier.value] = solved / draws
    return rates


def cube_rates(pos: str, context: Any, question: str, answers: set[str]) -> dict[str, float]:
    """Each tier's share of accepted answers to a cube question."""
    from ai_worker.cube import evaluate_cube, with_noise

    position = Position.from_position_id(pos)
    rates: dict[str, float] = {}
    cache: dict[int, Any] = {}
    for tier in TIERS:
        spec = tier_spec(tier)
        depth = spec.cube_depth
        if depth not in cache:
            cache[depth] = evaluate_cube(position, context, depth)
        draws = DRAWS if spec.cube_sigma > 0 else 1
        solved = 0
        for n in range(draws):
            noisy = with_noise(cache[depth], spec, f"seed:{n}|{pos}|{question}")
            action = noisy.best_double_action() if question == "double" else noisy.best_answer()
            # Too good keeps the cube: the accepted answer "no_double" covers it.
            solved += ("no_double" if str(action) == "too_good" else str(action)) in answers
        rates[tier.value] = solved / draws
    return rates


def weights() -> dict[str, float]:
    return {t.value: (DRAWS_WEIGHT if tier_spec(t).sigma > 0 else 1.0) for t in Tier}


def _p(diff: float) -> float:
    return 1 / (1 + math.exp(-diff / SCALE))


def fit(
    rates: Sequence[dict[str, float]], rounds: int = 30
) -> tuple[dict[str, float], list[float]]:
    """Tier ratings and puzzle ratings that best explain ``rates`` (each
    puzzle's solve rate by tier): a tier of rating R solves a puzzle of
    rating r with chance 1 / (1 + 10^((r - R) / 400)). Puzzles carry a
    prior of 1500 ± ``PRIOR_DEVIATION``; their mean is held at 1500."""
    w = weights()
    tiers = {t: 1500.0 for t in w}
    puzzles = [1500.0 for _ in rates]
    for _ in range(rounds):
        puzzles = [_fit_puzzle(r, tiers, w, start) for r, start in zip(rates, puzzles, strict=True)]
        mean = sum(puzzles) / len(puzzles) if puzzles else 1500.0
        puzzles = [p - mean + 1500.0 for p in puzzles]
        tiers = {t: _fit_tier(t, rates, puzzles, w[t], tiers[t]) for t in tiers}
    return tiers, puzzles


def _fit_puzzle(
    rate: dict[str, float], tiers: dict[str, float], w: dict[str, float], r: float
) -> float:
    """Newton steps on the puzzle's log posterior (the solver's score is 1 - its)."""
    prior = (PRIOR_DEVIATION / SCALE) ** 2
    for _ in range(20):
        grad, hess = -(r - 1500) / SCALE**2 / prior * SCALE, -1 / prior
        for t, solved in rate.items():
            p = _p(tiers[t] - r)
            grad += w[t] * (p - solved)  # d/dx of the log-likelihood, x = r / SCALE
            hess -= w[t] * p * (1 - p)
        step = -grad / hess
        r += SCALE * max(-1.0, min(1.0, step))
        if abs(step) < 1e-6:
            break
    return r


def _fit_tier(
    tier: str, rates: Sequence[dict[str, float]], puzzles: list[float], w: float, r: float
) -> float:
    prior = (TIER_PRIOR_DEVIATION / SCALE) ** 2
    for _ in range(20):
        grad, hess = -(r - 1500) / SCALE / prior, -1 / prior
        for rate, p_rating in zip(rates, puzzles, strict=True):
            if tier not in rate:
                continue
            p = _p(r - p_rating)
            grad += w * (rate[tier] - p)
            hess -= w * p * (1 - p)
        step = -grad / hess
        r += SCALE * max(-1.0, min(1.0, step))
        if abs(step) < 1e-6:
            break
    return r


def rate_one(rate: dict[str, float], tiers: dict[str, float]) -> float:
    """One new puzzle's rating from its solve rates, the tiers' ratings fixed
    (a person's own puzzle, rated against the bank's tiers)."""
    known = {t: r for t, r in tiers.items() if t in rate}
    return _fit_puzzle(rate, known, weights(), 1500.0)
