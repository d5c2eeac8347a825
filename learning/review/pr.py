"""PR (performance rating, eXtreme Gammon's scale) from a review's stored decisions.

One place computes it, from the stored per-decision losses
(``TurnAnalysis.equity_lost`` and ``CubeAnalysis.equity_lost``): the review's
summary stores what ``pr_figures`` returns, and the pages read that. The
decisions counted are GNU Backgammon's (``ai_worker.grading``): every checker
play but a forced one and, for the cube, every decision the review's
``trivial`` flag does not leave out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ai_worker.grading import performance_rating, pr_band


class StoredTurn(Protocol):
    side: str
    forced: bool
    equity_lost: float
    report: Any


class StoredCube(Protocol):
    side: str
    trivial: bool
    equity_lost: float


def counts(turn: StoredTurn) -> bool:
    """Whether a reviewed checker play counts in the PR: it had a choice."""
    return not turn.forced


def pr_figures(
    side: str, turns: Iterable[StoredTurn], cubes: Iterable[StoredCube]
) -> dict[str, Any]:
    """``side``'s PR: checker plays, cube decisions and both, with the counts and XG's band."""
    plays = [(t.equity_lost, counts(t)) for t in turns if t.side == side]
    cube = [(c.equity_lost, not c.trivial) for c in cubes if c.side == side]
    overall = performance_rating(plays + cube)
    return {
        "checker": _round(performance_rating(plays)),
        "cube": _round(performance_rating(cube)),
        "overall": _round(overall),
        "decisions": sum(1 for _loss, c in plays if c),
        "cube_decisions": sum(1 for _loss, c in cube if c),
        "band": pr_band(overall) if overall is not None else None,
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def stored_pr(summary: dict[str, Any], side: str = "light") -> float | None:
    """The overall PR a review's summary stores for ``side`` (None: none, or an old summary)."""
    value = (summary.get(side) or {}).get("pr", {}).get("overall")
    return None if value is None else float(value)
