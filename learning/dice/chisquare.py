"""Pearson's chi-square goodness of fit, in pure Python.

The p-value is the upper regularised incomplete gamma function
Q(df/2, x/2), computed by its power series below a + 1 and by Lentz's
continued fraction above (Numerical Recipes §6.2), to about 1e-12.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

_ITERATIONS = 500
_EPS = 1e-15
_TINY = 1e-300


def regularised_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the upper regularised incomplete gamma.

    >>> round(regularised_gamma_q(1.0, 2.0), 6) == round(math.exp(-2.0), 6)
    True
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x < 0:
        raise ValueError("x must not be negative")
    if x == 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _gamma_p_series(a, x))
    return _gamma_q_fraction(a, x)


def _log_prefix(a: float, x: float) -> float:
    return -x + a * math.log(x) - math.lgamma(a)


def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(_ITERATIONS):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(_log_prefix(a, x))


def _gamma_q_fraction(a: float, x: float) -> float:
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(_log_prefix(a, x)) * h


@dataclass(frozen=True, slots=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float
    total: int


def chi_square(observed: Sequence[int], probabilities: Sequence[float]) -> ChiSquare | None:
    """Goodness of fit of ``observed`` counts to ``probabilities`` (summing to 1).

    ``None`` when there is nothing to test (no observations).

    >>> r = chi_square([10, 10, 10, 10, 10, 10], [1 / 6] * 6)
    >>> r.statistic, r.df, r.p_value
    (0.0, 5, 1.0)
    """
    if len(observed) != len(probabilities) or len(observed) < 2:
        raise ValueError("one probability per category, at least two categories")
    total = sum(observed)
    if total == 0:
        return None
    statistic = sum(
        (o - total * p) ** 2 / (total * p) for o, p in zip(observed, probabilities, strict=True)
    )
    df = len(observed) - 1
    return ChiSquare(statistic, df, regularised_gamma_q(df / 2, statistic / 2), total)
