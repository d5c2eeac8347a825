"""The review of a game's cube decisions, both sides: missed and wrong doubles,
wrong takes and wrong passes, with the equity lost and its class.

A game with the cube is replayed from its ``Turn`` and ``CubeAction`` rows
(merged by ``before_turn``, cube actions first, docs/interfaces.md §4a). Each
turn but the opening one begins with the mover's cube decision when the rules
let it double (``games.engine.double_refusal``): it doubled (a ``double``
row) or it rolled (no double). A double is followed by the other side's take
or pass. Each decision is judged by ``ai_worker.cube_advice`` at the
review's depth (``judge``), every one, as GNU Backgammon's analysis judges
every cube decision at its analysis depth. Which decisions count in the PR
is GNU Backgammon's rule (``trivial``): every double, take and pass, and a
no-double when doubling would have cost less than ``CLOSE_CUBE`` (its
"close or actual cube decisions"); the others are ``trivial``, not counted,
like a forced move.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db import transaction

from ai_worker.context import CubeContext
from ai_worker.cube import CubeAction
from ai_worker.cube_advice import DOUBLE, TAKE, CubeAdvice, advise
from games.engine import Cube, Position, Side, double_refusal
from games.models import CubeActionKind, Game
from games.reading import match_of
from learning.models import CubeAnalysis, GameAnalysis


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """One cube decision as it was made."""

    before_turn: int  # the number of the turn it came before
    side: Side  # the side that decided
    decision: str  # DOUBLE (the doubler's) or TAKE (the taker's)
    action: str  # no_double / double / take / pass
    position: Position  # the doubler's board before its roll, from its side
    context: CubeContext  # the doubler's cube (before the double) and score


def cube_decisions(game: Game) -> list[CubeDecision]:
    """Every cube decision of ``game``, in order (none in a single game)."""
    if not game.has_cube:
        return []
    return list(_replay(game))


def _replay(game: Game) -> Iterator[CubeDecision]:
    match = match_of(game)
    cube = Cube()
    turns = {t.number: t for t in game.turns.order_by("number")}
    actions: dict[int, list[CubeActionKind | str]] = {}
    boards: dict[int, str] = {}
    sides: dict[int, Side] = {}
    for a in game.cube_actions.order_by("number"):
        actions.setdefault(a.before_turn, []).append(a.action)
        if a.action == CubeActionKind.DOUBLE:
            boards[a.before_turn], sides[a.before_turn] = a.position_id, Side(a.side)
    first = min(turns, default=0)
    for number in sorted(set(turns) | set(actions)):
        acts = actions.get(number, [])
        turn = turns.get(number)
        if number in boards:
            doubler, light_board = sides[number], boards[number]
        elif turn is not None and number != first:  # nobody doubles before the opening roll
            doubler, light_board = Side(turn.side), turn.position_before
        else:
            continue
        board = Position.from_position_id(light_board)
        position = board if doubler is Side.LIGHT else board.swapped()
        context = CubeContext(cube, match, doubler)
        doubled = CubeActionKind.DOUBLE in acts
        if doubled or double_refusal(cube, match, doubler) is None:
            action = CubeAction.DOUBLE if doubled else CubeAction.NO_DOUBLE
            yield CubeDecision(number, doubler, DOUBLE, str(action), position, context)
        for answer in (a for a in acts if a != CubeActionKind.DOUBLE):
            yield CubeDecision(number, doubler.other, TAKE, str(answer), position, context)
            if answer == CubeActionKind.TAKE:
                cube = cube.taken(doubler.other)


def turn_contexts(game: Game) -> dict[int, CubeContext]:
    """The cube (value and owner, after the takes before it) and the score
    each turn of ``game`` was played at, from its mover's side: what its
    decision is judged at (``ai_worker.context``). Empty in a single game."""
    if not game.has_cube:
        return {}
    match, cube = match_of(game), Cube()
    takes = game.cube_actions.filter(action=CubeActionKind.TAKE)
    takers = {a.before_turn: Side(a.side) for a in takes}
    contexts = {}
    for number, side in game.turns.order_by("number").values_list("number", "side"):
        if number in takers:
            cube = cube.taken(takers[number])
        contexts[number] = CubeContext(cube, match, Side(side))
    return contexts


def match_chance(probs: dict[str, float], context: CubeContext) -> float | None:
    """The mover's cubeless chance to win the match after its turn (its
    chances ``probs``, each result worth the cube's value at the score), or
    None outside a match."""
    import bgbot_cpp

    match = context.match
    if match.is_money:
        return None
    chances = [probs[k] for k in PROBS_KEYS]
    away = (match.away(context.mover), match.away(context.mover.other))
    return float(bgbot_cpp.cubeless_mwc(chances, *away, context.cube.value, match.crawford))


PROBS_KEYS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


# GNU Backgammon's rule for the cube decisions its PR counts (its manual,
# "Close or actual cube decisions"; ``isCloseCubedecision`` in eval.c and
# ``updateStatcontext`` in analysis.c, the same in its sources of 2013 and
# 2024, either side of the 1.07 bench/match_truth.py runs): every double, take and pass counts; a
# no-double counts when it is "close", OPTIMAL - min(DT, 1) < 0.16, where
# ND, DT and DP are the doubler's cubeful equities at the analysis depth in
# normalized money equivalents per unit of the cube now (DP = 1: a pass wins
# the cube's value), and OPTIMAL = max(ND, min(DT, DP)) is the best action's.
# The manual adds "or if the position is too good"; the code does not: a
# too-good play-on counts only within 0.16 of doubling, as here (the
# bench's match-5 game 1: one side played on 13 times too good by 0.18 to
# 1.31, and GNU Backgammon counts 4 cube decisions on that side in all).
CLOSE_CUBE = 0.16


def judge(decision: CubeDecision, ply: int) -> CubeAdvice:
    """``decision`` judged at the review's depth ``ply``, every decision alike
    (GNU Backgammon judges each at its analysis depth; whether a no-double
    counts is read off that one judgement). An even ply is taken one
    shallower: bgsage's even plies end on the opponent's roll and overstate
    the doubler (the odd-even effect: at 2-ply the Expert doubled where GNU
    Backgammon 2-ply and a rollout did not, issue 31)."""
    depth = ply - 1 if ply % 2 == 0 else ply
    return advise(decision.position, decision.context, decision.decision, max(1, depth))


def trivial(decision: CubeDecision, advice: CubeAdvice) -> bool:
    """Not counted in the PR, as GNU Backgammon counts cube decisions: a
    no-double (or a too-good play-on) where doubling would have cost
    ``CLOSE_CUBE`` or more against the best action. Every double, take and
    pass counts."""
    if decision.decision != DOUBLE or decision.action == CubeAction.DOUBLE:
        return False
    e = advice.equities
    return advice.value_of(advice.best) - min(e.double_take, e.double_pass) >= CLOSE_CUBE


def store(row: GameAnalysis, decision: CubeDecision, advice: CubeAdvice) -> None:
    with transaction.atomic():
        CubeAnalysis.objects.update_or_create(
            analysis=row,
            before_turn=decision.before_turn,
            decision=decision.decision,
            defaults={
                "side": decision.side.value,
                "action": decision.action,
                "best": str(advice.best),
                "equity_lost": advice.loss(decision.action),
                "error_class": advice.error(decision.action).value,
                "trivial": trivial(decision, advice),
                "report": advice.to_json(),
            },
        )
