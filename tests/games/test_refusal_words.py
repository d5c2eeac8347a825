"""games.words.refusals: every refused step in words, its figures filled in,
the plurals by the count, lists joined as the language joins them."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.engine import Refusal, RefusalCode
from games.words.refusals import describe_refusal

# The params as the engine gives them (games/engine/turn.py), and the sentence.
ENGLISH: list[tuple[RefusalCode, dict[str, Any], str]] = [
    (RefusalCode.NO_CHECKER, {"point": 7}, "You have no checker on point 7."),
    (
        RefusalCode.MUST_ENTER_FIRST,
        {"on_bar": 1},
        "You have 1 checker on the bar: enter it before moving any other.",
    ),
    (
        RefusalCode.MUST_ENTER_FIRST,
        {"on_bar": 2},
        "You have 2 checkers on the bar: enter them before moving any other.",
    ),
    (
        RefusalCode.POINT_BLOCKED,
        {"point": 19, "count": 5},
        "Point 19 is blocked: the computer has 5 checkers there.",
    ),
    (
        RefusalCode.BEAR_OFF_OUTSIDE,
        {"count": 1, "points": (8,)},
        "You cannot bear off yet: 1 checker is still outside your home board (points 8).",
    ),
    (
        RefusalCode.BEAR_OFF_OUTSIDE,
        {"count": 2, "points": (8, 13)},
        "You cannot bear off yet: 2 checkers are still outside your home board (points 8, 13).",
    ),
    (
        RefusalCode.BEAR_OFF_NOT_HIGHEST,
        {"die": 3, "highest": 5},
        "A 3 may bear off a checker from a lower point only when none is higher; "
        "you still have a checker on point 5, move that first.",
    ),
    (
        RefusalCode.MUST_USE_BOTH,
        {"die": 6},
        "That step would leave your 6 unplayable; both dice must be used when they can be.",
    ),
    (
        RefusalCode.MUST_USE_LARGER,
        {"larger": 6, "smaller": 5},
        "Only one die can be played, so it must be the larger one (6, not 5).",
    ),
    (
        RefusalCode.NO_SUCH_DIE,
        {"distance": 3, "remaining": (6, 5)},
        "No remaining die moves 3 points (dice left: 6, 5).",
    ),
    (
        RefusalCode.WRONG_DIRECTION,
        {"src": 13, "dst": 19},
        "Checkers move from higher points to lower ones: 13 to 19 goes backwards.",
    ),
    (RefusalCode.TURN_COMPLETE, {}, "Your dice are used up: end the turn or undo a step."),
    (RefusalCode.NOTHING_TO_UNDO, {}, "There is no step to undo."),
]


@pytest.mark.parametrize(("code", "params", "words"), ENGLISH, ids=lambda v: str(v)[:30])
def test_each_refusal_is_worded_with_its_figures(
    code: RefusalCode, params: dict[str, Any], words: str
) -> None:
    with translation.override("en"):
        assert describe_refusal(Refusal(code, params)) == words


def test_every_refusal_code_has_its_own_sentence() -> None:
    assert {code for code, _params, _words in ENGLISH} == set(RefusalCode)
    with translation.override("en"):
        sentences = {describe_refusal(Refusal(c, p)) for c, p, _w in ENGLISH}
    assert "That step is not allowed." not in sentences


def test_chinese_sentences_join_their_lists_with_the_chinese_comma() -> None:
    with translation.override("zh-hans"):
        outside = describe_refusal(
            Refusal(RefusalCode.BEAR_OFF_OUTSIDE, {"count": 2, "points": (8, 13)})
        )
        no_die = describe_refusal(
            Refusal(RefusalCode.NO_SUCH_DIE, {"distance": 3, "remaining": (6, 5)})
        )
        blocked = describe_refusal(Refusal(RefusalCode.POINT_BLOCKED, {"point": 19, "count": 5}))
    assert outside == "还不能移出：你还有 2 枚棋子在内盘之外（8、13 点）。"
    assert no_die == "剩下的骰子都不能走 3 格（剩余骰子：6、5）。"
    assert blocked == "19 点被封住了：电脑在那里有 5 枚棋子。"
