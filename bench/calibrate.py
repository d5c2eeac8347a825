"""Fast sigma sweep for the noise tiers (calibration aid, not the strength bench).

    python bench/calibrate.py --pairs 2000 0.0 0.04 0.08 0.12 0.16

Plays bgsage 1-ply with Gaussian noise of each sigma against gnubg-nn 0-ply
with duplicate dice, entirely on bgsage boards: bgsage's C++ move generator
instead of our engine (they differ only in one rare bear-off case) and a
seeded random generator instead of the policy's hashed noise (the same
distribution). That makes it several times faster than bench/strength.py,
which is the measurement of record; use this to pick the sigmas in
games/tiers.py, then confirm them with bench/strength.py.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import bgbot_cpp
import gnubg_nn
from bgsage.board import STARTING_BOARD
from bgsage.weights import bearoff_db_path, default_weights

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai_worker.evaluator import from_board26, to_board26  # noqa: E402
from games.engine import Position  # noqa: E402

Board = list[int]
Bot = Callable[[Board, int, int], Board | None]


def load_one_ply() -> object:
    weights = default_weights()
    strategy = bgbot_cpp.create_strategy(
        weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
    )
    db = bgbot_cpp.BearoffDB()
    if db.load(bearoff_db_path()):
        strategy = bgbot_cpp.BearoffStrategy(strategy, db)
    return strategy


def flip(board: Board) -> Board:
    return list(bgbot_cpp.flip_board(board))


def to_rows(board: Board) -> list[list[int]]:
    """bgsage board → gnubg TanBoard [opponent, side on roll] (bars non-negative)."""
    position = from_board26(board)
    return [list(position.opp), list(position.me)]


def from_rows(opp: list[int], me: list[int]) -> Board:
    return to_board26(Position(tuple(me), tuple(opp)))


def gnubg_bot(board: Board, d1: int, d2: int) -> Board | None:
    """gnubg-nn 0-ply; the next board from the opponent's side, or None."""
    ranked = gnubg_nn.best_move(to_rows(board), d1, d2, n=0, list=1)[1]
    if not ranked:
        return None
    mover, opponent = gnubg_nn.board_from_position_key(ranked[0][0])
    return from_rows(list(mover), list(opponent))


def noisy_bot(strategy: object, sigma: float, rng: random.Random) -> Bot:
    def play(board: Board, d1: int, d2: int) -> Board | None:
        candidates = [list(b) for b in bgbot_cpp.possible_moves(board, d1, d2)]
        if not candidates:
            return None
        best = max(
            candidates,
            key=lambda b: (
                strategy.evaluate_board(b, board)["equity"]  # type: ignore[attr-defined]
                + (rng.gauss(0.0, sigma) if sigma > 0 else 0.0)
            ),
        )
        return flip(best)

    return play


def points(mover_view: Board) -> int:
    """Points for the mover who has just borne off the last checker."""
    opponent_left = -sum(v for v in mover_view[1:25] if v < 0) + mover_view[0]
    if opponent_left < 15:
        return 1
    if mover_view[0] > 0 or any(mover_view[p] < 0 for p in range(1, 7)):
        return 3
    return 2


def play_game(bots: list[Bot], seed: int) -> int:
    rng = random.Random(seed)
    board, seat, first = list(STARTING_BOARD), 0, True
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if first and d1 == d2:
            continue
        first = False
        after = bots[seat](board, d1, d2)
        if after is None:
            board = flip(board)
        else:
            mover_view = flip(after)
            if not any(v > 0 for v in mover_view[1:26]):
                return points(mover_view) if seat == 0 else -points(mover_view)
            board = after
        seat ^= 1


def match(a: Bot, b: Bot, pairs: int, seed: int) -> tuple[float, float]:
    scores = []
    for k in range(pairs):
        s = seed * 1_000_003 + k
        scores.append((play_game([a, b], s) - play_game([b, a], s)) / 2)
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (len(scores) - 1))
    return mean, 1.96 * sd / math.sqrt(len(scores))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("sigmas", nargs="+", type=float)
    args = parser.parse_args(argv)
    strategy = load_one_ply()
    for sigma in args.sigmas:
        rng = random.Random(int(sigma * 1e6))
        started = time.time()
        mean, half = match(noisy_bot(strategy, sigma, rng), gnubg_bot, args.pairs, args.seed)
        print(
            f"sigma={sigma} vs gnubg0: {mean:+.3f} ±{half:.3f}"
            f"  ({2 * args.pairs} games, {time.time() - started:.0f}s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
