"""再试一次: right after a game, its biggest errors to play again.

The person's own reviewed plays of the game that lost more than
``RETRY_MIN`` (the ``RETRY_MOST`` biggest, in the game's order) come back
one by one on the board. An answer is judged on the review's own ranking
(its best plays, valued alike, and the play made): any play within
``ACCEPT`` of the best is right. Then the answer is shown. A play still
wrong goes into practice's spaced repetition (``learning.study.practice``,
the one queue): its item is made if the review had not made one, and the
wrong answer brings it back tomorrow; a right one counts there too. Only
the first try at an error counts (``RetryAnswer``): a second one, or the
same request sent again, is refused in words and changes nothing. Every
figure is in the unit the review ranked the game's plays in
(``learning.words.unit``: cubeless, with the cube, EMG at a match score).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.engine import Dice, Play, Position
from games.models import Game, own_record
from learning.board.input import board_facts
from learning.models import AnalysisState, TurnAnalysis
from learning.puzzles.attempts import AnswerError
from learning.puzzles.labels import phase_label
from learning.puzzles.models import RetryAnswer
from learning.puzzles.rules import ACCEPT, RETRY_MIN, RETRY_MOST
from learning.puzzles.themes import phase
from learning.review.replay import candidate_json
from learning.study import practice
from learning.words.unit import unit_name, unit_of_game, unit_term


def errors(game: Game) -> list[TurnAnalysis]:
    """The game's biggest errors of the person's, in the game's order."""
    rows = TurnAnalysis.objects.filter(
        own_record("analysis__game__"),
        analysis__game=game,
        analysis__state=AnalysisState.DONE,
        side="light",
        forced=False,
        equity_lost__gt=RETRY_MIN,
    ).select_related("turn", "analysis__game")
    biggest = sorted(rows, key=lambda r: -r.equity_lost)[:RETRY_MOST]
    return sorted(biggest, key=lambda r: r.number)


def retry_json(row: TurnAnalysis, index: int, count: int) -> dict[str, Any]:
    """What the board needs to pose the error again (never its answer)."""
    turn = row.turn
    position = Position.from_position_id(turn.position_before)
    dice = Dice(turn.die1, turn.die2)
    return {
        "id": row.pk,
        "kind": "checker",
        "rated": False,
        "own": True,
        "index": index,
        "count": count,
        "turn": turn.number,
        "phase_label": phase_label(phase(position, turn.number)),
        "tags": [],
        "dice": [turn.die1, turn.die2],
        **board_facts(position, "light", dice),
    }


def _ranked(row: TurnAnalysis) -> list[dict[str, Any]]:
    report = row.report or {}
    ranked = list(report.get("alternatives") or [])
    played = report.get("played_candidate")
    if played and all(c.get("result") != played.get("result") for c in ranked):
        ranked.append(played)
    return ranked


def judge(user: Any, row: TurnAnalysis, play: Play) -> dict[str, Any]:
    """The verdict on ``play`` (right: within ``ACCEPT`` of the review's best),
    recorded once (``RetryAnswer``) and in practice's queue; the answer shown
    after it. A second try at the same error (or the same request sent
    again) is refused in words and changes nothing (``AnswerError``)."""
    ranked = _ranked(row)
    kind = unit_of_game(row.analysis.game)  # the review ranked the plays in it
    best = ranked[0]
    mine = next((c for c in ranked if c.get("result") == play.result.position_id()), None)
    lost = None if mine is None else max(0.0, float(best["equity"]) - float(mine["equity"]))
    right = lost is not None and lost <= ACCEPT + 1e-9
    try:
        with transaction.atomic():
            RetryAnswer.objects.create(
                user=user, turn=row, solved=right, answer=play.notation()[:40], lost=lost
            )
            _to_practice(user, row, play, right, lost)
    except IntegrityError as error:
        raise AnswerError("answered", TRIED(), 409) from error
    note = (
        _("Right: within 0.01 of the best play, in the review's figures.")
        if right
        else _("Still not the best play: this position goes to your practice, back tomorrow.")
    )
    return {
        "solved": right,
        "answer": play.notation(),
        "lost": None if lost is None else round(lost, 3),
        "rated": False,
        "note": note,
        "best_play": candidate_json(best, "light"),
        "your_play": candidate_json(mine, "light") if mine and mine is not best else None,
        "rollout": _("The review's figures, searched at %(ply)s-ply (%(unit)s).")
        % {"ply": row.report.get("ply", 3), "unit": unit_term(kind)},
        "unit": unit_name(kind),
    }


def TRIED() -> str:  # noqa: N802  (a message, read when needed)
    return _("You have tried this error again already: only your first try goes to your practice.")


def tried(user: Any, row: TurnAnalysis) -> dict[str, Any] | None:
    """The person's first try at this error, when there is one (the page
    then shows the error as done)."""
    done = RetryAnswer.objects.filter(user=user, turn=row).first()
    return None if done is None else {"solved": done.solved, "answer": done.answer}


def _to_practice(user: Any, row: TurnAnalysis, play: Play, right: bool, lost: float | None) -> None:
    """A wrong play joins practice's queue; any answer counts on its item."""
    item = practice.item_for_turn(user, row) if not right else row_item(row)
    if item is not None:
        verdict = practice.Verdict(
            right, lost is not None and lost < 1e-9, play.notation(), lost, 0
        )
        practice.record(item, verdict)


def row_item(row: TurnAnalysis) -> Any:
    from learning.models import PracticeItem

    return PracticeItem.objects.filter(turn=row).first()
