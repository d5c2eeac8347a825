"""教练模式, the teacher's side: the ranking while the person thinks, the
judge the writer asks at commit, the warning's words after it, and the
warnings in the review.

``prepare`` runs on the ``hints`` queue (``learning.tasks.prepare_tutor``) as
soon as the person's roll is known or a cube decision is theirs: the plays
ranked (or the cube advised) at the Expert's depth, as the hint does, into
the shared ranking cache (``ai_worker.rank_cache``; the hint and the review
read the same entries). ``verdict`` is the judge ``games.tutor`` asks inside
the command (installed in ``LearningConfig.ready``): a lookup of that
ranking, never a wait, then the class by the review's thresholds
(``ai_worker.grading.classify``). ``ranking`` tells the socket whether there
is a ranking to wait for. ``word_warning`` runs on the ``hints`` queue once
a warning is saved (``games.signals.tutor_warned``): its words in each
language (``learning.words.coach``), stored on the row and pushed like a hint.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ai_worker import evaluator, rank_cache
from ai_worker.context import CubeContext
from ai_worker.cube_advice import DOUBLE, TAKE, CubeAdvice
from ai_worker.grading import classify
from ai_worker.ranking import Ranked
from games import services
from games.engine import Dice, Play, Position, Side
from games.live import broadcast
from games.models import Game, Status
from games.reading import cube_of, current_turn, match_of
from games.steps import play_arrows
from games.tiers import Tier, tier_spec
from games.tutor import UNCHECKED, Decision, Verdict, unworded
from learning.models import TurnAnalysis
from learning.words.coach import cube_words, play_words
from learning.words.cube import action_label
from learning.words.labels import ERROR_LABELS

NOT_READY = Verdict(ready=False)


@functools.cache
def expert_ply() -> int:
    return tier_spec(Tier.EXPERT).ply


@functools.cache
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
    """Rank the person's decision into the shared cache: a roll of a single
    game as sent (``games.tutor.ask``: no read of the row), else the decision the
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
        position, roll = Position.from_position_id(game.position_id), Dice(*game.dice)
        # In the game's unit, at its cube and score (ai_worker.context).
        context = rank_cache.game_context(game)
        rank_cache.ranked_plays(
            position, roll, expert_ply(), shown=rank_cache.SHOWN, context=context
        )


def ranking(game: Game) -> Callable[[], bool] | None:
    """``games.tutor``'s ``ranking``: None when the ranking of the person's
    open decision is in the cache (or there is none to make), else a look
    that says when it is."""
    key = _key_of(game)
    if key is None or rank_cache.holds(key):
        return None
    return functools.partial(rank_cache.holds, key)


def _key_of(game: Game) -> str | None:
    cube = cube_decision(game)
    if cube is not None:
        return rank_cache.cube_key(*cube, expert_cube_ply())
    if game.dice is None or game.status != Status.PLAYING:
        return None
    position, context = Position.from_position_id(game.position_id), rank_cache.game_context(game)
    return rank_cache.plays_key(position, Dice(*game.dice), expert_ply(), context)


def verdict(game: Game, decision: Decision) -> Verdict:
    """The judge (``games.tutor.Judge``): the verdict on ``decision`` from its
    ranking as it is in the cache now; ``NOT_READY`` if it is not there."""
    if decision.kind == "cube":
        return _cube_verdict(game, decision)
    if decision.dice is None:
        return NOT_READY
    position = Position.from_position_id(decision.position_id)
    dice = Dice(*decision.dice)
    ranked = rank_cache.peek_plays(position, dice, expert_ply(), rank_cache.game_context(game))
    if ranked is None:
        return NOT_READY
    result = Position.from_position_id(decision.result_id)
    played = next((r for r in ranked if r.play.result == result), None)
    if played is None or len(ranked) < 2:
        return Verdict(ready=True)
    best = ranked[0]
    played = _searched(position, dice, ranked, played)
    lost = max(0.0, float(best.equity) - float(played.equity))
    return Verdict(
        ready=True,
        error=classify(lost).value,
        lost=lost,
        best=best.play.notation(),
        best_steps=tuple(play_arrows(position, best.play.steps)),
    )


def _searched(position: Position, dice: Dice, ranked: Any, played: Ranked) -> Ranked:
    """``played`` at the Expert's depth: a play the ranking's filter left at
    1-ply is searched now, as the review values the play made (``keep``), and
    kept in the ranking: played anyway, and in the review, it is not
    searched again."""
    if not isinstance(played, evaluator.RankedPlay) or played.ply >= expert_ply():
        return played
    deeper = evaluator.at_depth(position, played, expert_ply())
    searched = evaluator.with_searched(cast("list[evaluator.RankedPlay]", ranked), deeper)
    rank_cache.remember_plays(position, dice, expert_ply(), searched)
    return deeper


def _cube_verdict(game: Game, decision: Decision) -> Verdict:
    found = cube_decision(game)
    if found is None:
        return Verdict(ready=True)
    advice = rank_cache.peek_cube(*found, expert_cube_ply())
    if advice is None:
        return NOT_READY
    action = _cube_action(advice, decision.action)
    if action not in advice.values:
        return Verdict(ready=True)
    lost = advice.loss(action)
    return Verdict(ready=True, error=classify(lost).value, lost=lost, best=str(advice.best))


def _cube_action(advice: CubeAdvice, action: str) -> str:
    """The action as the advice values it: not doubling a position too good to
    double is playing on for the gammon (``too_good``)."""
    if advice.decision == DOUBLE and action == "no_double" and str(advice.best) == "too_good":
        return "too_good"
    return action


def word_warning(game_id: int, version: int) -> None:
    """The words of the warning saved at ``version`` (``games.signals.tutor_warned``),
    in each language: stored on the row, then pushed to the game's sockets
    (``{"type": "tutor_words", "version", "words"}``, each socket its page's
    language). Nothing once the game moved on."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None or not unworded(game):
        return
    warning = game.tutor_warnings[-1]
    words = _words(game, warning)
    if words is None or not services.word_warning(game_id, version, words):
        return
    by_language = {
        code: {"type": "tutor_words", "version": version, "words": said}
        for code, said in words.items()
    }
    broadcast.send_to_game(
        game_id, {"type": "tutor_words", "version": version, "by_language": by_language}
    )


def _words(game: Game, warning: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    error, lost = str(warning["error"]), float(warning["lost"])
    if warning["kind"] == "cube":
        found = cube_decision(game)
        if found is None:
            return None
        advice = rank_cache.cube_advice(*found, expert_cube_ply())
        return cube_words(advice, _cube_action(advice, str(warning["played"])), error, lost)
    if game.dice is None or not game.steps:
        return None
    position, dice = Position.from_position_id(game.position_id), Dice(*game.dice)
    context = rank_cache.game_context(game)
    play: Play = current_turn(game).play()
    # The judge's ranking, with the play made searched at depth (ranked again
    # with it if the cache lost it meanwhile).
    ranked = rank_cache.ranked_plays(
        position, dice, expert_ply(), keep=play, shown=rank_cache.SHOWN, context=context
    )
    played = next((r for r in ranked if r.play.result == play.result), None)
    if played is None:
        return None
    return play_words(position, dice, ranked[0], played, error, lost, context=context)


def warnings_of(game: Game) -> list[dict[str, Any]]:
    """The tutor's warnings of ``game`` for its review, in the active language:
    each with what the person then did, and the review's own class of the
    play committed when it differs (its search is one ply deeper)."""
    reviewed = {
        t.number: t for t in TurnAnalysis.objects.filter(analysis__game=game, side=Side.LIGHT.value)
    }
    listed = []
    for w in game.tutor_warnings:
        if w.get("outcome") == UNCHECKED:
            continue  # not a warning: nothing was ranked in time to check it
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
