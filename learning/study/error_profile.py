"""Where a player's equity goes: the error profile by phase and by kind (issue 34).

A reviewed decision's loss falls in one cell of phase × kind. The phase is
``learning.review.phases.phase_of``'s (opening, middle game, race, bear-off; the
cube its own); the kind is read off the review's own comparison of the best
play with the one made (``ai_worker.versus``'s reason codes, stored as the
played candidate's ``versus``: for a played error in the order of the share
of the gap each carries, ``ai_worker.attribution``):

- ``blots``: the best play leaves fewer shots at the blots that matter
  (``safer``): a blot left;
- ``hits``: the best play hits more (``hits_more``, ``blitz``): a hit missed;
- ``points``: the best play makes, keeps or primes a point the other does not
  (``makes_point``, ``anchor``, ``keeps_point``, ``prime``): a point not made;
- ``bearoff``: any error in the bear-off phase;
- ``cube``: a cube decision;
- ``other``: the rest (gammon chances, escaping, building, the race, timing,
  or nothing a player would name).

The first code of the list that names a kind decides (records reviewed
before the reasons were ordered by their share have the teacher's fixed
order, costliest first by rule). The profile is each
cell's share of the equity lost (the PR's parts); two profiles are compared
by their total variation distance (half the sum of the shares' differences:
0 the same, 1 nothing in common), over the checker cells by default, since
the benches' games are cubeless. No bear-in phase: ``phase_of`` counts a
bear-in as the middle game while there is contact, else as the race.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from learning.review.phases import BEAROFF, CHECKER_PHASES, CUBE, PHASES

BLOTS = "blots"
HITS = "hits"
POINTS = "points"
BEAROFF_KIND = "bearoff"
CUBE_KIND = "cube"
OTHER = "other"
KINDS = (BLOTS, HITS, POINTS, BEAROFF_KIND, CUBE_KIND, OTHER)
KIND_OF_REASON = {
    "safer": BLOTS,
    "hits_more": HITS,
    "blitz": HITS,
    "makes_point": POINTS,
    "anchor": POINTS,
    "keeps_point": POINTS,
    "prime": POINTS,
}

Cell = tuple[str, str]  # (phase, kind)


def error_kind(phase: str, why: Sequence[str]) -> str:
    """The kind of an error in ``phase`` whose review said ``why`` (versus codes).

    >>> error_kind("middle", ["escapes", "safer", "makes_point"])
    'blots'
    >>> error_kind("bearoff", ["safer"]), error_kind("race", ["fewer_rolls"])
    ('bearoff', 'other')
    """
    if phase == CUBE:
        return CUBE_KIND
    if phase == BEAROFF:
        return BEAROFF_KIND
    return next((KIND_OF_REASON[c] for c in why if c in KIND_OF_REASON), OTHER)


def cells(checker_only: bool = True) -> list[Cell]:
    """Every cell a profile can have, in table order."""
    found = [
        (phase, kind)
        for phase in CHECKER_PHASES
        if phase != BEAROFF
        for kind in (BLOTS, HITS, POINTS, OTHER)
    ]
    found.append((BEAROFF, BEAROFF_KIND))
    return found if checker_only else [*found, (CUBE, CUBE_KIND)]


@dataclass
class Profile:
    """Equity lost and decisions counted per cell (the decisions the PR counts)."""

    lost: dict[Cell, float] = field(default_factory=dict)
    decisions: dict[Cell, int] = field(default_factory=dict)

    def add(self, phase: str, why: Sequence[str], loss: float) -> None:
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r}")
        cell = (phase, error_kind(phase, why))
        self.lost[cell] = self.lost.get(cell, 0.0) + loss
        self.decisions[cell] = self.decisions.get(cell, 0) + 1

    def extend(self, decisions: Iterable[dict[str, Any]]) -> Profile:
        """Add decisions stored as {"phase", "why", "loss"} (bench/_pr.py's records)."""
        for d in decisions:
            self.add(d["phase"], d.get("why") or [], float(d["loss"]))
        return self

    def counted(self, checker_only: bool = True) -> int:
        return sum(n for c, n in self.decisions.items() if not checker_only or c[0] != CUBE)

    def pr(self, checker_only: bool = True) -> float | None:
        n = self.counted(checker_only)
        total = sum(x for c, x in self.lost.items() if not checker_only or c[0] != CUBE)
        return 500 * total / n if n else None

    def shares(self, checker_only: bool = True) -> dict[Cell, float]:
        """Each cell's share of the equity lost (summing to 1; empty when nothing was lost)."""
        keep = cells(checker_only)
        total = sum(self.lost.get(c, 0.0) for c in keep)
        return {c: self.lost.get(c, 0.0) / total for c in keep} if total > 0 else {}

    def kind_shares(self, checker_only: bool = True) -> dict[str, float]:
        out: dict[str, float] = {}
        for (_phase, kind), share in self.shares(checker_only).items():
            out[kind] = out.get(kind, 0.0) + share
        return out

    def phase_shares(self, checker_only: bool = True) -> dict[str, float]:
        out: dict[str, float] = {}
        for (phase, _kind), share in self.shares(checker_only).items():
            out[phase] = out.get(phase, 0.0) + share
        return out


def distance(a: Profile, b: Profile, checker_only: bool = True) -> float | None:
    """Total variation distance between two profiles' shares (None when one lost nothing).

    >>> one, two = Profile(), Profile()
    >>> one.add("middle", ["safer"], 0.1); two.add("middle", ["hits_more"], 0.1)
    >>> distance(one, one), distance(one, two)
    (0.0, 1.0)
    """
    p, q = a.shares(checker_only), b.shares(checker_only)
    if not p or not q:
        return None
    return 0.5 * sum(abs(p.get(c, 0.0) - q.get(c, 0.0)) for c in cells(checker_only))


def site_profile(studies: bool = False) -> Profile:
    """The people's own reviewed errors in this database: the owner's side
    (LIGHT) of every reviewed game of their own record, checker plays the PR
    counts (``learning.review.pr.counts``) and cube decisions not trivial; with
    ``studies``, both sides of imported games no side of which is the owner's
    (people in match files) too."""
    from games.models import own_record
    from learning.models import AnalysisState, CubeAnalysis, TurnAnalysis
    from learning.review.game import mover_positions
    from learning.review.phases import phase_of
    from learning.review.pr import counts

    profile = Profile()
    done = {"analysis__state": AnalysisState.DONE}
    mine = own_record("analysis__game__")
    turns = TurnAnalysis.objects.filter(mine, side="light", forced=False, **done)
    cubes = CubeAnalysis.objects.filter(mine, side="light", trivial=False, **done)
    if studies:
        study = {"analysis__game__imported_from__claimed": False}
        turns = turns | TurnAnalysis.objects.filter(forced=False, **study, **done)
        cubes = cubes | CubeAnalysis.objects.filter(trivial=False, **study, **done)
    for t in turns.select_related("turn").iterator():
        if not counts(t):
            continue
        position, _after = mover_positions(t.turn)
        played = (t.report or {}).get("played_candidate") or {}
        why = [r["code"] for r in played.get("versus", [])]
        profile.add(phase_of(position, t.turn.number), why, t.equity_lost)
    for loss in cubes.values_list("equity_lost", flat=True):
        profile.add(CUBE, [], loss)
    return profile


def table(profiles: dict[str, Profile], checker_only: bool = True) -> list[str]:
    """Text lines: each profile's PR and shares by kind and by phase (in %)."""
    kinds = [k for k in KINDS if not checker_only or k != CUBE_KIND]
    phases = [p for p in PHASES if not checker_only or p != CUBE]
    head = f"{'':<22}{'PR':>6}{'n':>7} | " + " ".join(f"{k:>7}" for k in kinds)
    head += " | " + " ".join(f"{p:>7}" for p in phases)
    lines = [head]
    for name, profile in profiles.items():
        pr, n = profile.pr(checker_only), profile.counted(checker_only)
        by_kind, by_phase = profile.kind_shares(checker_only), profile.phase_shares(checker_only)
        line = f"{name:<22}{'—' if pr is None else f'{pr:.1f}':>6}{n:>7} | "
        line += " ".join(f"{100 * by_kind.get(k, 0.0):>6.1f}%" for k in kinds)
        line += " | " + " ".join(f"{100 * by_phase.get(p, 0.0):>6.1f}%" for p in phases)
        lines.append(line)
    return lines
