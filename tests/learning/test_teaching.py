"""The reasons a teacher gives: 53 textbook positions checked by code and parameters.

Each case is a position (a Position ID, LIGHT on roll), a roll, and a play a
learner might make; the analysis (the real evaluator at the Expert's 2-ply)
must say what the best play does that this one does not, with the reason
codes and parameters listed (never by matching sentences). Themes: the
standard opening plays (making the 5-, 4-, 3- and bar points, slotting,
running, splitting against stacking), replies that hit the opponent's
opening blots (hitting, double hits, blitzing), bear-offs (wastage: fewer
rolls to finish), races outside the database (the chance to win after the
roll) and timing in holding games (pips left before the back checkers move).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from ai_worker import analysis
from ai_worker.attribution import TIE, leading_order
from ai_worker.explain import explain_play
from ai_worker.versus import CHANCES
from games.engine import Dice, Position, parse_play
from learning.words.versus import RENDERERS, render_versus
from tests.learning.conftest import position

START = Position.start().position_id()

# The costliest first, as ``ai_worker.versus`` orders them (one rank a line):
# the order of reasons whose shares of the gap tie.
PRIORITY = [
    {"wins_backgammon", "saves_backgammon", "wins_gammon", "saves_gammon"},
    {"blitz", "hits_more"},
    {"prime"},
    {"escapes"},
    {"makes_point", "keeps_point", "anchor"},
    {"builders", "slots"},
    {"safer"},
    {"breaks_contact", "fewer_rolls", "bears_off_more", "better_race"},
    {"timing"},
    {"only_equity", "chances"},
]


def rank(code: str) -> int:
    return next(i for i, codes in enumerate(PRIORITY) if code in codes)


BEAR_OFF_1 = position(
    light={6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 1}, dark={24: 2, 23: 2, 22: 3, 21: 3, 20: 2, 19: 3}
).position_id()
BEAR_OFF_2 = position(
    light={6: 3, 5: 2, 4: 2}, dark={24: 3, 23: 3, 22: 3, 21: 3, 20: 3}
).position_id()
BEAR_OFF_3 = position(
    light={6: 1, 5: 1, 4: 1, 1: 1}, dark={24: 2, 23: 3, 22: 3, 14: 2}
).position_id()
RACE = position(light={10: 2, 8: 3, 6: 5, 5: 5}, dark={13: 5, 14: 5, 15: 5}).position_id()

Expected = list[tuple[str, dict[str, Any]]]
CASES: list[tuple[str, str, tuple[int, int], str, Expected]] = [
    # Opening plays: the points to make.
    ("3-1 makes the 5-point", START, (3, 1), "24/23 13/10", [("makes_point", {"point": 5})]),
    ("4-2 makes the 4-point", START, (4, 2), "13/9 13/11", [("makes_point", {"point": 4})]),
    ("6-1 makes the bar point", START, (6, 1), "24/18 6/5", [("makes_point", {"point": 7})]),
    ("5-3 makes the 3-point", START, (5, 3), "13/8 13/10", [("makes_point", {"point": 3})]),
    ("1-1 makes the bar point", START, (1, 1), "24/22 6/5(2)", [("makes_point", {"point": 7})]),
    (
        "3-3 makes 5 and 3",
        START,
        (3, 3),
        "24/21(2) 13/10(2)",
        [("makes_point", {"point": 5}), ("makes_point", {"point": 3})],
    ),
    ("5-5 makes the 3-point", START, (5, 5), "13/8(4)", [("makes_point", {"point": 3})]),
    ("2-2 makes the 11-point", START, (2, 2), "24/22(2) 6/4(2)", [("makes_point", {"point": 11})]),
    # Opening plays: anchors and running.
    (
        "4-4 takes the golden anchor",
        START,
        (4, 4),
        "13/5(2)",
        [("saves_gammon", {}), ("anchor", {"point": 20})],
    ),
    (
        "6-6 runs both back checkers",
        START,
        (6, 6),
        "13/7(2) 8/2(2)",
        [("escapes", {"best": 0, "other": 2}), ("anchor", {"point": 18})],
    ),
    ("6-5 is lover's leap", START, (6, 5), "13/7 13/8", [("escapes", {"best": 1, "other": 2})]),
    ("6-4 runs a back checker", START, (6, 4), "13/7 13/9", [("escapes", {"best": 1, "other": 2})]),
    ("6-2 runs a back checker", START, (6, 2), "13/5", [("escapes", {"best": 1, "other": 2})]),
    ("6-3 runs a back checker", START, (6, 3), "13/4", [("escapes", {"best": 1, "other": 2})]),
    # Opening plays: slotting and safety.
    ("2-1 slots the 5-point", START, (2, 1), "13/10", [("slots", {"point": 5})]),
    (
        "5-4 does not leave a blot deep",
        START,
        (5, 4),
        "13/4",
        [("safer", {"best": 0, "other": 14})],
    ),
    (
        "5-1 does not leave a blot on the bar point",
        START,
        (5, 1),
        "13/7",
        [("safer", {"best": 0, "other": 17})],
    ),
    (
        "5-2 does not break the 6-point for a blot",
        START,
        (5, 2),
        "13/8 6/4",
        [("safer", {"best": 0, "other": 14})],
    ),
    (
        "4-3 splits rather than two outfield blots",
        START,
        (4, 3),
        "13/10 13/9",
        [("safer", {"best": 6, "other": 11})],
    ),
    ("4-1 is not the slot", START, (4, 1), "13/9 6/5", [("safer", {"best": 6, "other": 19})]),
    (
        "3-2 splits rather than two builders",
        START,
        (3, 2),
        "13/11 13/10",
        [("safer", {"best": 2, "other": 7})],
    ),
    (
        "6-4 running all the way: no single feature, the chances side by side",
        START,
        (6, 4),
        "24/14",
        [("chances", {"best_play": "24/18 13/9", "other_play": "24/14"})],
    ),
    # Replies: hitting the opponent's opening blots.
    (
        "2-1 hits on the bar point",
        "4HPkQSDgc/ABMA",
        (2, 1),
        "24/21",
        [("hits_more", {"best": 1, "other": 0}), ("slots", {"point": 7})],
    ),
    (
        "6-1 points on the blot",
        "4HPkQSDgc/ABMA",
        (6, 1),
        "24/23 24/18",
        [("hits_more", {"best": 1, "other": 0}), ("makes_point", {"point": 7})],
    ),
    (
        "1-1 points on the bar-point blot",
        "4HPiQSDgc/ABMA",
        (1, 1),
        "24/22 6/5(2)",
        [("hits_more", {"best": 1, "other": 0}), ("makes_point", {"point": 7})],
    ),
    (
        "5-1 hits rather than splits",
        "4HPiQSDgc/ABMA",
        (5, 1),
        "24/23 13/8",
        [("hits_more", {"best": 1, "other": 0}), ("slots", {"point": 7})],
    ),
    (
        "3-3 points on the blot and builds",
        "4HPhQSDgc/ABMA",
        (3, 3),
        "24/21(2) 6/3(2)",
        [
            ("hits_more", {"best": 1, "other": 0}),
            ("makes_point", {"point": 7}),
            ("builders", {"best": 4, "other": 2}),
        ],
    ),
    (
        "3-1 hits the slot instead of making the 5-point",
        "0HPkATDgc/ABMA",
        (3, 1),
        "8/5 6/5",
        [("hits_more", {"best": 1, "other": 0})],
    ),
    (
        "6-4 hits twice",
        "0HPkATDgc/ABMA",
        (6, 4),
        "24/18 13/9",
        [("saves_gammon", {}), ("hits_more", {"best": 2, "other": 0})],
    ),
    (
        "5-3 hits and escapes",
        "4HPhASjgc/ABMA",
        (5, 3),
        "8/3 6/3",
        [("hits_more", {"best": 1, "other": 0}), ("escapes", {"best": 1, "other": 2})],
    ),
    (
        "4-4 hits twice",
        "4HPhASjgc/ABMA",
        (4, 4),
        "24/20(2) 13/9(2)",
        [("hits_more", {"best": 2, "other": 0})],
    ),
    (
        "6-4 points on the blot in the home board",
        "4PPgASjgc/ABMA",
        (6, 4),
        "24/14",
        [("hits_more", {"best": 1, "other": 0}), ("safer", {"best": 0, "other": 11})],
    ),
    (
        "1-1 points on the 4-point blot",
        "4HPhASLgc/ABMA",
        (1, 1),
        "24/22 6/5(2)",
        [("hits_more", {"best": 1, "other": 0}), ("makes_point", {"point": 4})],
    ),
    (
        "4-2 points on the 4-point blot",
        "4HPhASLgc/ABMA",
        (4, 2),
        "24/20 13/11",
        [("hits_more", {"best": 1, "other": 0}), ("makes_point", {"point": 4})],
    ),
    (
        "2-1 hits loose on the 4-point",
        "4HPhASLgc/ABMA",
        (2, 1),
        "24/23 13/11",
        [("hits_more", {"best": 1, "other": 0}), ("slots", {"point": 4})],
    ),
    (
        "6-4 hits and escapes",
        "4HPkASLgc/ABMA",
        (6, 4),
        "8/2 6/2",
        [("hits_more", {"best": 1, "other": 0}), ("escapes", {"best": 1, "other": 2})],
    ),
    (
        "5-3 points on the 3-point blot",
        "4PPgASTgc/ABMA",
        (5, 3),
        "24/21 13/8",
        [("hits_more", {"best": 1, "other": 0}), ("makes_point", {"point": 3})],
    ),
    (
        "4-1 hits on the bar point",
        "4HPkQSDgc/ABMA",
        (4, 1),
        "24/23 24/20",
        [("hits_more", {"best": 1, "other": 0}), ("slots", {"point": 7})],
    ),
    (
        "2-1 hits rather than splits",
        "4HPiQSDgc/ABMA",
        (2, 1),
        "24/22 6/5",
        [("hits_more", {"best": 1, "other": 0}), ("slots", {"point": 7})],
    ),
    (
        "2-1 hits from the midpoint",
        "4HPhQSDgc/ABMA",
        (2, 1),
        "24/21",
        [("hits_more", {"best": 1, "other": 0}), ("slots", {"point": 7})],
    ),
    (
        "4-1 hits the slot",
        "0HPkATDgc/ABMA",
        (4, 1),
        "24/23 13/9",
        [("saves_gammon", {}), ("hits_more", {"best": 1, "other": 0})],
    ),
    (
        "6-2 hits in the outfield",
        "4HPhASjgc/ABMA",
        (6, 2),
        "24/18 13/11",
        [("saves_gammon", {}), ("hits_more", {"best": 1, "other": 0})],
    ),
    # Replies: the blitz.
    (
        "5-5 blitzes",
        "4HPkASLgc/ABMA",
        (5, 5),
        "13/3(2)",
        [("blitz", {"hits": 1, "home_points": 3})],
    ),
    (
        "3-3 blitzes",
        "4PPgASTgc/ABMA",
        (3, 3),
        "24/21(2) 13/10(2)",
        [("wins_gammon", {}), ("blitz", {"hits": 1, "home_points": 3})],
    ),
    # Bear-offs and races: wastage, not points.
    (
        "6-5 bears off two, not one",
        BEAR_OFF_1,
        (6, 5),
        "6/off 6/1",
        [("fewer_rolls", {"best": 4.83, "other": 5.01})],
    ),
    (
        "4-1 bears off rather than stacks",
        BEAR_OFF_2,
        (4, 1),
        "6/2 6/5",
        [("fewer_rolls", {"best": 4.57, "other": 4.67})],
    ),
    (
        "2-1 takes a checker off",
        BEAR_OFF_3,
        (2, 1),
        "6/4 5/4",
        [("fewer_rolls", {"best": 2.33, "other": 2.58})],
    ),
    (
        "a race: the same pips, the chances side by side",
        RACE,
        (6, 1),
        "8/2 6/5",
        [("chances", {"best_play": "8/2 5/4", "other_play": "8/2 6/5"})],
    ),
    # Races outside the bear-off database: the race after the roll, measured
    # as the chance to win (no crossover wasted inside the home board).
    (
        "1-1 in a race brings the last checker home, no pips wasted inside",
        "7z8QCADfd0AAAA",
        (1, 1),
        "10/7 3/2",
        [("better_race", {"best": 0.874, "other": 0.847})],
    ),
    (
        "4-3 in a race moves both outside checkers closer, no stacking",
        "320DAIB3XwgEAA",
        (4, 3),
        "14/7",
        [("better_race", {"best": 0.095, "other": 0.073})],
    ),
    # Timing in a holding game: play the back checkers, keep the pips.
    (
        "4-2 makes the golden anchor and keeps the timing",
        "wmfwAQbgZ/ABJA",
        (4, 2),
        "13/11 6/2",
        [("anchor", {"point": 20}), ("timing", {"best": 104, "other": 98})],
    ),
    (
        "5-1 hits rather than crunching the board further: it keeps the timing",
        "/m0ABMDvBQgADg",
        (5, 1),
        "11/5",
        [("hits_more", {"best": 1, "other": 0}), ("timing", {"best": 15, "other": 10})],
    ),
    (
        "6-1 hits and makes the bar point",
        "4HPhQSDgc/ABMA",
        (6, 1),
        "24/23 24/18",
        [("hits_more", {"best": 1, "other": 0}), ("makes_point", {"point": 7})],
    ),
]


def _versus(position_id: str, dice: tuple[int, int], played: str) -> list[dict[str, Any]]:
    pos = Position.from_position_id(position_id)
    roll = Dice(*dice)
    report = analysis.analyse_turn(pos, roll, parse_play(pos, roll, played), ply=2)
    assert report.played_candidate is not None and report.played_rank != 0
    return [r.to_json() for r in report.played_candidate.versus]


def test_the_set_has_at_least_40_positions() -> None:
    assert len(CASES) >= 40
    assert len({(c[1], c[2], c[3]) for c in CASES}) == len(CASES)


@pytest.mark.parametrize(
    ("position_id", "dice", "played", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_the_reason_a_teacher_gives(
    position_id: str, dice: tuple[int, int], played: str, expected: Expected
) -> None:
    found = _versus(position_id, dice, played)
    for code, params in expected:
        matching = [r for r in found if r["code"] == code]
        assert matching, f"{code} not in {found}"
        assert any(params.items() <= r["params"].items() for r in matching), found
    # Led by the difference that carries most of the gap (issue 31, item 4):
    # the order ``leading_order`` gives the stored shares, and within a tie
    # (shares within ``TIE``) the teacher's order.
    shares = [r["params"].get("share") for r in found]
    assert leading_order(shares) == list(range(len(found))), found
    known = [s for s in shares if s is not None]
    # Without a share (the network alone ranks the two plays the other way)
    # the teacher's order stands.
    assert not known or (shares[0] or 0.0) >= max(known) - TIE, found
    order = [rank(r["code"]) for r in found]
    assert known or order == sorted(order), f"not ordered by cost: {found}"


def test_a_bear_off_never_gives_up_a_point_or_counts_blots() -> None:
    pos = Position.from_position_id(BEAR_OFF_1)
    play = parse_play(pos, Dice(6, 5), "6/off 6/1")
    codes = {r.code for r in explain_play(pos, play)}
    assert "breaks_points" not in codes and "blots" not in codes and "no_blots" not in codes
    assert "bears_off" in codes


SAMPLE = {
    "best": 0.2,
    "other": 0.1,
    "point": 5,
    "hits": 2,
    "home_points": 4,
    "length": 5,
    "top": 8,
    "bottom": 4,
    "behind": 2,
    "lead": 12,
    "loss": 0.031,
    "best_play": "8/5 6/5",
    "other_play": "13/10 13/9",
    **{f"{side}_{key}": 0.1 for side in ("best", "other") for key in CHANCES},
}


@pytest.mark.parametrize("code", sorted(RENDERERS))
def test_every_comparison_is_worded_natively_in_chinese(code: str) -> None:
    from django.utils import translation

    with translation.override("zh-hans"):
        (text,) = render_versus([{"code": code, "params": SAMPLE}])
    with translation.override("en"):
        (english,) = render_versus([{"code": code, "params": SAMPLE}])
    assert text != english and english.startswith("The ")
    assert text.endswith("。") and "." not in text.replace("0.", "").replace("1.", "")
    assert re.fullmatch(r"[^A-Za-z]*(pip[^A-Za-z]*)?", text), text
