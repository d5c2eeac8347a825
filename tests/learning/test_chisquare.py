"""learning.dice.chisquare and learning.dice.stats against published table values."""

from __future__ import annotations

import math

import pytest

from learning.dice.chisquare import chi_square, regularised_gamma_q
from learning.dice.stats import ROLL_KEYS, count


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        # Critical values from the standard chi-square table.
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (31.410, 20, 0.05),
        (37.566, 20, 0.01),
        (0.554, 5, 0.99),
    ],
)
def test_p_values_match_the_chi_square_table(statistic: float, df: int, p: float) -> None:
    assert regularised_gamma_q(df / 2, statistic / 2) == pytest.approx(p, abs=5e-4)


def test_both_branches_of_the_incomplete_gamma_agree_with_closed_forms() -> None:
    # For a = 1, Q(1, x) = exp(-x); for df = 2 the chi-square tail is exp(-x/2).
    for x in (0.1, 0.9, 1.5, 4.0, 30.0):
        assert regularised_gamma_q(1.0, x) == pytest.approx(math.exp(-x), rel=1e-10)
    # For a = 1/2, Q = erfc(sqrt(x)).
    for x in (0.2, 1.4, 9.0):
        assert regularised_gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-9)


def test_a_loaded_looking_die_from_the_textbook() -> None:
    # 60 throws: 5, 8, 9, 8, 10, 20 -> chi-square 13.4 with 5 df, p ~ 0.0199.
    result = chi_square([5, 8, 9, 8, 10, 20], [1 / 6] * 6)
    assert result is not None
    assert result.statistic == pytest.approx(13.4)
    assert result.df == 5
    assert result.p_value == pytest.approx(0.0199, abs=2e-4)


def test_no_observations_means_no_test() -> None:
    assert chi_square([0] * 6, [1 / 6] * 6) is None


def test_dice_counts_put_opening_dice_under_faces_only() -> None:
    counts = count([(6, 5), (5, 6), (3, 3)], opening_dice=[4, 4])
    assert counts.faces == (0, 0, 2, 2, 2, 2)
    assert counts.rolls[ROLL_KEYS.index((6, 5))] == 2
    assert counts.rolls[ROLL_KEYS.index((3, 3))] == 1
    assert counts.doubles == 1 and counts.doubles_rate == pytest.approx(1 / 3)
    assert counts.roll_test() is not None and counts.roll_test().df == 20
