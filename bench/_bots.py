"""Players and a cubeless money-game loop for the benchmarks.

Every game runs on our engine (``games.engine.legal_plays``): each player
only picks one of the plays the engine lists. The yardstick is gnubg-nn at
0-ply and the floor is pubeval (Tesauro's published linear evaluation, as
gnubg-nn ships it). gnubg-nn is GPL and bench-only: nothing under the site
or tests imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import gnubg_nn

from ai_worker.policy import choose_ranked
from bench._money import MatchResult, dice_stream, summarise
from games.engine import Dice, Play, Position, Side, legal_plays, outcome
from games.tiers import Tier

BLUNDER = 0.3  # equity a "nonsense" play gives away against the best


class Player:
    name = "player"

    def choose(self, position: Position, dice: Dice, plays: list[Play], game: int) -> Play:
        raise NotImplementedError


def gnubg_rows(position: Position) -> list[list[int]]:
    """gnubg's TanBoard: row 0 the opponent, row 1 the side on roll."""
    return [list(position.opp), list(position.me)]


class GnubgPlayer(Player):
    """gnubg-nn's own 0-ply choice, mapped back onto the engine's plays."""

    name = "gnubg-nn 0-ply"

    def choose(self, position: Position, dice: Dice, plays: list[Play], game: int) -> Play:
        by_result = {play.result: play for play in plays}
        _moves, ranked = gnubg_nn.best_move(gnubg_rows(position), dice.d1, dice.d2, n=0, list=1)
        for key, *_rest in ranked:
            mover, opponent = gnubg_nn.board_from_position_key(key)
            play = by_result.get(Position(tuple(mover), tuple(opponent)))
            if play is not None:
                return play
        # gnubg listed nothing the engine allows (a rules edge case): fall back
        # to gnubg's 0-ply evaluation of the engine's plays.
        return max(plays, key=lambda p: -_gnubg_equity(p.result.swapped()))


def _gnubg_equity(position: Position) -> float:
    win, wg, wbg, lg, lbg = gnubg_nn.probabilities(gnubg_rows(position), 0)
    return float(2 * win - 1 + wg - lg + wbg - lbg)


class PubevalPlayer(Player):
    name = "pubeval"

    def choose(self, position: Position, dice: Dice, plays: list[Play], game: int) -> Play:
        return max(
            plays,
            key=lambda p: gnubg_nn.pub_eval_score([list(p.result.me), list(p.result.opp)]),
        )


@dataclass
class PolicyPlayer(Player):
    """A tier of our policy; counts how far each choice falls below the best."""

    tier: Tier
    decisions: int = 0
    blunders: int = 0
    lost: float = 0.0
    losses: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.tier.value

    def choose(self, position: Position, dice: Dice, plays: list[Play], game: int) -> Play:
        chosen = choose_ranked(position, dice, self.tier, f"bench:{game}")
        assert chosen is not None
        picked, ranked = chosen
        if len(ranked) > 1:
            loss = ranked[0].equity - picked.equity
            self.decisions += 1
            self.lost += loss
            self.blunders += loss > BLUNDER
        return picked.play


def play_game(players: Sequence[Player], seed: int, game: int) -> int:
    """Points won by ``players[0]`` (negative when lost); seat 0 moves first."""
    roll = dice_stream(seed)
    position, seat = Position.start(), 0
    for _ in range(2000):
        dice = roll()
        plays = legal_plays(position, dice)
        if plays:
            after = players[seat].choose(position, dice, plays, game).result
            result = outcome(after, Side.LIGHT)
            if result is not None:
                return result.points if seat == 0 else -result.points
            position = after
        position, seat = position.swapped(), 1 - seat
    raise RuntimeError("game did not finish")


def pair_scores(a: Player, b: Player, pairs: range, seed: int) -> list[float]:
    """Each dice sequence twice with the seats swapped: ``a``'s mean per pair."""
    scores: list[float] = []
    for k in pairs:
        dice_seed = seed * 1_000_003 + k
        first = play_game([a, b], dice_seed, 2 * k)
        second = -play_game([b, a], dice_seed, 2 * k + 1)
        scores.append((first + second) / 2)
    return scores


def duplicate_match(a: Player, b: Player, pairs: int, seed: int) -> MatchResult:
    """ppg for ``a`` over ``pairs`` duplicate-dice pairs."""
    return summarise(pair_scores(a, b, range(pairs), seed))
