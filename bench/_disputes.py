"""Where the site's review finds errors in an error-free player's games, who
is right: ``bench/match_truth.py --disputes`` (issue 44, item 6).

An error-free player is one of the plans' GNU Backgammon players at noise 0
and 2-ply: GNU Backgammon's own 2-ply analysis finds nothing to mark in its
games, so every loss the site's review stores for it is a dispute between
the two engines. Each disputed checker play (the play made against the
review's best) is rolled out cubefully at its cube and score by bgsage
(``ai_worker.rollout.rollout_cubeful``, ``truncated2``: 360 games, 2-ply
decisions, the same dice for both plays); each disputed cube decision by
bgsage's cubeful rollout of the decision. The rollout's verdict: the play
made loses more than two standard errors (the site is right), is within
them (undecided), or gains (GNU Backgammon is right).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

LEVEL = "truncated2"
FLOOR = 0.01  # a checker loss the review would show as a difference


def disputes(var_dir: Path, plans: list[Any]) -> list[dict[str, Any]]:
    """The reviewed decisions of the error-free players with a loss, from the
    database of ``bench/match_truth.py``'s run (its ``VAR_DIR``)."""
    os.environ.update(VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from games.engine import Dice
    from games.models import Game, ImportedFile
    from learning.models import CubeAnalysis, TurnAnalysis
    from learning.review.cube import cube_decisions, turn_contexts
    from learning.review.game import mover_positions, played_play

    found: list[dict[str, Any]] = []
    for plan in plans:
        for player, side in ((plan.left, "light"), (plan.right, "dark")):
            if player.noise != 0:
                continue
            source = ImportedFile.objects.filter(
                light_player=plan.left.name, dark_player=plan.right.name
            ).first()
            games = Game.objects.filter(imported_from=source).order_by("pk") if source else []
            for number, game in enumerate(games, 1):
                where = {"file": plan.name, "game": number, "player": player.name}
                contexts = turn_contexts(game)
                for row in TurnAnalysis.objects.filter(
                    analysis__game=game, side=side, equity_lost__gte=FLOOR
                ).order_by("number"):
                    before, after = mover_positions(row.turn)
                    dice = Dice(row.turn.die1, row.turn.die2)
                    found.append(
                        {
                            **where,
                            "kind": "play",
                            "turn": row.number,
                            "position": before,
                            "dice": dice,
                            "played": played_play(before, dice, after),
                            "best": row.report["alternatives"][0]["result"],
                            "context": contexts.get(row.number),
                            "site_loss": row.equity_lost,
                        }
                    )
                decided = {(d.before_turn, d.decision): d for d in cube_decisions(game)}
                for cube in CubeAnalysis.objects.filter(
                    analysis__game=game, side=side, equity_lost__gt=0.0
                ):
                    d = decided[(cube.before_turn, cube.decision)]
                    found.append(
                        {
                            **where,
                            "kind": cube.decision,
                            "turn": cube.before_turn,
                            "action": cube.action,
                            "best_action": cube.best,
                            "position": d.position,
                            "context": d.context,
                            "site_loss": cube.equity_lost,
                        }
                    )
    return found


def settle(dispute: dict[str, Any]) -> dict[str, Any]:
    """The rollout of one dispute: the play made's loss by the rollout and
    its standard error (the larger of the two plays'), or the cube's."""
    from ai_worker.cube_advice import advice_from
    from ai_worker.rollout import rollout_cube, rollout_cubeful
    from games.engine import Position, legal_plays

    if dispute["kind"] != "play":
        cube = rollout_cube(dispute["position"], dispute["context"], trials=1296, threads=2)
        advice = advice_from(cube.equities, dispute["context"], dispute["kind"])
        se = max(cube.no_double_se, cube.double_take_se)
        return {
            "rollout_loss": advice.loss(dispute["action"]),
            "se": se,
            "rollout_best": str(advice.best),
        }
    position, dice = dispute["position"], dispute["dice"]
    best = next(
        p
        for p in legal_plays(position, dice)
        if p.result == Position.from_position_id(dispute["best"])
    )
    played = dispute["played"]
    rolled = rollout_cubeful([played, best], dispute["context"], threads=2, level=LEVEL)
    by = {r.play.result: r for r in rolled}
    loss = by[best.result].equity - by[played.result].equity
    return {
        "rollout_loss": loss,
        "se": max(r.se for r in rolled),
        "rollout_best": rolled[0].play.notation(),
    }


def report(found: list[dict[str, Any]]) -> None:
    """Print each dispute with the rollout's verdict, and the tally."""
    tally = {"site": 0, "gnubg": 0, "undecided": 0}
    for dispute in found:
        settled = settle(dispute)
        loss, se = settled["rollout_loss"], settled["se"]
        # GNU Backgammon gives the play made no loss; the site gives it its own.
        claimed = dispute["site_loss"]
        verdict = "site" if loss > 2 * se else "gnubg" if claimed - loss > 2 * se else "undecided"
        tally[verdict] += 1
        what = dispute["played"].notation() if dispute["kind"] == "play" else dispute["action"]
        print(
            json.dumps(
                {
                    "file": dispute["file"],
                    "game": dispute["game"],
                    "player": dispute["player"],
                    "turn": dispute["turn"],
                    "kind": dispute["kind"],
                    "made": what,
                    "site_loss": round(dispute["site_loss"], 4),
                    "rollout_loss": round(loss, 4),
                    "se": round(se, 4),
                    "rollout_best": settled["rollout_best"],
                    "right": verdict,
                }
            ),
            flush=True,
        )
    print(
        f"disputes: {len(found)}; the rollout sides with the site {tally['site']}, "
        f"with GNU Backgammon {tally['gnubg']}, undecided {tally['undecided']}"
    )
    sys.stdout.flush()
