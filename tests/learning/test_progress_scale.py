"""The progress graph's scale and band names (issue 32, item 5): one very bad
game does not stretch the scale (it is marked on the top edge instead), and
the band names never sit on each other, whatever the scale."""

from __future__ import annotations

import pytest

from ai_worker.grading import PR_BANDS
from learning.study import progress


def test_one_bad_game_is_an_outlier_and_leaves_the_scale_to_the_others() -> None:
    rates = [3.0, 6.5, 4.2, 250.0]
    top = progress.scale_top(rates)
    assert top == progress.BAND_TOP  # the others and every band fit under 35
    assert [r > top for r in rates] == [False, False, False, True]
    assert progress._y(250.0, top) == progress.TOP  # drawn on the top edge


def test_a_player_who_errs_often_keeps_a_scale_that_holds_their_games() -> None:
    rates = [30.0, 40.0, 47.5, 55.0]
    top = progress.scale_top(rates)
    assert top == pytest.approx(55.0 * 1.1)
    assert not [r for r in rates if r > top]
    assert progress.scale_top([250.0]) == pytest.approx(275.0)  # one game is no outlier


@pytest.mark.parametrize("top", [35.0, 38.0, 44.0, 66.0, 121.0, 550.0, 2500.0])
def test_the_band_names_are_apart_and_inside_the_graph(top: float) -> None:
    bands = progress._bands(top)
    assert [b["rate"] for b in bands] == [t for t, _ in PR_BANDS if t < top]
    ys = [b["label_y"] for b in bands]  # bottom up: each name above the one before
    gaps = [low - high for low, high in zip(ys, ys[1:], strict=False)]
    assert all(gap >= progress.LABEL_GAP - 0.1 for gap in gaps)
    assert all(progress.TOP <= y <= progress.HEIGHT for y in ys)
    for band in bands:
        assert band["moved"] == (band["label_y"] != band["y"])
    assert bands[0]["label_y"] == bands[0]["y"]  # the lowest name stays at its line
