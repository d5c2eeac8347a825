"""ai_worker.analysis: error classes, rating bands, luck, reasons, one turn."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ai_worker import analysis, candidates, explain, grading, luck
from ai_worker.features import ROLLS, count_shots
from ai_worker.grading import ErrorClass, classify, rating_band
from games.engine import Dice, Position, legal_plays, parse_play
from tests.learning.conftest import position


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        (0.0, ErrorClass.NONE),
        (0.0299, ErrorClass.NONE),
        (0.03, ErrorClass.DOUBTFUL),
        (0.0599, ErrorClass.DOUBTFUL),
        (0.06, ErrorClass.BAD),
        (0.1199, ErrorClass.BAD),
        (0.12, ErrorClass.VERY_BAD),
        (0.9, ErrorClass.VERY_BAD),
    ],
)
def test_error_classes_start_exactly_at_their_thresholds(loss: float, expected: ErrorClass) -> None:
    assert classify(loss) is expected


def test_error_marks_are_gnubgs() -> None:
    assert [c.mark for c in ErrorClass] == ["", "?!", "?", "??"]


def test_rating_bands_follow_the_error_rate() -> None:
    assert rating_band(0.0) == "supernatural"
    assert rating_band(0.0049) == "world_class"
    assert rating_band(0.005) == "expert"
    assert rating_band(0.02) == "casual"
    assert rating_band(0.035) == "awful"


def test_error_rate_leaves_out_forced_moves() -> None:
    assert grading.error_rate([(0.1, False), (0.5, True), (0.0, False)]) == pytest.approx(0.05)
    assert grading.error_rate([(0.2, True)]) is None


def test_luck_is_the_rolls_value_against_the_weighted_average() -> None:
    # Every roll worth 0 except 6-6 worth 0.36: the average is 0.01.
    table = {(d1, d2): 0.0 for d1, d2, _w in ROLLS}
    table[(6, 6)] = 0.36
    assert luck.roll_luck(table, Dice(6, 6)) == pytest.approx(0.35)
    assert luck.roll_luck(table, Dice(2, 1)) == pytest.approx(-0.01)
    # The opening roll cannot be a double: its average leaves doubles out.
    assert luck.roll_luck(table, Dice(2, 1), opening=True) == pytest.approx(0.0)


def codes(reasons: list[explain.Reason]) -> dict[str, dict]:
    return {r.code: r.params for r in reasons}


def test_a_play_that_leaves_a_blot_one_pip_in_front_of_an_enemy_checker_says_11_of_36() -> None:
    # LIGHT (on roll) moves 13/11 alone: the checker left on 11 sits one pip
    # in front of DARK's blot on 10; nothing else can reach it.
    before = position(light={13: 1, 6: 14}, dark={10: 1, 24: 14})
    play = parse_play(before, Dice(2, 1), "13/11 6/5")
    found = codes(explain.explain_play(before, play))
    assert found["blots"]["shots"] == 11
    assert found["blots"]["points"] == [11, 5]


def test_making_a_five_point_prime_is_explained() -> None:
    before = position(light={8: 3, 7: 2, 6: 3, 5: 2, 4: 1, 10: 1, 13: 3}, dark={2: 2, 19: 13})
    play = parse_play(before, Dice(6, 3), "10/4 13/10")
    found = codes(explain.explain_play(before, play))
    assert found["makes_points"]["points"] == [4]
    assert found["prime"] == {"length": 5, "top": 8, "bottom": 4, "behind": 2}
    assert found["home_points"] == {"count": 3, "change": 1}


def test_a_hit_and_breaking_contact_are_explained() -> None:
    before = position(light={6: 14, 9: 1}, dark={5: 1, 24: 14})
    hit = parse_play(before, Dice(4, 1), "9/5* 6/5")
    assert codes(explain.explain_play(before, hit))["hits"] == {"count": 1}
    race = position(light={6: 14, 20: 1}, dark={18: 1, 24: 14})
    run = parse_play(race, Dice(6, 5), "20/9")
    assert "breaks_contact" in codes(explain.explain_play(race, run))


@dataclass(frozen=True)
class FakeProbs:
    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0


@dataclass(frozen=True)
class FakeRanked:
    play: object
    equity: float
    probs: FakeProbs


def test_analyse_turn_measures_the_loss_of_the_play_made() -> None:
    start = Position.start()
    dice = Dice(3, 1)
    plays = legal_plays(start, dice)
    values = [0.2 - 0.05 * i for i in range(len(plays))]

    def rank(
        pos: Position,
        d: Dice,
        ply: int,
        keep: object = None,
        shown: int = 2,
        context: object = None,
    ) -> list[FakeRanked]:
        return [FakeRanked(p, v, FakeProbs(0.5 + v)) for p, v in zip(plays, values, strict=True)]

    report = analysis.analyse_turn(start, dice, plays[2], ply=2, rank=rank)
    assert report.played_rank == 2
    assert report.equity_lost == pytest.approx(0.10)
    assert report.error is ErrorClass.BAD
    assert report.win == pytest.approx(0.6)
    assert len(report.alternatives) == 5 and report.alternatives[0].notation == plays[0].notation()


def test_a_forced_move_is_never_an_error() -> None:
    # One checker left, on the 3-point: 2-1 can only be played one way.
    pos = position(light={3: 1}, dark={24: 15})
    report = analysis.analyse_turn(pos, Dice(2, 1), legal_plays(pos, Dice(2, 1))[0], ply=1)
    assert report.forced and report.error is ErrorClass.NONE and report.equity_lost == 0


def test_the_expert_hint_for_an_opening_3_1_makes_the_5_point() -> None:
    top = candidates.hint(Position.start(), Dice(3, 1), ply=1)
    assert top[0].notation == "8/5 6/5"
    assert {"code": "makes_points", "params": {"points": [5]}} in [
        r.to_json() for r in top[0].reasons
    ]
    assert len(top) == 5 and all(a.equity >= b.equity for a, b in zip(top, top[1:], strict=False))


def test_making_the_first_point_in_the_opponents_home_board_is_an_anchor() -> None:
    before = position(light={24: 1, 22: 1, 6: 13}, dark={19: 15})
    play = parse_play(before, Dice(2, 1), "24/22 6/5")
    assert codes(explain.explain_play(before, play))["anchor"] == {"point": 22}


def test_plays_riskier_than_the_best_say_how_many_more_rolls_hit() -> None:
    # The best play (by the fake ranking) leaves no blot in reach; the
    # runner-up leaves blots on 13 and 11, in front of DARK's checker on 10.
    before = position(light={13: 2, 6: 13}, dark={10: 1, 24: 14})
    safe = parse_play(before, Dice(2, 1), "6/4 6/5")
    risky = parse_play(before, Dice(2, 1), "13/11 6/5")

    def rank(
        pos: Position,
        d: Dice,
        ply: int,
        keep: object = None,
        shown: int = 2,
        context: object = None,
    ) -> list[FakeRanked]:
        return [FakeRanked(safe, 0.3, FakeProbs(0.6)), FakeRanked(risky, 0.2, FakeProbs(0.55))]

    best, second = candidates.hint(before, Dice(2, 1), ply=1, rank=rank)
    assert best.versus == ()
    expected = count_shots(risky.result)
    assert expected > 0 and count_shots(safe.result) == 0
    safer = codes(list(second.versus))["safer"]
    assert (safer["best"], safer["other"], safer["other_points"]) == (0, expected, [13, 11, 5])
    report = analysis.analyse_turn(before, Dice(2, 1), risky, ply=1, rank=rank)
    assert report.played_candidate is not None
    assert "safer" in codes(list(report.played_candidate.versus))


def test_two_plays_that_do_the_same_things_differ_only_in_equity() -> None:
    # 6/3 4/3 and 6/2 (3-1) leave the same points, blots and pips: the two
    # boards show a player the same things.
    pos, dice = Position.from_position_id("/zWIACC2c8CABQ"), Dice(3, 1)
    made, run = parse_play(pos, dice, "6/3 4/3"), parse_play(pos, dice, "6/2")

    def rank(
        pos: Position,
        d: Dice,
        ply: int,
        keep: object = None,
        shown: int = 2,
        context: object = None,
    ) -> list[FakeRanked]:
        return [FakeRanked(made, 0.01, FakeProbs(0.5)), FakeRanked(run, 0.0, FakeProbs(0.5))]

    _best, second = candidates.hint(pos, dice, ply=1, rank=rank)
    assert [r.to_json() for r in second.versus] == [
        {"code": "only_equity", "params": {"loss": 0.01}}
    ]


def test_two_plays_no_feature_tells_apart_are_shown_with_their_chances() -> None:
    # 24/14 and 24/18 13/9 leave different blots: not "the same things", but
    # no feature differs past its line; the page names both plays and chances.
    start, dice = Position.start(), Dice(6, 4)
    run, split = parse_play(start, dice, "24/14"), parse_play(start, dice, "24/18 13/9")

    def rank(
        pos: Position,
        d: Dice,
        ply: int,
        keep: object = None,
        shown: int = 2,
        context: object = None,
    ) -> list[FakeRanked]:
        return [FakeRanked(split, 0.01, FakeProbs(0.5)), FakeRanked(run, 0.0, FakeProbs(0.48))]

    _best, second = candidates.hint(start, dice, ply=1, rank=rank)
    *small, reason = [r.to_json() for r in second.versus]
    # The smaller differences come first (a roll of 36, a builder), then the chances.
    assert {r["code"] for r in small} <= {"safer", "builders"}
    assert reason["code"] == "chances"
    assert (
        reason["params"]["best_play"] == "24/18 13/9" and reason["params"]["other_play"] == "24/14"
    )
    assert (reason["params"]["best_win"], reason["params"]["other_win"]) == (0.5, 0.48)


# Positions met in random games where the Expert (2-ply) and the 3-ply review
# disagree by more than the "doubtful" line (found with the real evaluator).
EXPERT_SLIPS = [
    ("xRM4gFzOGuGEQA", Dice(2, 5)),
    ("ngcHEiLwAwTFXA", Dice(5, 3)),
    ("4ksEwDmeJwUCCw", Dice(3, 3)),
]


@pytest.mark.parametrize(("position_id", "dice"), EXPERT_SLIPS)
def test_the_experts_own_move_can_be_an_error_at_the_reviews_depth(
    position_id: str, dice: Dice
) -> None:
    from ai_worker.policy import choose_play
    from learning.review.game import review_ply

    pos = Position.from_position_id(position_id)
    expert = choose_play(pos, dice, "expert", seed_key="test")
    assert expert is not None
    report = analysis.review_turn(pos, dice, expert, ply=review_ply())
    assert report.ply == review_ply() == 3
    assert report.error is not ErrorClass.NONE and report.equity_lost >= 0.03
    assert report.alternatives[0].notation != expert.notation()
    assert report.to_json()["ply"] == 3


def test_a_clear_best_play_made_is_searched_at_the_reviews_depth_too() -> None:
    # The opening 3-1: making the 5-point is far ahead of everything else,
    # and still valued like every other play (one depth for every decision).
    start, dice = Position.start(), Dice(3, 1)
    best = parse_play(start, dice, "8/5 6/5")
    report = analysis.review_turn(start, dice, best, ply=3, opening=True)
    assert report.ply == 3 and report.error is ErrorClass.NONE
    assert report.luck is not None


def test_a_play_that_loses_equity_is_searched_deeper() -> None:
    start, dice = Position.start(), Dice(3, 1)
    report = analysis.review_turn(start, dice, parse_play(start, dice, "24/21 24/23"), ply=3)
    assert report.ply == 3 and report.error is not ErrorClass.NONE
    assert report.played_candidate is not None
