"""PR (performance rating, eXtreme Gammon's scale) from a review's stored decisions.

One place computes it, from the stored per-decision losses
(``TurnAnalysis.equity_lost`` and ``CubeAnalysis.equity_lost``): the review's
summary stores what ``pr_figures`` returns, and the pages read that. The
rule for which decisions count is ``ai_worker.grading.obvious_play`` (XG's:
forced plays and plays whose legal plays are all within 0.001 of the best are
left out) and, for the cube, the review's ``trivial`` flag.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ai_worker.grading import obvious_play, performance_rating, pr_band

# analyse_turn keeps this many alternatives: a report listing fewer lists every legal play.
STORED_ALTERNATIVES = 5


class StoredTurn(Protocol):
    side: str
    forced: bool
    equity_lost: float
    report: Any


class StoredCube(Protocol):
    side: str
    trivial: bool
    equity_lost: float


def play_spread(report: dict[str, Any]) -> float | None:
    """The best legal play's equity minus the worst's, as the review stored it;
    for a review from before it was stored, read off the alternatives when they
    are every legal play; None when it cannot be known (then the play counts)."""
    if report.get("spread") is not None:
        return float(report["spread"])
    alternatives = report.get("alternatives") or []
    if 1 < len(alternatives) < STORED_ALTERNATIVES:
        equities = [float(a["equity"]) for a in alternatives]
        return max(equities) - min(equities)
    return None


def counts(turn: StoredTurn) -> bool:
    """Whether a reviewed checker play counts in the PR (it is not obvious)."""
    return not obvious_play(turn.forced, play_spread(turn.report or {}))


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
