"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) for one game
at a time, as lichess rates puzzles: each attempt is a game between the
person and the puzzle, both rated, one rating period each.

Training a named theme damps both changes (``weight``, after lichess's
``PuzzleFinisher.ponder``): a theme that hints at the answer moves the
ratings a fifth as much after a solve; a phase or a structure, which hints
less, 0.7; the mix, fully.

No Django here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.75  # lichess's system constant
EPSILON = 1e-6
MIN_DEVIATION = 45.0  # lichess keeps a rating's deviation at least this
MAX_DEVIATION = 500.0
MIN_RATING = 400.0
MAX_RATING = 4000.0


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    deviation: float
    volatility: float


def expected(a: Rating, b: Rating) -> float:
    """``a``'s expected score against ``b`` (the chance ``a`` solves ``b``).

    >>> round(expected(Rating(1500, 60, 0.06), Rating(1500, 60, 0.06)), 3)
    0.5
    >>> expected(Rating(1900, 60, 0.06), Rating(1500, 60, 0.06)) > 0.85
    True
    """
    mu, mu_j = (a.rating - 1500) / SCALE, (b.rating - 1500) / SCALE
    phi_j = b.deviation / SCALE
    return _e(mu, mu_j, _g(phi_j))


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _e(mu: float, mu_j: float, g: float) -> float:
    return 1 / (1 + math.exp(-g * (mu - mu_j)))


def update(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s rating after one game against ``opponent`` (``score`` 1
    a win, 0 a loss), Glickman's steps 2-8.

    >>> after = update(Rating(1500, 200, 0.06), Rating(1400, 30, 0.06), 1.0)
    >>> round(after.rating), round(after.deviation)
    (1564, 175)
    """
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.deviation / SCALE
    g = _g(phi_j)
    e = _e(mu, mu_j, g)
    v = 1 / (g * g * e * (1 - e))
    delta = v * g * (score - e)
    sigma = _volatility(phi, player.volatility, v, delta)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * g * (score - e)
    return _bounded(Rating(1500 + SCALE * mu_new, SCALE * phi_new, sigma))


def _volatility(phi: float, sigma: float, v: float, delta: float) -> float:
    """Glickman's step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(100):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def _bounded(r: Rating) -> Rating:
    return Rating(
        min(MAX_RATING, max(MIN_RATING, r.rating)),
        min(MAX_DEVIATION, max(MIN_DEVIATION, r.deviation)),
        r.volatility,
    )


def damped(before: Rating, after: Rating, weight: float) -> Rating:
    """``before`` moved ``weight`` of the way to ``after`` (lichess's ``average``)."""
    return Rating(
        before.rating + weight * (after.rating - before.rating),
        before.deviation + weight * (after.deviation - before.deviation),
        before.volatility + weight * (after.volatility - before.volatility),
    )


# What training a named theme tells the solver, and how much it damps.
MIX = "mix"
HINTING = "hinting"  # the answer's theme: "slot", "escape", ...
OBVIOUS = "obvious"  # a cube theme that names the answer: "double", "take", ...
SETTING = "setting"  # a phase or a structure: where, not what


def weight(angle: str, solved: bool) -> float:
    """How much of the change an attempt made while training ``angle`` keeps.

    >>> weight(MIX, True), weight(HINTING, True), weight(HINTING, False)
    (1.0, 0.2, 0.7)
    """
    if angle == MIX:
        return 1.0
    if angle == OBVIOUS:
        return 0.1 if solved else 0.4
    if angle == HINTING:
        return 0.2 if solved else 0.7
    return 0.7 if solved else 0.8


def play(person: Rating, puzzle: Rating, solved: bool, angle: str = MIX) -> tuple[Rating, Rating]:
    """Both ratings after ``person`` solved (or failed) ``puzzle`` while
    training ``angle``: one Glicko-2 game, each change damped alike."""
    score = 1.0 if solved else 0.0
    w = weight(angle, solved)
    new_person = damped(person, update(person, puzzle, score), w)
    new_puzzle = damped(puzzle, update(puzzle, person, 1.0 - score), w)
    return new_person, new_puzzle
