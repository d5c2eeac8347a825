"""How much of the gap between the best play and another each reason carries.

``ai_worker.versus`` names what the best play does that the other does not,
in a teacher's fixed order; this module measures, from the engine, how much
of the equity gap each named difference carries, and ``weighed`` puts the
reasons in that order (the largest first) so the first sentence answers
"why is the other play better". The method, per reason:

- **Gammons and backgammons: exact.** Cubeless money equity is
  ``2·win − 1 + wg + wbg − lg − lbg`` (``ai_worker.sanity.Probs.equity``), so
  the gap splits exactly into a plain-win term ``2·Δwin`` and the terms
  ``Δwg``, ``Δwbg``, ``−Δlg``, ``−Δlbg``: ``wins_gammon`` carries ``Δwg``,
  ``saves_gammon`` carries ``−Δlg``, and so on, at the review's depth.
- **Shots: the rolls that hit, one roll deeper.** Valued one roll deeper
  (the opponent's 21 rolls, its best play of each by the network), the gap
  is a sum over the rolls, each its chance times the two boards'
  difference after it; the rolls that hit a blot of one play and not of the
  other make the shots' part (the hit chance times what those hits cost,
  ``shot_cost``), which ``safer`` carries.
- **Everything else the board shows (hits, points, prime, builders, slots,
  escaping, timing, the race): a counterfactual among the roll's own
  plays.** The difference's value is what the best play loses when it must
  do without that difference and is otherwise played as well as possible:
  ``E(best) − max E(q)`` over the legal plays ``q`` no better than the
  played play in that respect (no more hits, no point there, no more
  builders, ...; the played play is one of them, so the value lies
  between 0 and the whole gap). Every legal play is valued by the network
  alone (the evaluator's 1-ply, about a millisecond a decision), and the
  value is read as a share of the gap at that depth; when the network alone
  does not rank the best play above the played one, these shares are
  unknown.
- ``only_equity`` and ``chances`` name no difference: no share.

A share is a fraction of the gap (``E(best) − E(other)``); the shares need
not add up to one (a blitz's hits also win the gammons the gammon reason
counts), and a gammon share may pass one when the plain wins go the other
way. ``weighed`` sorts by share, largest first; shares within ``TIE`` of
each other keep the teacher's order, and reasons without a share come last. It is run for
played errors only (the review, the tutor's panel): one 1-ply ranking of the
roll and the features of each legal play, and for ``safer`` the opponent's
21 rolls on both boards, each answered by its best play at 1-ply as the
search answers its nodes (``ai_worker.search``; ``bench/teaching.py`` times it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ai_worker.candidates import Candidate
from ai_worker.explain import Reason
from ai_worker.features import Features, position_features
from ai_worker.ranking import Ranked, RankFn, default_rank
from games.engine import ROLLS, Dice, Position

# The exact terms of the gap: the chance each gammon reason compares, and
# the sign that makes it favour the best play.
GAMMON_TERMS = {
    "wins_gammon": ("win_gammon", 1),
    "saves_gammon": ("lose_gammon", -1),
    "wins_backgammon": ("win_backgammon", 1),
    "saves_backgammon": ("lose_backgammon", -1),
}
# Shares this close (a fraction of the gap) are one share: the teacher's
# order decides (the network's values are not finer than that).
TIE = 0.05
SHARE_DIGITS = 2  # as stored


@dataclass(frozen=True)
class _Play:
    """One legal play as the counterfactual needs it."""

    result: Position
    equity: float  # the network's (1-ply)
    win: float
    hits: int

    @cached_property
    def after(self) -> Features:
        """Its features, made when a reason first asks (most plays are
        never asked: ``_counterfactual`` stops at the first that lacks)."""
        return position_features(self.result, shots=False)  # no LACKS reads shots


Lacks = Callable[[_Play, _Play, Reason], bool]


def _no_more(value: Callable[[_Play], float]) -> Lacks:
    """A play lacks the difference when ``value`` is no larger than the
    played play's."""
    return lambda q, other, reason: value(q) <= value(other)


def _no_fewer(value: Callable[[_Play], float]) -> Lacks:
    return lambda q, other, reason: value(q) >= value(other)


def _point_not_made(q: _Play, other: _Play, reason: Reason) -> bool:
    return int(reason.params["point"]) not in q.after.made_points


def _not_slotted(q: _Play, other: _Play, reason: Reason) -> bool:
    return int(reason.params["point"]) not in q.after.blots


def _rolls(q: _Play) -> float:
    """Expected rolls to bear off (the database's), infinite outside it."""
    from ai_worker.evaluator import bearoff_rolls

    rolls = bearoff_rolls(q.result)
    return rolls if rolls is not None else float("inf")


# For each reason the board shows: when a legal play does without it.
LACKS: dict[str, Lacks] = {
    "hits_more": _no_more(lambda q: q.hits),
    "blitz": _no_more(lambda q: q.hits),
    "prime": _no_more(lambda q: q.after.prime),
    "escapes": _no_fewer(lambda q: q.after.back_checkers),
    "makes_point": _point_not_made,
    "keeps_point": _point_not_made,
    "anchor": _point_not_made,
    "builders": _no_more(lambda q: q.after.builders),
    "slots": _not_slotted,
    "breaks_contact": lambda q, other, reason: q.after.contact,
    "fewer_rolls": _no_fewer(_rolls),
    "better_race": _no_more(lambda q: q.win),
    "bears_off_more": _no_more(lambda q: q.after.borne_off),
    "timing": _no_more(lambda q: q.after.timing),
}


def shares(
    position: Position,
    dice: Dice,
    best: Candidate,
    other: Candidate,
    reasons: Sequence[Reason],
    rank: RankFn = default_rank,
) -> list[float | None]:
    """Each reason's share of the gap between ``best`` and ``other`` (see
    the module), ``None`` where it has none."""
    gap = best.equity - other.equity
    found: list[float | None] = []
    plays: dict[Position, _Play] | None = None
    for reason in reasons:
        if reason.code in GAMMON_TERMS:
            key, sign = GAMMON_TERMS[reason.code]
            term = sign * (best.probs[key] - other.probs[key])
            found.append(term / gap if gap > 0 else None)
            continue
        if reason.code == "safer":
            board = Position.from_position_id
            cost = shot_cost(board(best.result_id), board(other.result_id))
            found.append(max(0.0, cost) / gap if gap > 0 else None)
            continue
        lacks = LACKS.get(reason.code)
        if lacks is None:
            found.append(None)
            continue
        if plays is None:
            plays = _network_values(position, dice, rank)
        found.append(_counterfactual(plays, best, other, reason, lacks))
    return found


def shot_cost(best: Position, other: Position) -> float:
    """What the other play's shots cost against the best's, in equity: one
    roll deeper the gap is a sum over the opponent's 21 rolls (each its
    chance times the two boards' difference after its best play); the rolls
    that hit a blot of one play and not of the other are the shots' part,
    and only theirs are valued."""
    from ai_worker.evaluator import sane_search, to_board26

    search = sane_search()
    pre_b, best_replies = search.replies(to_board26(best))
    pre_o, other_replies = search.replies(to_board26(other))
    total = 0.0
    for (_d1, _d2, weight), b, o in zip(ROLLS, best_replies, other_replies, strict=True):
        if search.hits(pre_b, b) != search.hits(pre_o, o):
            total += weight * (search.reply_equity(pre_b, b) - search.reply_equity(pre_o, o))
    return total / 36


def _counterfactual(
    plays: dict[Position, _Play], best: Candidate, other: Candidate, reason: Reason, lacks: Lacks
) -> float | None:
    b = plays.get(Position.from_position_id(best.result_id))
    o = plays.get(Position.from_position_id(other.result_id))
    if b is None or o is None or b.equity - o.equity <= 0:
        return None  # the network alone does not rank the best play higher
    # The plays are the network's order, best first: the first that does
    # without the difference is the best that does (the played one at worst).
    without = next(q.equity for q in plays.values() if q is o or lacks(q, o, reason))
    return max(0.0, b.equity - without) / (b.equity - o.equity)


def _network_values(position: Position, dice: Dice, rank: RankFn) -> dict[Position, _Play]:
    def one(r: Ranked) -> _Play:
        return _Play(
            result=r.play.result,
            equity=float(r.equity),
            win=float(r.probs.win),
            hits=sum(1 for step in r.play.steps if step.hit),
        )

    ranked = sorted(rank(position, dice, 1), key=lambda r: -float(r.equity))  # best first
    return {r.play.result: one(r) for r in ranked}


def weighed(
    position: Position,
    dice: Dice,
    c: Candidate,
    best: Candidate,
    rank: RankFn = default_rank,
) -> Candidate:
    """``c`` with its ``versus`` reasons in the order of the gap each carries,
    the largest first (``leading_order``), each with its ``share`` (a
    fraction of the gap) when it has one."""
    if not c.versus or c.result_id == best.result_id:
        return c
    # Ordered by the shares as stored, so a page's order follows from them.
    found = [
        None if s is None else round(s, SHARE_DIGITS)
        for s in shares(position, dice, best, c, c.versus, rank)
    ]
    marked = [
        r if s is None else replace(r, params={**r.params, "share": s})
        for r, s in zip(c.versus, found, strict=True)
    ]
    return replace(c, versus=tuple(marked[i] for i in leading_order(found)))


def leading_order(found: Sequence[float | None], tie: float = TIE) -> list[int]:
    """The indices of ``found`` (shares in the teacher's order), the largest
    share first: each time, of the shares within ``tie`` of the largest left,
    the teacher's first; those without a share last, in the teacher's order.

    >>> leading_order([0.2, None, 0.9, 0.88, 0.5])
    [2, 3, 4, 0, 1]
    >>> leading_order([0.99, 1.0])  # a tie: the teacher's order
    [0, 1]
    """
    left = [i for i, s in enumerate(found) if s is not None]
    order = []
    while left:
        top = max(float(found[i] or 0.0) for i in left)
        pick = next(i for i in left if float(found[i] or 0.0) >= top - tie)
        order.append(pick)
        left.remove(pick)
    return order + [i for i, s in enumerate(found) if s is None]
