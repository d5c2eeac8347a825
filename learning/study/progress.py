"""Progress (进步) on the history page: the person's PR per game over time
(a dot per game, coloured by the tier played) with its moving average, XG's
PR bands, the person's level (running PR over the last 10 and 50 games, its
band, the closest tier), the luck beside it, and the PR by phase of the
game, in words.

Everything is read from the reviews (``GameAnalysis.summary`` for the games,
``TurnAnalysis`` and ``CubeAnalysis`` for the phases) of the games the
history page shows, so its filters (a tier, dates) narrow the graph too. A
game's rate is the review's overall one (``total_error_rate``): checker plays
and cube decisions together, forced moves and trivial no-doubles left out,
as the review's summary counts them; its PR the one the review stored
(``learning.review.pr``). The graph is drawn by the
template as SVG from the coordinates computed here; no script, no library.

The scale keeps the PR bands readable: it reaches ``OUTLIER_TIMES`` the
median game's PR (the lower median, at least ``BAND_TOP``), so one very bad
game does not squeeze the others and the bands to the floor; a game above it
is an outlier, drawn on the top edge as a triangle with its rate written
beside it. The band names are set at least ``LABEL_GAP`` apart (a short line
leads from a moved name to its band), so they never overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ai_worker.grading import PR_BANDS, pr_band
from games.engine import Position
from games.models import Game, own_record
from games.tiers import closest_tier, tier_spec
from learning.models import AnalysisState, CubeAnalysis, GameAnalysis, TurnAnalysis
from learning.review.phases import (
    BEAROFF,
    CHECKER_PHASES,
    CUBE,
    MIDDLE,
    OPENING,
    PHASE_LABELS,
    RACE,
    phase_of,
)
from learning.review.pr import counts, stored_pr
from learning.words.labels import PR_LABELS

MOVING = 5  # games in the moving average
WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 96, 12, 24  # RIGHT leaves room for the band names
LUCK_HEIGHT = 90
BAND_TOP = 35.0  # the scale's least top: above the last band (30)
LEVEL_WINDOWS = (10, 50)  # the running PR's windows, in reviewed games
OUTLIER_TIMES = 2.5  # the scale reaches this many times the median game's rate
LABEL_GAP = 14  # the band names' least distance: their font is 10 units, their box 12 (study.css)

WHERE_LOST: dict[str, Promise] = {
    OPENING: _("Most of your equity goes in the opening: %(share)s%% of all you gave away."),
    MIDDLE: _("Most of your equity goes in the middle game: %(share)s%% of all you gave away."),
    RACE: _("Most of your equity goes in the race: %(share)s%% of all you gave away."),
    BEAROFF: _("Most of your equity goes in the bear-off: %(share)s%% of all you gave away."),
    CUBE: _("Most of your equity goes in your cube decisions: %(share)s%% of all you gave away."),
}
LEVEL_WORDS = _("Your level is close to %(tier)s.")


@dataclass(frozen=True)
class GamePoint:
    game_id: int
    when: Any
    tier: str  # its label
    tier_key: str  # the dot's colour
    rate: float  # the game's PR: equity lost per non-obvious decision × 500 (learning.review.pr)
    average: float  # moving average of ``rate`` over the last MOVING games
    luck: float  # the person's total luck in the game, in equity
    x: float
    y: float
    average_y: float
    luck_y: float
    outlier: bool  # above the scale: drawn on its top edge as a triangle
    mark: str = ""  # an outlier's triangle (SVG points), its tip on the top edge
    mark_label_x: float = 0.0  # where its rate is written, right of the triangle


def overall_rate(row: GameAnalysis) -> float | None:
    """The person's PR in one review, checker plays and cube decisions together."""
    return stored_pr(row.summary)


def reviewed(games: QuerySet[Game]) -> list[GameAnalysis]:
    """The finished reviews of ``games`` where the person made a decision, oldest
    first; an imported study's never (its LIGHT is not the person)."""
    rows = GameAnalysis.objects.filter(
        own_record("game__"), game__in=games.order_by().values("pk"), state=AnalysisState.DONE
    ).select_related("game")
    rows = rows.order_by("game__finished_at", "game__created_at", "game__pk")
    return [r for r in rows if overall_rate(r) is not None]


def progress_of(games: QuerySet[Game]) -> dict[str, Any] | None:
    """The graph's points and scales, the level, the totals by phase; None without reviews."""
    rows = reviewed(games)
    if not rows:
        return None
    rates = [overall_rate(r) or 0.0 for r in rows]
    top = scale_top(rates)
    lucks = [float(r.summary["light"].get("luck") or 0.0) for r in rows]
    luck_top = max(0.5, max(abs(v) for v in lucks) * 1.1)
    points = _points(rows, rates, lucks, top, luck_top)
    return {
        "points": points,
        "average_line": " ".join(f"{p.x:.1f},{p.average_y:.1f}" for p in points),
        "bands": _bands(top),
        "outliers": sum(p.outlier for p in points),
        "top": round(top, 1),
        "axis": _axis(top),
        "luck_zero": _luck_y(0.0, luck_top),
        "luck_top": round(luck_top, 2),
        "size": {"width": WIDTH, "height": HEIGHT, "luck_height": LUCK_HEIGHT},
        "plot": {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM},
        "phases": phase_totals(rows),
        "moving": MOVING,
        "level": level_of(rows),
        "tiers": _tier_legend(points),
    }


def running_pr(rows: list[GameAnalysis]) -> float | None:
    """PR over ``rows`` pooled as one long session: every counted decision's
    loss over their number (a game with more decisions weighs more)."""
    lost = decisions = 0.0
    for row in rows:
        figures = row.summary["light"]["pr"]
        n = figures["decisions"] + figures["cube_decisions"]
        lost += float(figures["overall"]) * n
        decisions += n
    return round(lost / decisions, 2) if decisions else None


def level_of(rows: list[GameAnalysis]) -> dict[str, Any]:
    """The running PR over the last 10 and 50 reviewed games, the band and the
    tier closest to the last 10 (the tiers' PRs as bench/strength.py --pr measured them)."""
    windows = []
    for i, n in enumerate(LEVEL_WINDOWS):
        if i and len(rows) <= LEVEL_WINDOWS[i - 1]:
            break  # the smaller window holds every game already
        pr = running_pr(rows[-n:])
        windows.append(
            {
                "games": min(n, len(rows)),
                "window": n,
                "pr": pr,
                "band": PR_LABELS[pr_band(pr)] if pr is not None else None,
            }
        )
    now = running_pr(rows[-LEVEL_WINDOWS[0] :])
    tier = closest_tier(now) if now is not None else None
    label = tier_spec(tier).label if tier is not None else None
    return {
        "windows": windows,
        "tier": tier.value if tier is not None else None,
        "words": LEVEL_WORDS % {"tier": _(label)} if label else "",
    }


def _tier_legend(points: list[GamePoint]) -> list[dict[str, str]]:
    seen: dict[str, str] = {}
    for p in points:
        seen.setdefault(p.tier_key, p.tier)
    return [{"key": key, "label": label} for key, label in seen.items()]


def scale_top(rates: list[float]) -> float:
    """The rate at the top of the graph: 10% above the highest game that is not
    an outlier; an outlier is above ``OUTLIER_TIMES`` the lower median."""
    ordered = sorted(rates)
    ceiling = max(BAND_TOP, OUTLIER_TIMES * ordered[(len(ordered) - 1) // 2])
    kept = [r for r in ordered if r <= ceiling]
    return max(BAND_TOP, max(kept) * 1.1)


def _x(i: int, n: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span * i / (n - 1) if n > 1 else span / 2)


def _y(rate: float, top: float) -> float:
    """The height of ``rate``; a rate above the scale on its top edge."""
    return TOP + (1 - min(rate, top) / top) * (HEIGHT - TOP - BOTTOM)


def _luck_y(luck: float, luck_top: float) -> float:
    return LUCK_HEIGHT / 2 - luck / luck_top * (LUCK_HEIGHT / 2 - 6)


def _points(
    rows: list[GameAnalysis], rates: list[float], lucks: list[float], top: float, luck_top: float
) -> list[GamePoint]:
    points = []
    for i, (row, rate, luck) in enumerate(zip(rows, rates, lucks, strict=True)):
        window = rates[max(0, i - MOVING + 1) : i + 1]
        average = sum(window) / len(window)
        points.append(
            GamePoint(
                game_id=row.game_id,
                when=row.game.finished_at or row.game.created_at,
                tier=row.game.get_tier_display(),
                tier_key=row.game.tier,
                rate=round(rate, 1),
                average=round(average, 1),
                luck=round(luck, 3),
                x=round(_x(i, len(rows)), 1),
                y=round(_y(rate, top), 1),
                average_y=round(_y(average, top), 1),
                luck_y=round(_luck_y(luck, luck_top), 1),
                outlier=rate > top,
                **(_mark(_x(i, len(rows))) if rate > top else {}),
            )
        )
    return points


def _mark(x: float) -> dict[str, Any]:
    """An outlier's triangle pointing up from the top edge, and its label's x."""
    tip, base = TOP, TOP + 9
    points = f"{x:.1f},{tip} {x - 5:.1f},{base} {x + 5:.1f},{base}"
    return {"mark": points, "mark_label_x": round(x + 7, 1)}


def _bands(top: float) -> list[dict[str, Any]]:
    """XG's PR bands as lines: below each line the player earns its name.

    Each name is at its line unless that puts it nearer than ``LABEL_GAP`` to
    the name below (then it moves up) or above the plot (then the names move
    down together); ``label_y`` is where it is written."""
    bands: list[dict[str, Any]] = []
    for bound, name in PR_BANDS:
        if bound < top:
            y = round(_y(bound, top), 1)
            bands.append({"rate": bound, "y": y, "label_y": y, "label": PR_LABELS[name]})
    for below, band in zip(bands, bands[1:], strict=False):  # bottom up
        band["label_y"] = min(band["y"], below["label_y"] - LABEL_GAP)
    if bands and bands[-1]["label_y"] < TOP:
        bands[-1]["label_y"] = TOP
        for above, band in zip(bands[::-1], bands[-2::-1], strict=False):  # top down
            band["label_y"] = max(band["label_y"], above["label_y"] + LABEL_GAP)
    for band in bands:
        band["label_y"] = round(band["label_y"], 1)
        band["moved"] = band["label_y"] != band["y"]
    return bands


def _axis(top: float) -> list[dict[str, Any]]:
    step = 5 if top <= 40 else 10 if top <= 80 else 20
    return [{"rate": r, "y": round(_y(r, top), 1)} for r in range(0, int(top) + 1, step)]


def phase_totals(rows: list[GameAnalysis]) -> dict[str, Any]:
    """Equity lost by the person per phase, its PR, the share of the whole, in words.

    The decisions are those PR counts (``learning.review.pr.counts``: not forced, not
    all plays alike). The cube is a phase of its own, listed when one of the
    games has the cube; its decisions are the review's counted ones (not the
    trivial no-doubles)."""
    phases = CHECKER_PHASES + ((CUBE,) if any(r.game.has_cube for r in rows) else ())
    lost = dict.fromkeys(phases, 0.0)
    decisions = dict.fromkeys(phases, 0)
    turns = TurnAnalysis.objects.filter(analysis__in=rows, side="light", forced=False)
    for t in turns.select_related("turn"):
        if not counts(t):
            continue
        position = Position.from_position_id(t.turn.position_before)  # LIGHT on roll
        phase = phase_of(position, t.turn.number)
        lost[phase] += t.equity_lost
        decisions[phase] += 1
    if CUBE in lost:
        cubes = CubeAnalysis.objects.filter(analysis__in=rows, side="light", trivial=False)
        for equity_lost in cubes.values_list("equity_lost", flat=True):
            lost[CUBE] += equity_lost
            decisions[CUBE] += 1
    total = sum(lost.values())
    table = [
        {
            "phase": p,
            "label": PHASE_LABELS[p],
            "decisions": decisions[p],
            "lost": round(lost[p], 3),
            "rate": round(500 * lost[p] / decisions[p], 1) if decisions[p] else None,
            "share": round(100 * lost[p] / total) if total else 0,
        }
        for p in phases
    ]
    worst = max(phases, key=lambda p: lost[p])
    share = round(100 * lost[worst] / total) if total else 0
    words = WHERE_LOST[worst] % {"share": share} if total else ""
    return {"table": table, "total": round(total, 3), "worst": worst, "words": words}
