"""Decision time per tier through the bot protocol, against raw bgsage.

    python bench/latency.py --positions 200

For each tier, a ``python -m ai_worker.bot --tier T`` process answers the
same positions one line at a time; the round trip (write the line, read the
answer) is timed here. In the same run, bgsage's own
``BgBotAnalyzer.checker_play`` at the tier's ply times the same positions in
this process: the yardstick. Prints p50/p95 of each and their ratio, and
checks the budgets: p95 <= 50 ms for the noise tiers, <= 1 s for Expert.
The positions come from games gnubg-nn plays against itself on our engine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ai_worker.evaluator import to_board26  # noqa: E402
from bench._bots import GnubgPlayer  # noqa: E402
from bench._money import dice_stream  # noqa: E402
from games.engine import Dice, Position, Side, legal_plays, outcome  # noqa: E402
from games.tiers import TIERS, Tier  # noqa: E402

BUDGET_MS = {1: 50.0}
EXPERT_BUDGET_MS = 1000.0


def sample_positions(count: int, seed: int) -> list[tuple[Position, Dice]]:
    """Positions met in gnubg-nn self-play, each with at least one legal play."""
    player = GnubgPlayer()
    found: list[tuple[Position, Dice]] = []
    game = 0
    while len(found) < count:
        roll, position = dice_stream(seed * 7919 + game), Position.start()
        game += 1
        while True:
            dice = roll()
            plays = legal_plays(position, dice)
            if plays:
                found.append((position, dice))
                position = player.choose(position, dice, plays, game).result
                if outcome(position, Side.LIGHT) is not None:
                    break
            position = position.swapped()
    return found[:count]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bot_times(
    tier: Tier, positions: list[tuple[Position, Dice]]
) -> tuple[list[float], list[float]]:
    """(round-trip ms, the bot's own ms) per position."""
    bot = subprocess.Popen(
        [sys.executable, "-m", "ai_worker.bot", "--tier", tier.value, "--seed", "latency"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        bufsize=1,
    )
    assert bot.stdin is not None and bot.stdout is not None
    start = Position.start().position_id()
    bot.stdin.write(f"{start} 3 1\n")  # the network is loaded before the first answer
    bot.stdout.readline()
    round_trips, inside = [], []
    for position, dice in positions:
        line = f"{position.position_id()} {dice.d1} {dice.d2}\n"
        began = time.perf_counter()
        bot.stdin.write(line)
        answer = json.loads(bot.stdout.readline())
        round_trips.append((time.perf_counter() - began) * 1000)
        inside.append(float(answer["ms"]))
    bot.stdin.close()
    bot.wait(timeout=30)
    return round_trips, inside


def raw_times(ply: int, positions: list[tuple[Position, Dice]]) -> list[float]:
    """bgsage's own checker_play at ``ply`` on the same positions (ms)."""
    import bgsage

    analyzer = bgsage.BgBotAnalyzer(eval_level=f"{ply}ply", cubeful=False)
    analyzer.checker_play(to_board26(Position.start()), 3, 1)  # warm
    times = []
    for position, dice in positions:
        board = to_board26(position)
        began = time.perf_counter()
        analyzer.checker_play(board, dice.d1, dice.d2)
        times.append((time.perf_counter() - began) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--tiers", default=",".join(t.value for t in Tier))
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    positions = sample_positions(args.positions, args.seed)
    print(f"# latency: {len(positions)} positions from gnubg-nn self-play; times in ms")
    print(
        f"{'tier':>12} {'ply':>3} | {'bot p50':>8} {'bot p95':>8} | {'raw p50':>8} {'raw p95':>8}"
        f" | {'ratio p50':>9} {'ratio p95':>9} | budget"
    )
    raw_by_ply: dict[int, list[float]] = {}
    ok = True
    for tier in [Tier(t) for t in args.tiers.split(",") if t]:
        spec = TIERS[tier]
        if spec.ply not in raw_by_ply:
            raw_by_ply[spec.ply] = raw_times(spec.ply, positions)
        raw = raw_by_ply[spec.ply]
        trips, _inside = bot_times(tier, positions)
        budget = EXPERT_BUDGET_MS if tier is Tier.EXPERT else BUDGET_MS[1]
        within = percentile(trips, 0.95) <= budget
        ok &= within
        print(
            f"{tier.value:>12} {spec.ply:>3} | {percentile(trips, 0.5):8.2f}"
            f" {percentile(trips, 0.95):8.2f} | {percentile(raw, 0.5):8.2f}"
            f" {percentile(raw, 0.95):8.2f} | {percentile(trips, 0.5) / percentile(raw, 0.5):9.2f}"
            f" {percentile(trips, 0.95) / percentile(raw, 0.95):9.2f} |"
            f" p95 <= {budget:.0f}: {'yes' if within else 'NO'}",
            flush=True,
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
