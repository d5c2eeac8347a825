"""ai_worker.features: shot counts, primes, contact, points, on hand-built boards."""

from __future__ import annotations

import pytest

import tests.boards
from ai_worker.features import (
    count_shots,
    exposed_blots,
    has_contact,
    longest_prime,
    position_features,
    shots_by_blot,
)
from games.engine import Position


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from the mover's side: ``mine`` on the mover's points (25 =
    bar), ``theirs`` on the *mover's* points too (0 = the opponent's bar);
    the rest of each side's 15 checkers are borne off. The suite's one
    builder (tests/boards.py) with the mover as LIGHT."""
    placed = {point: n for point, n in theirs.items() if point}
    return tests.boards.board(mine, placed, dark_bar=theirs.get(0, 0))


# Standard single-blot shot table (open board, one attacker, no blocks).
DIRECT_SHOTS = {
    1: 11,
    2: 12,
    3: 14,
    4: 15,
    5: 15,
    6: 17,
    7: 6,
    8: 6,
    9: 5,
    10: 3,
    11: 2,
    12: 3,
    15: 1,
    16: 1,
    18: 1,
    20: 1,
    24: 1,
    13: 0,
    14: 0,
    17: 0,
    19: 0,
}


@pytest.mark.parametrize(("distance", "shots"), sorted(DIRECT_SHOTS.items()))
def test_a_lone_blot_is_hit_by_the_textbook_number_of_rolls(distance: int, shots: int) -> None:
    # Mover's blot on its 24-point is far from home; attacker below it.
    pos = board({24: 1, 1: 2}, {24 - distance: 1})
    assert count_shots(pos) == shots


def test_a_blot_one_pip_in_front_of_a_checker_is_hit_by_exactly_11_of_36() -> None:
    pos = board({6: 5, 8: 3, 13: 5, 10: 1, 1: 1}, {9: 1, 0: 0, 19: 5, 17: 3, 12: 5, 24: 1})
    # The blot on 1 is behind every opposing checker but the one on 24 can't
    # move backwards: only the blot on 10, one pip in front of the checker on 9.
    assert dict(shots_by_blot(pos))[10] == 11


def test_made_points_block_the_middle_of_a_combination_shot() -> None:
    # Blot 8 away: 6-2, 5-3, 4-4, 2-2 hit on an open board (6 rolls).
    open_board = board({20: 1}, {12: 1})
    assert count_shots(open_board) == 6
    # Block the 14 (12+2), 15 (12+3) and 16 (12+4) landing spots: 6-2 still
    # hits through 18 and 5-3 through 17; 4-4 and 2-2 are stopped.
    blocked = board({20: 1, 14: 2, 16: 2}, {12: 1})
    assert count_shots(blocked) == 4


def test_a_checker_on_the_bar_must_enter_before_another_can_hit() -> None:
    # The attacker's only other checker sits 1 pip below the blot, but the
    # one on the bar must enter first, and every entry point but 6 is made.
    pos = board({20: 1, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2}, {19: 1, 0: 1})
    # Only rolls with a 6 enter; the other die must then be a 1 to hit from
    # 19 (6-1 = 2 rolls); 6-6 can't reach 20 from 19 or 6 (no: 6+6+6 = 18,
    # +6 = 24 passes) -> exactly 2.
    assert count_shots(pos) == 2


def test_an_entering_checker_can_hit_a_blot_in_the_home_board() -> None:
    pos = board({3: 1, 6: 2}, {0: 1})
    # Direct 3 (11 rolls) plus 1-2 / 2-1 and 1-1 entering then moving on (3 more).
    assert count_shots(pos) == 14


def test_a_five_point_prime_is_measured() -> None:
    pos = board({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 13: 5}, {24: 2})
    assert longest_prime(pos) == (5, 8)
    facts = position_features(pos)
    assert facts.prime == 5 and facts.home_points == 3 and facts.blots == ()


def test_contact_ends_when_the_last_checkers_have_passed() -> None:
    assert has_contact(Position.start())
    assert not has_contact(board({6: 5, 5: 5}, {20: 5}))
    assert has_contact(board({6: 5, 25: 1}, {20: 5}))  # a checker on the bar must come round


def test_the_start_position_facts() -> None:
    facts = position_features(Position.start())
    assert facts.pips == facts.opp_pips == 167
    assert facts.made_points == (24, 13, 8, 6)
    assert facts.blots == () and facts.shots == 0
    assert facts.borne_off == facts.opp_borne_off == 0


def _engine_shots(pos: Position) -> int:
    """Rolls of 36 for which some *legal* play of the opponent hits a blot."""
    from ai_worker.features import ROLLS
    from games.engine import Dice, legal_plays

    blots = {p for p in range(1, 25) if pos.me[p - 1] == 1}
    opponent = pos.swapped()  # the opponent on roll; its point q is our 25 - q
    return sum(
        weight
        for d1, d2, weight in ROLLS
        if any(
            step.hit and 25 - step.dst in blots
            for play in legal_plays(opponent, Dice(d1, d2))
            for step in play.steps
        )
    )


def _generated_positions(count: int, seed: int) -> list[Position]:
    """Positions with a blot of the mover's, met in random games (random
    legal plays, so odd shapes: bars, bear-offs, primes, stripped boards)."""
    import random

    from games.engine import Dice, legal_plays

    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position.start()
        for _ in range(120):
            plays = legal_plays(pos, Dice(rng.randint(1, 6), rng.randint(1, 6)))
            after = rng.choice(plays).result if plays else pos
            if sum(after.me) == 0:
                break
            if any(n == 1 for n in after.me[:24]):
                found.append(after)
            pos = after.swapped()
    return found[:count]


@pytest.mark.slow  # 2,500 positions by brute force
def test_shot_counts_are_the_engines_over_all_36_rolls_on_generated_positions() -> None:
    # The brute force: for every roll, every legal play of the opponent.
    positions = _generated_positions(2500, seed=12)
    assert len(positions) == 2500
    wrong = [p.position_id() for p in positions if count_shots(p) != _engine_shots(p)]
    assert wrong == []


def test_a_hit_only_in_a_play_that_leaves_a_die_unplayed_is_not_a_shot() -> None:
    # Met in a random game: one roll (two of 36) reaches a blot only by a
    # play that cannot use its other die while another play uses both, so
    # the rules forbid it. Die-by-die search alone said 12; the rules say 10.
    pos = Position.from_position_id("/3eAAAAXgEJuBw")
    assert count_shots(pos) == _engine_shots(pos) == 10


@pytest.mark.slow
def test_shot_counts_agree_with_the_engines_legal_plays_on_perft_positions() -> None:
    import gzip
    import json
    from pathlib import Path

    path = Path(__file__).parent / "data" / "perft.jsonl.gz"
    seen: set[str] = set()
    checked = 0
    with gzip.open(path, "rt") as lines:
        for line in lines:
            pid = json.loads(line)["position"]
            pos = Position.from_position_id(pid)
            if pid in seen or not any(n == 1 for n in pos.me[:24]):
                continue
            seen.add(pid)
            ours, engine = count_shots(pos), _engine_shots(pos)
            assert ours == engine, pid
            checked += 1
            if checked == 150:
                break
    assert checked == 150


def test_split_back_checkers_are_not_lumped_in_with_the_blots_that_matter() -> None:
    from games.engine import Dice, parse_play

    split = parse_play(Position.start(), Dice(2, 1), "13/11 24/23").result
    facts = position_features(split)
    assert facts.blots == (24, 23, 11) and facts.exposed == (11,)
    assert facts.shots == count_shots(split, target=11) < count_shots(split)
    assert facts.back_shots == count_shots(split, among=(24, 23)) > 0


def test_back_blots_matter_against_a_strong_home_board() -> None:
    # The opponent holds four points of its home board (our 19, 20, 21, 22).
    strong = board({24: 1, 23: 1, 6: 5, 8: 3, 13: 5}, {19: 2, 20: 2, 21: 2, 22: 2, 12: 3})
    assert exposed_blots(strong) == (24, 23)
    weak = board({24: 1, 23: 1, 6: 5, 8: 3, 13: 5}, {19: 2, 20: 2, 12: 7})
    assert exposed_blots(weak) == ()
