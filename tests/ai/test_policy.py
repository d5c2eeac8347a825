"""ai_worker.policy and games.tiers: legal, deterministic, tier-shaped choices."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.utils import translation

from ai_worker.evaluator import rank_plays
from ai_worker.policy import choose_play, choose_ranked
from games.engine import Dice, Position, apply_play, legal_plays
from games.tiers import TIERS, Tier, tier_spec

from .positions import perft_positions, sample_positions

POSITIONS = sample_positions(120)
NOISY = [tier for tier in Tier if TIERS[tier].sigma > 0]


def test_the_table_has_five_tiers_from_weakest_to_strongest() -> None:
    assert [t.value for t in TIERS] == ["beginner", "casual", "intermediate", "advanced", "expert"]
    sigmas = [TIERS[t].sigma for t in Tier]
    assert sigmas == sorted(sigmas, reverse=True) and sigmas[-1] == 0.0
    assert TIERS[Tier.EXPERT].ply >= 2
    assert all(TIERS[t].ply == 1 for t in NOISY)
    assert tier_spec("casual").label == "Casual"
    with translation.override("zh-hans"):
        assert translation.gettext(tier_spec("casual").label) == "休闲"


@pytest.mark.parametrize("tier", list(Tier))
def test_every_tier_plays_a_legal_play_or_none_when_nothing_moves(tier: Tier) -> None:
    positions = POSITIONS if tier is not Tier.EXPERT else POSITIONS[::6]
    for position, dice in positions:
        legal = {p.result for p in legal_plays(position, dice)}
        play = choose_play(position, dice, tier, "game:1")
        assert (play is None) == (not legal)
        assert play is None or (play.result in legal and apply_play(position, play) == play.result)


@pytest.mark.parametrize("tier", NOISY)
def test_the_noise_repeats_for_the_same_game_position_and_dice(tier: Tier) -> None:
    for position, dice in POSITIONS[:40]:
        first = choose_play(position, dice, tier, "game:42")
        again = choose_play(position, dice, tier, "game:42")
        swapped_dice = choose_play(position, Dice(dice.d2, dice.d1), tier, "game:42")
        assert first == again == swapped_dice


def test_different_games_sometimes_choose_differently_at_the_weakest_tier() -> None:
    busy = [(p, d) for p, d in POSITIONS if len(legal_plays(p, d)) >= 8][:30]
    differs = sum(
        choose_play(p, d, Tier.BEGINNER, "game:1") != choose_play(p, d, Tier.BEGINNER, "game:2")
        for p, d in busy
    )
    assert differs > 0


def test_the_noise_is_the_same_in_another_process() -> None:
    position, dice = POSITIONS[10]
    code = (
        "from games.engine import Position, Dice;"
        "from ai_worker.policy import choose_play;"
        f"p = choose_play(Position.from_position_id({position.position_id()!r}),"
        f" Dice({dice.d1}, {dice.d2}), 'beginner', 'game:7');"
        "print(p.notation() if p else '-')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    here = choose_play(position, dice, Tier.BEGINNER, "game:7")
    assert out.stdout.strip() == (here.notation() if here else "-")


def test_expert_and_the_noiseless_ranking_agree_on_the_best_play() -> None:
    position, dice = Position.start(), Dice(3, 1)
    assert choose_play(position, dice, Tier.EXPERT, "x") == rank_plays(position, dice, 2)[0].play


def test_weaker_tiers_give_away_more_equity_on_average() -> None:
    busy = [(p, d) for p, d in POSITIONS if len(legal_plays(p, d)) >= 4]
    loss: dict[Tier, float] = {}
    for tier in NOISY:
        total = 0.0
        for index, (position, dice) in enumerate(busy):
            chosen = choose_ranked(position, dice, tier, f"game:{index}")
            assert chosen is not None
            picked, ranked = chosen
            total += ranked[0].equity - picked.equity
        loss[tier] = total / len(busy)
    values = [loss[t] for t in NOISY]
    assert values == sorted(values, reverse=True)
    assert loss[Tier.ADVANCED] > 0.0


@pytest.mark.slow
def test_the_weakest_tier_plays_legally_on_every_perft_position() -> None:
    pairs = perft_positions(100_000)
    assert pairs, "tests/data/perft.jsonl.gz is committed and must load"
    for position, dice in pairs:
        play = choose_play(position, dice, Tier.BEGINNER, "perft")
        legal = {p.result for p in legal_plays(position, dice)}
        assert (play is None) if not legal else (play is not None and play.result in legal)
