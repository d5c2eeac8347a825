"""Money games with the doubling cube (``bench/strength.py --money N``).

One game loop for both kinds of game, on our engine's rules
(``games.engine.cube``): before each roll but the game's first (the opening
roll), the side on roll may double when ``double_refusal`` allows; the other
side takes (the cube goes to it at twice the value) or passes (the doubler
scores ``pass_points``). A finished game scores ``result_points``: the kind
(1, 2, 3) times the cube, a single while the cube is centred under the
Jacoby rule. With ``match=None`` the game is cubeless (the plain single
game): no cube, the kind's points.

A tier decides exactly as the site's computer does (``ai_worker.cube``:
``double_decision``, ``take_decision`` and ``choose_cubeful_play``, noise
seeded by the game; ``ai_worker.policy.choose_play`` in a cubeless game).
The opponent is bgsage 1-ply cubeful with no noise. Each tier cube decision
is scored against the tier's own evaluation before its noise (the equities
``ai_worker.cube`` returns): a decision is wrong when its equity is below
the best action's, and the loss is that difference per unit of the cube.
"""

from __future__ import annotations

import math
import os
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ai_worker.cube import (
    CubeAction,
    CubeContext,
    CubeDecision,
    choose_cubeful_play,
    double_decision,
    evaluate_cube,
    rank_cubeful,
    take_decision,
)
from ai_worker.evaluator import rank_plays
from ai_worker.policy import choose_play
from bench._cube import Tally, answer_equity, double_equity, is_close
from games.engine import (
    Cube,
    Dice,
    Match,
    Play,
    Position,
    ResultKind,
    Side,
    double_refusal,
    legal_plays,
    outcome,
    pass_points,
    result_points,
)
from games.tiers import Tier

MONEY = Match(jacoby=True)  # the site's money game: Jacoby on, no beavers (CubeContext)
SEATS = (Side.LIGHT, Side.DARK)  # seat 0 rolls first


class CubePlayer(ABC):
    """A side of a game: a cube decision and a play, each from the mover's side."""

    name = "player"

    @abstractmethod
    def double(self, position: Position, context: CubeContext, game: int) -> CubeAction: ...

    @abstractmethod
    def take(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        """The answer to ``context.mover``'s double; ``position`` is the doubler's."""

    @abstractmethod
    def play(
        self, position: Position, dice: Dice, context: CubeContext | None, game: int
    ) -> Play | None: ...


class SagePlayer(CubePlayer):
    """bgsage 1-ply cubeful, no noise: the opponent and the yardstick."""

    name = "bgsage 1-ply"

    def double(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        return evaluate_cube(position, context, 1).best_double_action()

    def take(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        return evaluate_cube(position, context, 1).best_answer()

    def play(
        self, position: Position, dice: Dice, context: CubeContext | None, game: int
    ) -> Play | None:
        if context is None:
            ranked = rank_plays(position, dice, 1)
        else:
            ranked = rank_cubeful(position, dice, context, 1)
        return ranked[0].play if ranked else None


@dataclass
class TierPlayer(CubePlayer):
    """A tier as the site's computer plays it, tallying its cube errors."""

    tier: Tier
    tallies: dict[str, Tally] = field(default_factory=dict)

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.tier.value

    def double(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        decision = double_decision(position, context, self.tier, seed(game))
        self._tally_double(decision)
        return decision.action

    def take(self, position: Position, context: CubeContext, game: int) -> CubeAction:
        decision = take_decision(position, context, self.tier, seed(game))
        eq = decision.equities
        assert eq is not None
        best = min(eq.double_take, eq.double_pass)  # the doubler's equity: lower is better
        loss = answer_equity(eq, decision.action) - best
        self._add("take", loss, is_close(eq))
        if loss > 1e-9:
            self._add("wrong pass" if decision.action is CubeAction.PASS else "wrong take", loss)
        return decision.action

    def play(
        self, position: Position, dice: Dice, context: CubeContext | None, game: int
    ) -> Play | None:
        if context is None:
            return choose_play(position, dice, self.tier, seed(game))
        return choose_cubeful_play(position, dice, context, self.tier, seed(game))

    def _tally_double(self, decision: CubeDecision) -> None:
        eq = decision.equities
        assert eq is not None  # the loop only asks when a double is allowed
        right = eq.best_double_action()
        loss = double_equity(eq, right) - double_equity(eq, decision.action)
        self._add("double", loss, is_close(eq))
        if loss > 1e-9:
            missed = right is CubeAction.DOUBLE
            self._add("missed double" if missed else "wrong double", loss)

    def _add(self, key: str, loss: float, close: bool = False) -> None:
        self.tallies.setdefault(key, Tally()).add(loss)
        if close:
            self.tallies.setdefault(f"{key} (close)", Tally()).add(loss)


def seed(game: int) -> str:
    return f"bench:{game}"


@dataclass(frozen=True)
class GameResult:
    points: int  # for seat 0, negative when it lost
    kind: ResultKind | None  # None when a double was passed
    cube: Cube | None  # the cube when the game ended (before the passed double)
    doubles: int = 0


def play_game(
    players: Sequence[CubePlayer],
    roll: Callable[[], Dice],
    game: int,
    match: Match | None = MONEY,
    start: Position | None = None,
    cube: Cube | None = None,
) -> GameResult:
    """One game, seat 0 on roll first in ``start`` (the opening position by default)."""
    position, seat = start or Position.start(), 0
    if match is not None and cube is None:
        cube = Cube()
    doubles = 0
    for turn in range(2000):
        mover = SEATS[seat]
        if cube is not None and match is not None and turn:
            context = CubeContext(cube, match, mover)
            if double_refusal(cube, match, mover) is None:
                if players[seat].double(position, context, game) is CubeAction.DOUBLE:
                    doubles += 1
                    if players[1 - seat].take(position, context, game) is CubeAction.PASS:
                        won = pass_points(cube, match, mover)
                        return GameResult(_signed(won, mover), None, cube, doubles)
                    cube = cube.taken(mover.other)
        dice = roll()
        cubeful = CubeContext(cube, match, mover) if cube and match else None
        play = players[seat].play(position, dice, cubeful, game)
        if play is not None:
            position = play.result
            result = outcome(position, mover)
            if result is not None:
                won = result_points(result.kind, cube, match or MONEY, result.winner)
                return GameResult(_signed(won, result.winner), result.kind, cube, doubles)
        elif legal_plays(position, dice):
            raise RuntimeError(f"{players[seat].name} passed with a legal play")
        position, seat = position.swapped(), 1 - seat
    raise RuntimeError("game did not finish")


def _signed(points: int, winner: Side) -> int:
    return points if winner is SEATS[0] else -points


def dice_stream(seed: int) -> Callable[[], Dice]:
    """The dice of one game: the first roll is never a double (opening roll)."""
    rng = random.Random(seed)
    first = [True]

    def roll() -> Dice:
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            if not (first[0] and d1 == d2):
                first[0] = False
                return Dice(d1, d2)

    return roll


@dataclass
class PairTotals:
    """Duplicate pairs of one tier against one opponent, with and without the cube."""

    cube: list[float] = field(default_factory=list)  # the tier's mean points per pair
    cubeless: list[float] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)  # with the cube, seat 0 the first


def play_pairs(a: CubePlayer, b: CubePlayer, pairs: range, seed: int, cubeless: bool) -> PairTotals:
    """Each dice sequence twice with the seats swapped, with the cube (and without)."""
    totals = PairTotals()
    for k in pairs:
        dice_seed = seed * 1_000_003 + k
        first = play_game([a, b], dice_stream(dice_seed), 2 * k)
        second = play_game([b, a], dice_stream(dice_seed), 2 * k + 1)
        totals.cube.append((first.points - second.points) / 2)
        totals.games += [first, second]
        if cubeless:
            one = play_game([a, b], dice_stream(dice_seed), 2 * k, None)
            two = play_game([b, a], dice_stream(dice_seed), 2 * k + 1, None)
            totals.cubeless.append((one.points - two.points) / 2)
    return totals


@dataclass
class MatchResult:
    ppg: float  # points per game for the first player
    half_width: float  # 95% interval half-width
    games: int


def summarise(scores: list[float]) -> MatchResult:
    """Mean points per game with a 95% interval (normal approximation over the pairs)."""
    mean = sum(scores) / len(scores)
    var = sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1)
    return MatchResult(mean, 1.96 * math.sqrt(var / len(scores)), 2 * len(scores))


@dataclass
class Chunk:
    """What one worker process measured for one pairing."""

    totals: PairTotals
    tallies: dict[str, Tally]


def run_chunk(tier: str, first: int, count: int, seed: int, cubeless: bool) -> Chunk:
    opponent = SagePlayer()
    player: CubePlayer = SagePlayer() if tier == YARDSTICK else TierPlayer(Tier(tier))
    totals = play_pairs(player, opponent, range(first, first + count), seed, cubeless)
    return Chunk(totals, player.tallies if isinstance(player, TierPlayer) else {})


YARDSTICK = "bgsage"  # bgsage 1-ply against itself: exactly 0 if the loop is fair


def run(tier: str, pairs: int, seed: int, jobs: int, cubeless: bool) -> Chunk:
    size = -(-pairs // jobs)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(run_chunk, tier, s, min(size, pairs - s), seed, cubeless)
            for s in range(0, pairs, size)
        ]
        parts = [f.result() for f in futures]
    total = Chunk(PairTotals(), {})
    for part in parts:
        total.totals.cube += part.totals.cube
        total.totals.cubeless += part.totals.cubeless
        total.totals.games += part.totals.games
        for key, tally in part.tallies.items():
            into = total.tallies.setdefault(key, Tally())
            into.decisions += tally.decisions
            into.wrong += tally.wrong
            into.lost += tally.lost
    return total


def report(tier: str, chunk: Chunk, seconds: float) -> None:
    totals = chunk.totals
    cube = summarise(totals.cube)
    line = f"{tier:>14} vs bgsage 1-ply: cube {cube.ppg:+.3f} ±{cube.half_width:.3f} ppg"
    if totals.cubeless:
        flat = summarise(totals.cubeless)
        line += f"; cubeless, same dice {flat.ppg:+.3f} ±{flat.half_width:.3f}"
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{line}  ({cube.games} games each, {seconds:.0f} s, load {load})", flush=True)
    print(f"{'':>16}{_games_text(totals.games)}", flush=True)
    for key in ("double", "take"):
        if key in chunk.tallies:
            print(f"{'':>16}{_tally_text(chunk.tallies, key)}", flush=True)


def _games_text(games: list[GameResult]) -> str:
    n = len(games)
    passed = sum(g.kind is None for g in games)
    gammons = sum(g.kind is not None and g.kind is not ResultKind.SINGLE for g in games)
    cubes = [g.cube.value for g in games if g.cube is not None]
    doubles = sum(g.doubles for g in games)
    return (
        f"games: {doubles / n:.2f} doubles a game, {100 * passed / n:.1f}% end on a pass,"
        f" {100 * gammons / n:.1f}% gammons or backgammons, mean final cube"
        f" {sum(cubes) / max(1, len(cubes)):.2f}"
    )


def _tally_text(tallies: dict[str, Tally], key: str) -> str:
    every, close = tallies[key], tallies.get(f"{key} (close)", Tally())
    kinds = ("missed double", "wrong double") if key == "double" else ("wrong take", "wrong pass")
    split = ", ".join(f"{kind} {tallies.get(kind, Tally()).wrong}" for kind in kinds)
    return f"{key} decisions: all {every.text()}; close {close.text()} ({split})"
