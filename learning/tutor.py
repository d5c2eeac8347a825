"""教练模式, the teacher's side: the ranking while the person thinks, the
verdict at commit, and the warning in the review's words.

``prepare`` runs on the ``hints`` queue (``learning.tasks.prepare_tutor``) as
soon as the person's roll is known or a cube decision is theirs: the plays
ranked (or the cube advised) at the Expert's depth, as the hint does, into
the shared ranking cache (``ai_worker.rank_cache``; the hint and the review
read the same entries). ``verdict`` answers ``games.signals.tutor_check``
inside the command that commits: a lookup, waited for at most
``games.tutor.WAIT_SECONDS``, then the class by the review's thresholds
(``ai_worker.grading.classify``) and, for a warning, the panel's words:
what the play costs, the review's reasons contrasting it with the best play
(``learning.review.replay.candidate_json``), the best play's steps for its arrows.
"""

from __future__ import annotations

import functools
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ai_worker import evaluator, rank_cache
from ai_worker.attribution import weighed
from ai_worker.candidates import candidate, compared
from ai_worker.cube import CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, CubeAdvice
from ai_worker.features import position_features
from ai_worker.grading import classify
from ai_worker.ranking import Ranked
from games.engine import Dice, Position, Side
from games.models import Game, Status
from games.reading import cube_of, match_of
from games.tiers import Tier, tier_spec
from games.tutor import WAIT_SECONDS, Decision, Verdict
from learning.models import TurnAnalysis
from learning.review.replay import candidate_json
from learning.words.cube import action_label, cube_hint_json, proper_action
from learning.words.labels import ERROR_LABELS


def expert_ply() -> int:
    return tier_spec(Tier.EXPERT).ply


def expert_cube_ply() -> int:
    """The Expert's cube depth (3-ply: games/tiers.py), as the hints judge the cube."""
    return tier_spec(Tier.EXPERT).cube_depth


def cube_decision(game: Game) -> tuple[Position, CubeContext, str] | None:
    """The person's cube decision now: the doubler's position (before its
    roll, from its side), its cube and score, and DOUBLE or TAKE."""
    if game.turn != Side.LIGHT.value or game.status not in (Status.DECIDING, Status.DOUBLED):
        return None
    cube = cube_of(game)
    if cube is None:
        return None
    position = Position.from_position_id(game.position_id)  # LIGHT's side
    if game.status == Status.DECIDING:
        return position, CubeContext(cube, match_of(game), Side.LIGHT), DOUBLE
    # The computer doubled: judged on its position, LIGHT answers.
    return position.swapped(), CubeContext(cube, match_of(game), Side.DARK), TAKE


def prepare(
    game_id: int, version: int, position_id: str = "", dice: list[int] | None = None
) -> None:
    """Rank the person's decision into the shared cache: a roll to play as
    sent (``games.tutor.ask``: no read of the row), else the decision the
    game is at, at ``version`` or later (a step since does not change it,
    and a ranking skipped for it left End turn waiting a second for
    nothing: bench/tutor.py)."""
    if position_id and dice:
        position = Position.from_position_id(position_id)
        rank_cache.ranked_plays(position, Dice(*dice), expert_ply(), shown=rank_cache.SHOWN)
        return
    game = Game.objects.filter(pk=game_id, version__gte=version).first()
    if game is None or game.is_over or game.turn != Side.LIGHT.value:
        return
    cube = cube_decision(game)
    if cube is not None:
        rank_cache.cube_advice(*cube, expert_cube_ply())
    elif game.dice is not None:
        position = Position.from_position_id(game.position_id)
        rank_cache.ranked_plays(position, Dice(*game.dice), expert_ply(), shown=rank_cache.SHOWN)


def verdict(game: Game, decision: Decision, wait: float = WAIT_SECONDS) -> Verdict:
    """The tutor's verdict on ``decision``, in the active language; its
    ranking waited for up to ``wait`` seconds."""
    if decision.kind == "cube":
        return _cube_verdict(game, decision, wait)
    if decision.dice is None:
        return Verdict(ready=False)
    position = Position.from_position_id(decision.position_id)
    dice = Dice(*decision.dice)
    ranked = rank_cache.wait_for_plays(position, dice, expert_ply(), wait)
    if ranked is None:
        return Verdict(ready=False, key=rank_cache.plays_key(position, dice, expert_ply()))
    result = Position.from_position_id(decision.result_id)
    played = next((r for r in ranked if r.play.result == result), None)
    if played is None or len(ranked) < 2:
        return Verdict(ready=True)
    best = ranked[0]
    # A play the ranking's filter left at 1-ply is searched at the Expert's
    # depth now, as the review values the play made (``keep``), and kept in
    # the ranking: played anyway, and in the review, it is not searched again.
    if isinstance(played, evaluator.RankedPlay) and played.ply < expert_ply():
        played = evaluator.at_depth(position, played, expert_ply())
        searched = evaluator.with_searched(cast("list[evaluator.RankedPlay]", ranked), played)
        rank_cache.remember_plays(position, dice, expert_ply(), searched)
    lost = max(0.0, float(best.equity) - float(played.equity))
    error = classify(lost).value
    return Verdict(
        ready=True,
        error=error,
        lost=lost,
        best=best.play.notation(),
        words=functools.partial(_play_words, position, dice, best, played, error, lost),
    )


def _play_words(
    position: Position, dice: Dice, best: Ranked, played: Ranked, error: str, lost: float
) -> dict[str, Any]:
    before = position_features(position)
    top = candidate(position, best, before)
    # The review's order: the difference that carries most of the gap first.
    mine = weighed(position, dice, compared(candidate(position, played, before), top, before), top)
    shown_best, shown_mine = (
        candidate_json(top.to_json(), "light"),
        candidate_json(mine.to_json(), "light"),
    )
    return {
        "kind": "play",
        "error": error,
        "title": _("The tutor: %(label)s") % {"label": ERROR_LABELS[error]},
        "cost": _(
            "Your play %(played)s gives away %(lost)s in equity against %(best)s (%(label)s)."
        )
        % {
            "played": shown_mine["notation"],
            "lost": f"{lost:.3f}",
            "best": shown_best["notation"],
            "label": ERROR_LABELS[error],
        },
        "reasons": shown_mine["reasons"],
        "best_line": _("The best play: %(play)s.") % {"play": shown_best["notation"]},
        "arrows": _("Arrows on the board show the best play: %(play)s.")
        % {"play": shown_best["notation"]},
        "played": shown_mine["notation"],
        "best": shown_best["notation"],
        "best_steps": shown_best["steps"],
        "lost": round(lost, 4),
    }


def _cube_verdict(game: Game, decision: Decision, wait: float) -> Verdict:
    found = cube_decision(game)
    if found is None:
        return Verdict(ready=True)
    advice = rank_cache.wait_for_cube(*found, expert_cube_ply(), wait)
    if advice is None:
        return Verdict(ready=False, key=rank_cache.cube_key(*found, expert_cube_ply()))
    action = decision.action
    if advice.decision == DOUBLE and action == "no_double" and str(advice.best) == "too_good":
        action = "too_good"  # not doubling is the right action then
    if action not in advice.values:
        return Verdict(ready=True)
    lost = advice.loss(action)
    error = classify(lost).value
    return Verdict(
        ready=True,
        error=error,
        lost=lost,
        best=str(advice.best),
        words=lambda: _cube_words(advice, action, error, lost),
    )


def _cube_words(advice: CubeAdvice, action: str, error: str, lost: float) -> dict[str, Any]:
    stored = advice.to_json()
    hint = cube_hint_json(stored)
    return {
        "kind": "cube",
        "error": error,
        "title": _("The tutor: %(label)s") % {"label": ERROR_LABELS[error]},
        "cost": _(
            "%(action)s gives away %(lost)s in equity (in units of the cube now) against "
            "the right action, %(best)s (%(label)s)."
        )
        % {
            "action": action_label(action),
            "lost": f"{lost:.3f}",
            "best": proper_action(stored),
            "label": ERROR_LABELS[error],
        },
        "reasons": hint["lines"],
        "best_line": hint["title"],
        "arrows": "",
        "played": action_label(action),
        "best": proper_action(stored),
        "best_steps": [],
        "lost": round(lost, 4),
    }


def warnings_of(game: Game) -> list[dict[str, Any]]:
    """The tutor's warnings of ``game`` for its review, in the active language:
    each with what the person then did, and the review's own class of the
    play committed when it differs (its search is one ply deeper)."""
    reviewed = {
        t.number: t for t in TurnAnalysis.objects.filter(analysis__game=game, side=Side.LIGHT.value)
    }
    listed = []
    for w in game.tutor_warnings:
        label = ERROR_LABELS.get(w.get("error", ""), "")
        if w.get("kind") == "cube":
            played, best = action_label(w["played"]), action_label(w["best"])
        else:
            played, best = w["played"], w["best"]
        line = _("Turn %(turn)s: %(played)s, warned as %(label)s (%(lost)s against %(best)s).") % {
            "turn": w["turn"],
            "played": played,
            "label": label,
            "lost": f"{w['lost']:.3f}",
            "best": best,
        }
        listed.append(
            {
                "line": line,
                "outcome": w.get("outcome", ""),
                "outcome_words": OUTCOME_WORDS.get(w.get("outcome", ""), ""),
                "review": _review_differs(w, reviewed.get(int(w["turn"]))),
            }
        )
    return listed


OUTCOME_WORDS: dict[str, Any] = {
    "overridden": gettext_lazy("You played it anyway."),
    "changed": gettext_lazy("You followed the warning and played otherwise."),
    "pending": gettext_lazy("Left as it was (the game ended or moved on)."),
}


def _review_differs(warning: dict[str, Any], reviewed: TurnAnalysis | None) -> str:
    """The review's class of the committed play when it is not the tutor's."""
    if (
        reviewed is None
        or warning.get("kind") != "play"
        or warning.get("outcome") != "overridden"
        or reviewed.error_class == warning.get("error")
    ):
        return ""
    return _("The review, searching deeper (%(ply)s-ply), marks it %(label)s (%(lost)s).") % {
        "ply": reviewed.report.get("ply", ""),
        "label": ERROR_LABELS.get(reviewed.error_class, reviewed.error_class),
        "lost": f"{reviewed.equity_lost:.3f}",
    }
