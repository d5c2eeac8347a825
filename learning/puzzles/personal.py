"""A person's own puzzles: their reviewed errors, theirs only.

When the person opens the puzzles, their latest reviewed games not seen
before go to ``learning.tasks.make_own_puzzles`` (``queue_own``): each of
their errors that is a puzzle by the bank's rule (``learning.puzzles.
rules``: the review's best plays, valued at its depth, the first rejected
at least ``MIN_GAP`` behind) is checked by the
same rollout as the bank's (``learning.puzzles.verify``) and stored as a
``Puzzle`` with the person as ``owner``: nobody else may see or answer it.
Its starting rating comes from the tiers' solve rates against the bank's
tier ratings. At most ``RETRY_MOST`` a game, the biggest first.
"""

from __future__ import annotations

from typing import Any

from ai_worker.rollout import rollout_play_batches
from games.engine import Dice, Position, legal_plays
from games.models import Game, own_record
from learning.models import AnalysisState, TurnAnalysis
from learning.puzzles import seeding, themes, verify
from learning.puzzles.bank import read_bank
from learning.puzzles.models import Puzzle
from learning.puzzles.rules import MIN_GAP, RETRY_MOST, accepted, is_puzzle

PROBS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def ranking_of(row: TurnAnalysis) -> list[list[Any]]:
    """The review's ranked plays of a turn as a puzzle's ranking (the best
    few and the play made, each valued at the review's depth)."""
    report = row.report or {}
    ranked = list(report.get("alternatives") or [])
    played = report.get("played_candidate")
    if played and all(c.get("result") != played.get("result") for c in ranked):
        ranked.append(played)
    ranked.sort(key=lambda c: -float(c["equity"]))
    ply = int(report.get("ply", 1))
    return [
        [c["notation"], c["result"], float(c["equity"]), [float(c["probs"][k]) for k in PROBS], ply]
        for c in ranked
    ]


def candidates(game: Game) -> list[TurnAnalysis]:
    rows = TurnAnalysis.objects.filter(
        own_record("analysis__game__"),
        analysis__game=game,
        analysis__state=AnalysisState.DONE,
        side="light",
        forced=False,
        equity_lost__gte=MIN_GAP,
    ).select_related("turn")
    return sorted(rows, key=lambda r: -r.equity_lost)[:RETRY_MOST]


QUEUED = "puzzles:own:{game}"  # a game whose errors were sent to be made puzzles
RECENT_GAMES = 5


def queue_own(user: Any, enqueue: Any) -> int:
    """Send the person's latest reviewed games (not sent before) to be made
    puzzles (``learning.tasks.make_own_puzzles``); how many were sent."""
    from django.core.cache import cache

    games = (
        Game.objects.filter(own_record(""), owner=user, analysis__state=AnalysisState.DONE)
        .order_by("-pk")
        .values_list("pk", flat=True)[:RECENT_GAMES]
    )
    sent = 0
    for game_id in games:
        if cache.add(QUEUED.format(game=game_id), True, timeout=None):
            enqueue(game_id)
            sent += 1
    return sent


def make_own(game_id: int, seed: int = 1) -> int:
    """The game's owner's new puzzles from its reviewed errors; how many."""
    game = Game.objects.filter(pk=game_id).select_related("owner").first()
    if game is None:
        return 0
    made = 0
    for row in candidates(game):
        key = f"own:{row.pk}"
        if Puzzle.objects.filter(key=key).exists():
            continue
        ranking = ranking_of(row)
        if len(ranking) < 2 or not is_puzzle([r[2] for r in ranking]):
            continue
        Puzzle.objects.create(key=key, owner=game.owner, **_fields(row, ranking, key, seed))
        made += 1
    return made


def _fields(row: TurnAnalysis, ranking: list[list[Any]], key: str, seed: int) -> dict[str, Any]:
    turn = row.turn
    position = Position.from_position_id(turn.position_before)
    dice = Dice(turn.die1, turn.die2)
    by_id = {p.result.position_id(): p for p in legal_plays(position, dice)}
    n = accepted([r[2] for r in ranking])
    indices = verify.rolled_plays(ranking)
    plays = [by_id[ranking[i][1]] for i in indices]
    s = verify.seed_of(seed, key)
    batches = None
    for look in verify.LOOKS:
        have = 0 if batches is None else len(batches.rows)
        batches = rollout_play_batches(
            position, dice, plays, look - have, s, verify.TRIALS, more=batches
        )
        verdict = verify.play_verdict(batches, [i < n for i in indices])
        if verify.settled(verdict):
            break
    tags = themes.checker_themes(
        position,
        turn.number,
        by_id[ranking[0][1]],
        by_id[ranking[n][1]],
        dict(zip(PROBS, ranking[0][3], strict=True)),
        dict(zip(PROBS, ranking[n][3], strict=True)),
    )
    answers = [r[1] for r in ranking[:n]]
    rates = seeding.checker_rates(turn.position_before, (turn.die1, turn.die2), set(answers))
    tiers = read_bank().get("tier_ratings") or {}
    rating = seeding.rate_one(rates, tiers) if tiers else 1500.0
    return {
        "kind": "checker",
        "position_id": turn.position_before,
        "die1": turn.die1,
        "die2": turn.die2,
        "turn": turn.number,
        "phase": tags["phase"],
        "tags": " " + " ".join(themes.flat(tags)) + " ",
        "answers": answers,
        "ranking": ranking,
        "rollout": {
            **{k: verdict[k] for k in ("status", "margin", "se", "trials", "batches")},
            "plays": [ranking[i][0] for i in indices],
        },
        "status": verdict["status"] if verdict["status"] != verify.WRONG else verify.CLOSE,
        "source": f"game:{row.analysis.game_id}",
        "tiers": rates,
        "rating": rating,
        "deviation": seeding.START_DEVIATION,
    }
