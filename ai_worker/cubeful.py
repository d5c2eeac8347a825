"""A play's value with the cube in play, in the judgement unit (``ai_worker.context``).

The board after a play (the mover's side, the opponent to roll) is valued
as bgsage's ``BgBotAnalyzer.checker_play`` values it with a cube and a
score, by the same public functions of its engine (``bgbot_cpp``):

- at 1-ply, Janowski's formula on the cubeless chances, with bgsage's cube
  life for the board (``cube_efficiency``): ``cl2cf_money`` in a money game
  (gammons count single while the cube is centred under Jacoby), ``cl2cf``
  at a match score;
- deeper, bgsage's cube-aware tree (``cubeful_probs_and_equity_nply``): the
  opponent's cube decision and its replies are searched with the cube and
  the score, Janowski only at the leaves, as GNU Backgammon's N-ply cubeful
  evaluation does.

Both answer per unit of the cube now: cubeful money equity in a money game,
normalized money equivalents ("EMG", bgsage's ``mwc2eq`` at the cube now,
checked against ``eq2mwc`` in tests/ai/test_cubeful.py) in a match. What
the site does itself is only the bookkeeping: our engine lists the plays
and ``ai_worker.sanity`` cleans the chances, as for the cubeless ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai_worker.context import CubeContext


def _owner(context: CubeContext, *, turned: bool = False) -> Any:
    """bgsage's cube owner as the mover sees it (``turned``: as its opponent does)."""
    import bgbot_cpp

    owner = context.cube.owner
    if owner is None:
        return bgbot_cpp.CubeOwner.CENTERED
    mine = (owner is context.mover) != turned
    return bgbot_cpp.CubeOwner.PLAYER if mine else bgbot_cpp.CubeOwner.OPPONENT


def janowski(board: list[int], chances: Sequence[float], context: CubeContext) -> float:
    """The mover's cubeful equity after its play (bgsage's ``board``, the
    opponent to roll) from its cubeless ``chances``: bgsage's 1-ply."""
    import bgbot_cpp

    probs = [float(p) for p in chances]
    mine, theirs = bgbot_cpp.pip_counts(board)
    life = bgbot_cpp.cube_efficiency(probs, bgbot_cpp.is_race(board), mine, theirs)
    m, owner = context.match, _owner(context)
    if m.is_money:
        centred = context.cube.owner is None
        return float(bgbot_cpp.cl2cf_money(probs, owner, life, jacoby_active=m.jacoby and centred))
    away = (m.away(context.mover), m.away(context.mover.other))
    cube = context.cube.value
    return float(bgbot_cpp.cl2cf(probs, cube, owner, life, *away, m.crawford, jacoby=False))


def searched(
    strategy: Any, db: Any, board: list[int], pre: list[int], ply: int, context: CubeContext
) -> tuple[tuple[float, ...], float]:
    """(the mover's chances, its cubeful equity) after its play at ``ply``:
    bgsage's cube-aware tree on the opponent's board before its roll, as
    ``checker_play`` searches each candidate (``strategy`` its 1-ply
    strategy, ``db`` the bear-off database or None, ``pre`` the board
    before the play)."""
    import bgbot_cpp

    m = context.match
    score: dict[str, Any] = {"jacoby": m.is_money and m.jacoby, "beaver": False}
    if not m.is_money:
        score.update(
            cube_value=context.cube.value,
            away1=m.away(context.mover.other),
            away2=m.away(context.mover),
            is_crawford=m.crawford,
        )
    found = bgbot_cpp.cubeful_probs_and_equity_nply(
        bgbot_cpp.flip_board(board),
        _owner(context, turned=True),
        strategy,
        ply,
        n_threads=1,
        bearoff_db=db,
        root_board=pre,
        **score,
    )
    theirs = [float(p) for p in found["probs"]]
    mine = (1.0 - theirs[0], theirs[3], theirs[4], theirs[1], theirs[2])
    return mine, -float(found["equity"])
