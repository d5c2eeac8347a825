"""A puzzle's themes, on three axes, from the position and the review's own
comparison of the right answer with the first rejected play (issue 47).

- **Phase**: opening, middle game, contact endgame, race, bear-off. The
  site's one rule (``learning.review.phases.phase_of``) with the contact
  endgame told apart: contact remains while a side with no checker back
  has at least ``ENDGAME_HOME`` checkers home or off (a bear-in or a
  bear-off against an anchor, an ace-point game).
- **Structure**, for each side, before the roll: race (no contact), back
  game (two points or more in the other's home board, trailing by
  ``BACK_GAME_BEHIND`` pips or more), blitz (three home points or more, an
  opposing checker on the bar or a blot in its home board, no anchor
  against it), priming (a prime of four or more with a checker behind it),
  holding game (one point in the other's home board or on its bar point);
  a side with none of these has no structure tag. The first that holds.
- **What the right answer does**, read off the two plays compared, as the
  review compares them (``ai_worker.explain`` for each play and
  ``ai_worker.versus`` both ways): hit or build, split or build, slot,
  escape, make an anchor, clear a point, bear in safely, bear off against
  contact; for the cube: double, no double, too good, take, pass, and at a
  match score.

A tag is a decision's kind, not its answer: "slot" is a puzzle where one of
the two plays slots and the other does not, and the right one may be
either. No Django here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ai_worker.explain import explain
from ai_worker.features import Features, has_contact, position_features
from ai_worker.versus import side, versus
from games.engine import Play, Position

# Phase
OPENING = "opening"
MIDDLE = "middle"
CONTACT_ENDGAME = "endgame"
RACE = "race"
BEAROFF = "bearoff"
PHASES = (OPENING, MIDDLE, CONTACT_ENDGAME, RACE, BEAROFF)

# Structure (each side)
BACK_GAME = "back_game"
BLITZ = "blitz"
PRIMING = "priming"
HOLDING = "holding"
RACE_GAME = "race"
STRUCTURES = (HOLDING, BLITZ, PRIMING, BACK_GAME, RACE_GAME)

# What the right answer does
HIT_OR_BUILD = "hit_or_build"
SPLIT_OR_BUILD = "split_or_build"
SLOT = "slot"
ESCAPE = "escape"
ANCHOR = "anchor"
CLEAR = "clear_point"
BEAR_IN = "bear_in"
BEAR_OFF_CONTACT = "bear_off_contact"
CHECKER_THEMES = (
    HIT_OR_BUILD,
    SPLIT_OR_BUILD,
    SLOT,
    ESCAPE,
    ANCHOR,
    CLEAR,
    BEAR_IN,
    BEAR_OFF_CONTACT,
)
DOUBLE = "double"
NO_DOUBLE = "no_double"
TOO_GOOD = "too_good"
TAKE = "take"
PASS = "pass"
MATCH_SCORE = "match_score"
CUBE_THEMES = (DOUBLE, NO_DOUBLE, TOO_GOOD, TAKE, PASS, MATCH_SCORE)

ENDGAME_HOME = 10
BACK_GAME_BEHIND = 30
BLITZ_HOME_POINTS = 3
PRIME = 4
OPENING_TURNS = 6  # as learning.review.phases (three rolls a side)
BUILD_POINTS = range(3, 12)  # where a point made or a builder counts as building
BUILDERS_MORE = 2


def phase(position: Position, turn: int) -> str:
    """The phase of the mover's decision in ``position`` on game turn ``turn``.

    >>> phase(Position.start(), 1), phase(Position.start(), 9)
    ('opening', 'middle')
    """
    if not has_contact(position):
        return BEAROFF if not any(position.me[6:]) else RACE
    if _past_and_home(position) or _past_and_home(position.swapped()):
        return CONTACT_ENDGAME
    return OPENING if turn <= OPENING_TURNS else MIDDLE


def _past_and_home(position: Position) -> bool:
    """The mover has no checker back (none in the other's home board or on
    the bar) and ``ENDGAME_HOME`` or more home or off."""
    me = position.me
    home_or_off = sum(me[:6]) + 15 - sum(me)
    return not any(me[18:25]) and home_or_off >= ENDGAME_HOME


def structure(position: Position) -> str | None:
    """The game plan of the side on roll in ``position``, or None."""
    if not has_contact(position):
        return RACE_GAME
    me, f = position.me, position_features(position, shots=False)
    back_points = sum(1 for p in range(19, 25) if me[p - 1] >= 2)
    if back_points >= 2 and f.pips - f.opp_pips >= BACK_GAME_BEHIND:
        return BACK_GAME
    if _blitzing(position, f):
        return BLITZ
    if f.prime >= PRIME and f.trapped:
        return PRIMING
    if any(me[p - 1] >= 2 for p in range(18, 25)):
        return HOLDING
    return None


def _blitzing(position: Position, f: Features) -> bool:
    """Three home points or more against an opposing checker on the bar or
    a blot in the mover's home board, and no anchor of the other there."""
    opp = position.opp
    # The opponent's checkers on the mover's point p sit on its point 25 - p.
    in_my_home = [opp[24 - p] for p in range(1, 7)]
    if any(n >= 2 for n in in_my_home) or f.home_points < BLITZ_HOME_POINTS:
        return False
    return opp[24] > 0 or any(n == 1 for n in in_my_home)


def structures(position: Position) -> tuple[str | None, str | None]:
    """(the mover's structure, the other side's)."""
    return structure(position), structure(position.swapped())


@dataclass(frozen=True, slots=True)
class Compared:
    """The two plays a checker puzzle is about, as the review sees them."""

    before: Features
    best: Features
    other: Features
    best_codes: frozenset[str]  # ai_worker.explain's codes for the best play
    other_codes: frozenset[str]
    best_over: frozenset[str]  # ai_worker.versus: what the best does that the other does not
    other_over: frozenset[str]  # and the other way
    best_hits: int
    other_hits: int


def compare(
    position: Position,
    best: Play,
    other: Play,
    best_probs: Mapping[str, float],
    other_probs: Mapping[str, float],
) -> Compared:
    from ai_worker.evaluator import bearoff_rolls

    before = position_features(position)
    b_hits = sum(1 for s in best.steps if s.hit)
    o_hits = sum(1 for s in other.steps if s.hit)
    b_side = side(best.result, b_hits, best_probs, bearoff_rolls, best.notation())
    o_side = side(other.result, o_hits, other_probs, bearoff_rolls, other.notation())
    return Compared(
        before,
        b_side.after,
        o_side.after,
        frozenset(r.code for r in explain(before, b_side.after, best)),
        frozenset(r.code for r in explain(before, o_side.after, other)),
        frozenset(r.code for r in versus(before, b_side, o_side)),
        frozenset(r.code for r in versus(before, o_side, b_side)),
        b_hits,
        o_hits,
    )


def answer_themes(position: Position, c: Compared) -> list[str]:
    """What the decision between the best play and the other is about."""
    found = []
    for theme, test in _ANSWER_TESTS:
        if test(position, c):
            found.append(theme)
    return found


def _builds(codes: frozenset[str], over: frozenset[str], after: Features, before: Features) -> bool:
    """A play that builds: makes a point on the building points, or carries
    builders or a slot the other play does not."""
    made = set(after.made_points) - set(before.made_points)
    return bool(made & set(BUILD_POINTS)) or bool(over & {"builders", "slots", "prime"})


def _hit_or_build(position: Position, c: Compared) -> bool:
    if (c.best_hits > 0) == (c.other_hits > 0):
        return False
    if c.best_hits:
        return _builds(c.other_codes, c.other_over, c.other, c.before)
    return _builds(c.best_codes, c.best_over, c.best, c.before)


def _split_or_build(position: Position, c: Compared) -> bool:
    if c.best_hits or c.other_hits:
        return False
    b, o = "splits" in c.best_codes, "splits" in c.other_codes
    if b == o:
        return False
    return (
        _builds(c.other_codes, c.other_over, c.other, c.before)
        if b
        else _builds(c.best_codes, c.best_over, c.best, c.before)
    )


def _slot(position: Position, c: Compared) -> bool:
    return "slots" in c.best_over or "slots" in c.other_over


def _escape(position: Position, c: Compared) -> bool:
    return "escapes" in c.best_over or "escapes" in c.other_over


def _anchor(position: Position, c: Compared) -> bool:
    return "anchor" in c.best_over or "anchor" in c.other_over


def _clear(position: Position, c: Compared) -> bool:
    """One play clears a point of the mover's (from two or more to none)
    that the other keeps; the back checkers' points are escaping instead."""
    if not c.before.contact:
        return False
    b_result, o_result = c.best.made_points, c.other.made_points
    for point in c.before.made_points:
        if point >= 19:
            continue
        cleared_b = point not in b_result and point not in c.best.blots
        cleared_o = point not in o_result and point not in c.other.blots
        if cleared_b != cleared_o and (point in b_result or point in o_result):
            return True
    return False


def _bear_in(position: Position, c: Compared) -> bool:
    """Bringing the last checkers home past the other's checkers, where the
    two plays leave different shots."""
    before = c.before
    if not before.contact or before.back_checkers or before.bearing_off:
        return False
    if sum(position.me[:6]) + 15 - sum(position.me) < ENDGAME_HOME - 2:
        return False
    return "safer" in c.best_over or "safer" in c.other_over or c.best.shots != c.other.shots


def _bear_off_contact(position: Position, c: Compared) -> bool:
    return c.before.contact and c.before.bearing_off


_ANSWER_TESTS = (
    (HIT_OR_BUILD, _hit_or_build),
    (SPLIT_OR_BUILD, _split_or_build),
    (SLOT, _slot),
    (ESCAPE, _escape),
    (ANCHOR, _anchor),
    (CLEAR, _clear),
    (BEAR_IN, _bear_in),
    (BEAR_OFF_CONTACT, _bear_off_contact),
)


def checker_themes(
    position: Position,
    turn: int,
    best: Play,
    other: Play,
    best_probs: Mapping[str, float],
    other_probs: Mapping[str, float],
) -> dict[str, object]:
    """Every tag of a checker puzzle: {"phase", "mine", "theirs", "answer": [...]}."""
    mine, theirs = structures(position)
    compared = compare(position, best, other, best_probs, other_probs)
    return {
        "phase": phase(position, turn),
        "mine": mine,
        "theirs": theirs,
        "answer": answer_themes(position, compared),
    }


def cube_themes(
    position: Position, turn: int, question: str, best: str, match: bool
) -> dict[str, object]:
    """A cube puzzle's tags: the right answer (``best``: the review's action
    for ``question``), a match score, the phase and structures."""
    mine, theirs = structures(position)
    answer = [best]
    if match:
        answer.append(MATCH_SCORE)
    del question
    return {"phase": phase(position, turn), "mine": mine, "theirs": theirs, "answer": answer}


def flat(tags: Mapping[str, object]) -> list[str]:
    """The tags as one list of names, as the bank and the filters store them:
    ``phase:…``, ``mine:…``, ``theirs:…`` and the answer's themes."""
    found = [f"phase:{tags['phase']}"]
    for key in ("mine", "theirs"):
        if tags.get(key):
            found.append(f"{key}:{tags[key]}")
    answer = tags.get("answer") or []
    assert isinstance(answer, list)
    found.extend(str(a) for a in answer)
    return found
