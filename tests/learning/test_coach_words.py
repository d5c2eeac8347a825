"""The coach's words as a good teacher gives them (issue 45, item 12), over
200 warned decisions met in noisy self-play: games the site did not choose,
both sides playing the network's 1-ply values with the Beginner tier's noise
(``games.tiers``), seeded; a decision is warned when its loss against the
roll's best play is doubtful or worse (the tutor's most sensitive level).

For each, in Chinese and in English: at most three lines first; every line
said against the play made is a difference the best play makes, true on the
two boards (``bench/_truth.py``, a brute force with the rules' own move
generator), and none is a merit of the play made (its own reasons, worded as
the review words them, never appear); the cost on a beginner's scale gives
the two plays' chances to win as the engine has them, with its unit; terms
are marked for the glossary and every mark names a glossary entry; no Latin
move word on a Chinese screen. The best play's arrows start on points that
hold the person's checkers before the move, and moving those checkers along
them gives the best play's board.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from django.utils import translation

from ai_worker.evaluator import RankedPlay, rank_plays
from ai_worker.explain import explain_play
from ai_worker.grading import classify
from bench._truth import contradictions
from games.engine import Dice, Position, Side, legal_plays, outcome
from games.steps import play_arrows
from games.tiers import Tier, tier_spec
from learning.glossary.marks import MARK, plain, uses
from learning.glossary.terms import BY_KEY
from learning.words.coach import LEAD, PLAY_TERMS, compare, play_lines
from learning.words.reasons import render_reasons

pytestmark = pytest.mark.slow

DECISIONS = 200
# The play made's own reasons that say what it does well.
MERITS = frozenset({"hits", "enters", "makes_points", "anchor", "prime", "bears_off", "no_blots"})
LATIN = re.compile(r"\b(bar|off)\b")


@cache
def warned(count: int = DECISIONS, seed: int = 45) -> list[tuple[Position, Dice, Any, Any]]:
    """``count`` warned decisions of noisy self-play: (position, dice, the
    best play, the play made), each ranked at 1-ply."""
    rng = random.Random(seed)
    sigma = tier_spec(Tier.BEGINNER).sigma
    found: list[tuple[Position, Dice, Any, Any]] = []
    while len(found) < count:
        position = Position.start()
        while outcome(position, Side.LIGHT) is None and len(found) < count:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            if len(legal_plays(position, dice)) >= 2:
                ranked = rank_plays(position, dice, 1)
                made = max(ranked, key=lambda r: r.equity + rng.gauss(0.0, sigma))
                if classify(ranked[0].equity - made.equity).value != "none":
                    found.append((position, dice, ranked[0], made))
                position = made.play.result
            elif legal_plays(position, dice):
                position = legal_plays(position, dice)[0].result
            position = position.swapped()
    return found


def merits_said(position: Position, made: RankedPlay) -> set[str]:
    """The play made's merits, worded as the review words its own reasons."""
    own = [r.to_json() for r in explain_play(position, made.play) if r.code in MERITS]
    return set(render_reasons(own))


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_warnings_of_200_noisy_decisions_lead_with_three_lines_and_never_a_merit(
    language: str,
) -> None:
    decisions = warned()
    assert len(decisions) == DECISIONS
    codes: set[str] = set()
    for position, dice, best, made in decisions:
        lost = best.equity - made.equity
        c = compare(position, dice, best, made)
        with translation.override(language):
            lead, details = play_lines(c, classify(lost).value, lost)
            merits = merits_said(position, made)
        where = f"{position.position_id()} {dice.d1}{dice.d2} {made.play.notation()}"
        assert 1 <= len(lead) <= LEAD, where
        assert [line.kind for line in lead] == ["cost", "why", "best"], where
        against = [line for line in (*lead, *details) if line.kind == "why"]
        for line in against:
            text = plain(line.text)
            assert text not in merits and not any(m in text for m in merits), (where, text)
            # Each of the glossary's terms the line names links its entry where
            # the line first names it.
            first: dict[str, bool] = {}
            for _at, key, link in uses(line.text, language):
                first.setdefault(key, link)
            unlinked = [key for key in PLAY_TERMS if first.get(key) is False]
            assert unlinked == [], (where, line.text)
        # Each line against it that names a difference: true on the two boards.
        reasons = [line.reason for line in against if line.reason is not None]
        wrong = contradictions(position, best.play, made.play, reasons)
        assert not wrong, (where, wrong)
        codes.update(str(reason["code"]) for reason in reasons)
        # Only the lead's plain line when no difference shows on the board.
        assert len(reasons) >= len(against) - 1, where
        # The two plays' chances to win, as the engine has them, in percent.
        cost = plain(lead[0].text)
        won = round(best.probs.win * 100), round(made.probs.win * 100)
        said = f"{won[0]}%" in cost and f"{won[1]}%" in cost
        assert said or won[0] - won[1] < 1, (where, cost)
        assert "%" in cost or "100" in cost, (where, cost)
        for line in (*lead, *details):
            assert all(m.group(1) in BY_KEY for m in MARK.finditer(line.text)), line.text
            chinese_latin = language == "zh-hans" and LATIN.search(plain(line.text))
            assert not chinese_latin, (where, line.text)
    # The leading reasons are the differences a teacher names, not one kind.
    assert len(codes) >= 6, codes


def test_the_best_plays_arrows_start_where_the_persons_checkers_are_before_the_move() -> None:
    for position, _dice, best, _made in warned():
        arrows = play_arrows(position, best.play.steps)
        left = list(position.me)
        for arrow in arrows:
            assert position.me[arrow["from"] - 1] >= 1, (position.position_id(), arrow)
            left[arrow["from"] - 1] -= 1
            if arrow["to"] != 0:  # 0: borne off
                left[arrow["to"] - 1] += 1
        assert tuple(left) == best.play.result.me, (position.position_id(), arrows)
