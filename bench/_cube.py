"""The tiers' cube decisions against a deeper evaluation (``bench/strength.py --cube N``).

Positions come from games the Advanced tier plays against itself (1-ply,
noisy, fixed dice seed), taken before a roll. Each gets a cube and score: a
money game with the Jacoby rule and the cube in the centre, a money game
with a 2-cube the side on roll owns, or a 7-point match at a random score.
The reference is bgsage's cubeful ``cube_action`` at ``--cube-ref-ply``
(3 by default). Each tier then decides as ``ai_worker.cube`` does, at its own
ply with its own ``cube_sigma`` noise: the doubler's double / no double /
too good and the taker's take / pass. A decision is wrong when its
reference equity is below the best action's; the loss is that difference
(per unit of the cube). "Close" positions are those where the reference's
double and take decisions are within 0.25 of the other action.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ai_worker.cube import CubeAction, CubeContext, CubeEquities, evaluate_cube, with_noise
from ai_worker.policy import choose_play
from games.engine import Cube, Dice, Match, Position, Side, double_refusal, legal_plays
from games.tiers import TIERS, Tier

CLOSE = 0.25


@dataclass(frozen=True)
class Sample:
    position: Position
    context: CubeContext


@dataclass
class Tally:
    decisions: int = 0
    wrong: int = 0
    lost: float = 0.0

    def add(self, loss: float) -> None:
        self.decisions += 1
        self.wrong += loss > 1e-9
        self.lost += loss

    def text(self) -> str:
        if not self.decisions:
            return "no decisions"
        rate = 100 * self.wrong / self.decisions
        return f"{rate:5.1f}% wrong, mean loss {self.lost / self.decisions:.4f} of {self.decisions}"


def sample_positions(count: int, seed: int) -> list[Sample]:
    rng = random.Random(seed)
    found: list[Sample] = []
    game = 0
    while len(found) < count:
        position, mover = Position.start(), Side.LIGHT
        for move in range(200):
            context = _context(rng, mover)
            if move >= 2 and rng.random() < 0.25 and _may_double(context):
                found.append(Sample(position, context))
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            if legal_plays(position, dice):
                play = choose_play(position, dice, Tier.ADVANCED, f"cube-bench:{game}")
                assert play is not None
                position = play.result
            if 15 in position.borne_off():
                break
            position, mover = position.swapped(), mover.other
        game += 1
    return found[:count]


def _context(rng: random.Random, mover: Side) -> CubeContext:
    kind = rng.random()
    if kind < 0.4:
        return CubeContext(Cube(), Match(jacoby=True), mover)
    if kind < 0.6:
        return CubeContext(Cube(2, mover), Match(jacoby=True), mover)
    light, dark = rng.randint(0, 5), rng.randint(0, 5)
    return CubeContext(Cube(), Match(length=7, light=light, dark=dark), mover)


def _may_double(context: CubeContext) -> bool:
    return double_refusal(context.cube, context.match, context.mover) is None


def double_equity(eq: CubeEquities, action: CubeAction) -> float:
    if action is CubeAction.DOUBLE:
        return min(eq.double_take, eq.double_pass)
    return eq.no_double


def answer_equity(eq: CubeEquities, action: CubeAction) -> float:
    # The doubler's equity after the answer; the taker wants it low.
    return eq.double_take if action is CubeAction.TAKE else eq.double_pass


def is_close(ref: CubeEquities) -> bool:
    double_gap = abs(min(ref.double_take, ref.double_pass) - ref.no_double)
    return double_gap < CLOSE or abs(ref.double_take - ref.double_pass) < CLOSE


@dataclass
class Result:
    tallies: dict[str, Tally]
    agree: dict[str, int]
    positions: int


def evaluate_chunk(samples: list[Sample], first: int, ref_ply: int, tiers: list[str]) -> Result:
    tallies: dict[str, Tally] = {}
    agree: dict[str, int] = {}
    for offset, sample in enumerate(samples):
        index = first + offset
        ref = evaluate_cube(sample.position, sample.context, ref_ply)
        best_double = double_equity(ref, ref.best_double_action())
        best_answer = min(ref.double_take, ref.double_pass)
        close = is_close(ref)
        by_ply: dict[int, CubeEquities] = {}
        for name, spec in [(t, TIERS[Tier(t)]) for t in tiers]:
            ply = spec.cube_depth
            if ply not in by_ply:
                by_ply[ply] = evaluate_cube(sample.position, sample.context, ply)
            seen = with_noise(by_ply[ply], spec, f"cube-bench:{index}")
            double = seen.best_double_action()
            answer = seen.best_answer()
            double_loss = best_double - double_equity(ref, double)
            answer_loss = answer_equity(ref, answer) - best_answer
            for scope in ("all", "close") if close else ("all",):
                tallies.setdefault(f"{name}|double|{scope}", Tally()).add(double_loss)
                tallies.setdefault(f"{name}|take|{scope}", Tally()).add(answer_loss)
            same = (double, answer) == (ref.best_double_action(), ref.best_answer())
            agree[name] = agree.get(name, 0) + same
        # The yardstick: bgsage 1-ply with no noise at all.
        one = by_ply.get(1) or evaluate_cube(sample.position, sample.context, 1)
        same = (one.best_double_action(), one.best_answer()) == (
            ref.best_double_action(),
            ref.best_answer(),
        )
        agree["1-ply, no noise"] = agree.get("1-ply, no noise", 0) + same
    return Result(tallies, agree, len(samples))


def run(count: int, seed: int, ref_ply: int, jobs: int, tiers: list[str]) -> Result:
    samples = sample_positions(count, seed)
    size = -(-len(samples) // jobs)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(evaluate_chunk, samples[s : s + size], s, ref_ply, tiers)
            for s in range(0, len(samples), size)
        ]
        parts = [f.result() for f in futures]
    total = Result({}, {}, 0)
    for part in parts:
        total.positions += part.positions
        for key, tally in part.tallies.items():
            into = total.tallies.setdefault(key, Tally())
            into.decisions += tally.decisions
            into.wrong += tally.wrong
            into.lost += tally.lost
        for key, n in part.agree.items():
            total.agree[key] = total.agree.get(key, 0) + n
    return total


def report(result: Result, ref_ply: int, tiers: list[str]) -> None:
    print(
        f"# cube decisions against bgsage {ref_ply}-ply cubeful, {result.positions} positions"
        f" (close: within {CLOSE} of the other action)",
        flush=True,
    )
    for name in tiers:
        spec = TIERS[Tier(name)]
        for part in ("double", "take"):
            every = result.tallies.get(f"{name}|{part}|all", Tally())
            close = result.tallies.get(f"{name}|{part}|close", Tally())
            print(
                f"{name:>14} ply {spec.cube_depth} cube_sigma {spec.cube_sigma:.3f} {part:>6}:"
                f" all {every.text()}; close {close.text()}",
                flush=True,
            )
    for name, n in result.agree.items():
        share = 100 * n / result.positions if result.positions else 0.0
        print(f"{name:>16} agrees with {ref_ply}-ply on both decisions: {share:.1f}%", flush=True)
