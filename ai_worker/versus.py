"""What the best play does that another play does not, as a teacher says it.

``versus(before, best, other)`` compares two plays of the same roll from the
same position and returns ``Reason``s in the order a strong teacher weighs
them, the costliest first: the gammon or backgammon won or saved; a blitz
(hits with a strong home board); a prime with opponent checkers behind it;
escaping back checkers; key points made, anchors, points kept (only while
there is contact); builders and slots; the risk as shots at blots that
matter; the race after the roll and the bear-off (rolls to finish in the database,
the chance to win outside it); timing in a holding game. When none of these
differ, the one reason is ``only_equity`` when the two boards truly show the
same things (``same_on_board``), and otherwise ``chances``: both plays, as
moved, with the engine's win, gammon and backgammon chances side by side.

Every sentence must stay true on the two boards: ``bench/_truth.py`` checks
each reason against them by brute force (the rolls that hit, counted by the
rules' own move generator; the points held; the checkers borne off).

Every reason is about the best play ("best" / "other" parameters give both
sides' figures), so the site can word it as "the best play ... ; this one
does not". Pure Python, no Django. For a played error the review and the
tutor put these reasons in the order of the equity each carries
(``ai_worker.attribution``); this fixed order breaks the ties there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ai_worker.explain import Reason, prime_params
from ai_worker.features import Features, count_shots, position_features
from games.engine import Position

# Chances that count as a real difference (of 1): gammons and backgammons.
GAMMON_GAP = 0.04
BACKGAMMON_GAP = 0.02
SHOTS_GAP = 3  # rolls of 36
# When nothing above these lines tells two plays apart: a gammon chance
# worth naming still (1%), one roll of 36, one builder.
SMALL_GAMMON_GAP = 0.01
# A race outside the bear-off database: a difference in the chance to win
# worth naming (the evaluator's sane value, the race after the roll).
RACE_GAP = 0.01
# Timing worth naming: more than half an average roll (8.17 pips) of play
# left before the back checkers must move.
TIMING_GAP = 5
BUILDERS_GAP = 2
# The points worth naming when made (the mover's numbering): the 5-, 4- and
# bar points, the 6- and 3-points in a blitz, and the anchors on the
# opponent's 5-, 4- and bar points (the mover's 20, 21 and 18).
KEY_POINTS = (5, 4, 7, 6, 3, 20, 21, 18)
SLOT_POINTS = (5, 4, 7)


@dataclass(frozen=True, slots=True)
class Side:
    """One play's result as ``versus`` needs it."""

    after: Features
    hits: int
    probs: Mapping[str, float]  # ``candidates.probs_dict``
    rolls: float | None = None  # expected rolls to bear off, when known
    play: str = ""  # the play's notation (the mover's numbering)
    any_shots: int = 0  # rolls of 36 that hit any blot, back checkers too


RollsFn = Callable[[Position], float | None]


def side(
    result: Position,
    hits: int,
    probs: Mapping[str, float],
    rolls: RollsFn | None,
    play: str = "",
) -> Side:
    after = position_features(result)
    any_shots = count_shots(result) if after.blots and after.contact else 0
    return Side(after, hits, probs, rolls(result) if rolls else None, play, any_shots)


def versus(
    before: Features, best: Side, other: Side, count: tuple[bool, bool] = (True, True)
) -> list[Reason]:
    """Why ``best`` is better than ``other``, costliest first (see the module).

    ``count``: whether the mover's gammons and the opponent's are worth more
    than a single at the score (``ai_worker.context.gammons_count``); a
    gammon that counts for nothing is never a reason, and a gammon
    difference left out for it is said as ``gammons_free`` instead."""
    gammons, free = _free(_gammons(best, other, count=count))
    reasons = [
        *gammons,
        *_attack(best, other),
        *_prime(best, other),
        *_escape(best, other),
        *_points(before, best, other),
        *_building(before, best, other),
        *_safety(best, other),
        *_race(best, other),
        *_timing(best, other),
    ]
    if reasons:
        return reasons + free
    # Nothing past the lines above: the smaller differences, which still
    # answer "why" on the board, then what the engine sees.
    gammons, small_free = _free(_gammons(best, other, SMALL_GAMMON_GAP, count))
    free = free or small_free
    small = [
        *gammons,
        *_building(before, best, other, 1),
        *_safety(best, other, 1),
    ]
    if same_on_board(best, other):
        return (small or [Reason("only_equity")]) + free
    return [*small, chances(best, other), *free]


def _free(reasons: list[Reason]) -> tuple[list[Reason], list[Reason]]:
    """(the gammon reasons, the ``gammons_free`` notes): a note is said after
    the reasons, never in place of one."""
    return [r for r in reasons if r.code != "gammons_free"], [
        r for r in reasons if r.code == "gammons_free"
    ]


def same_on_board(best: Side, other: Side) -> bool:
    """Whether the two results show a player the same things: the same hits,
    points held, blots, checkers borne off and on the bar, pip counts."""
    a, o = best.after, other.after
    return best.hits == other.hits and (
        a.made_points,
        a.blots,
        a.borne_off,
        a.opp_on_bar,
        a.on_bar,
        a.pips,
        a.opp_pips,
    ) == (o.made_points, o.blots, o.borne_off, o.opp_on_bar, o.on_bar, o.pips, o.opp_pips)


CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def chances(best: Side, other: Side) -> Reason:
    """No listed feature tells the plays apart: both plays as moved and what
    the engine sees, each side's chances side by side."""
    params: dict[str, object] = {"best_play": best.play, "other_play": other.play}
    for key in CHANCES:
        params[f"best_{key}"] = round(best.probs[key], 3)
        params[f"other_{key}"] = round(other.probs[key], 3)
    return Reason("chances", params)


def _pair(best: float, other: float, digits: int = 3) -> dict[str, float]:
    return {"best": round(best, digits), "other": round(other, digits)}


def _gammons(
    best: Side,
    other: Side,
    small: float | None = None,
    count: tuple[bool, bool] = (True, True),
) -> list[Reason]:
    b, o = best.probs, other.probs
    found, free = [], set()
    backgammons, gammons = (small, small) if small else (BACKGAMMON_GAP, GAMMON_GAP)
    for key, code, gap, sign, whose in (
        ("win_backgammon", "wins_backgammon", backgammons, 1, 0),
        ("lose_backgammon", "saves_backgammon", backgammons, -1, 1),
        ("win_gammon", "wins_gammon", gammons, 1, 0),
        ("lose_gammon", "saves_gammon", gammons, -1, 1),
    ):
        if abs(b[key] - o[key]) >= gap and not count[whose]:
            free.add("mine" if whose == 0 else "theirs")
        elif sign * (b[key] - o[key]) >= gap:
            found.append(Reason(code, _pair(b[key], o[key])))
    # A difference in gammons that cannot matter at this score is said once.
    found += [Reason("gammons_free", {"whose": whose}) for whose in sorted(free)]
    return found


def _attack(best: Side, other: Side) -> list[Reason]:
    if best.hits <= other.hits:
        return []
    home = best.after.home_points
    if home >= 3 and best.after.opp_on_bar > other.after.opp_on_bar:
        return [Reason("blitz", {"hits": best.hits, "home_points": home})]
    return [Reason("hits_more", {"best": best.hits, "other": other.hits})]


def _prime(best: Side, other: Side) -> list[Reason]:
    a = best.after
    if a.prime < 4 or not a.trapped or a.prime <= other.after.prime:
        return []
    return [Reason("prime", {**prime_params(a), "other": other.after.prime})]


def _escape(best: Side, other: Side) -> list[Reason]:
    b, o = best.after.back_checkers, other.after.back_checkers
    if not best.after.contact and not other.after.contact or b >= o:
        return []
    return [Reason("escapes", {"best": b, "other": o})]


def _points(before: Features, best: Side, other: Side) -> list[Reason]:
    if not best.after.contact:
        return []
    mine, theirs = set(best.after.made_points), set(other.after.made_points)
    found = []
    # The key points first, then any other point the best play makes alone
    # (not the 1- and 2-points), then any it keeps that the other gives up.
    others = sorted(mine - set(KEY_POINTS) - set(before.made_points) - {1, 2}, reverse=True)
    others += sorted((mine & set(before.made_points)) - set(KEY_POINTS), reverse=True)
    # What the other play holds that the best does not, said with it: a
    # trade of points is never told by one side alone.
    held = set(KEY_POINTS) | set(before.made_points)
    traded = sorted((theirs - mine) & held, reverse=True)
    for point in [*KEY_POINTS, *others]:
        if point in mine and point not in theirs:
            code = "anchor" if point >= 18 else "makes_point"
            if point in before.made_points:
                code = "keeps_point"
            params: dict[str, object] = {"point": point}
            if traded:
                params["other_points"] = traded
            found.append(Reason(code, params))
    return found


def _building(before: Features, best: Side, other: Side, gap: int = BUILDERS_GAP) -> list[Reason]:
    """Builders and slots, while there are points to make: not once every
    checker of the mover's is home (a bear-off)."""
    a, o = best.after, other.after
    if not a.contact or a.bearing_off or o.bearing_off:
        return []
    found = []
    if a.builders - o.builders >= gap:
        found.append(Reason("builders", {"best": a.builders, "other": o.builders}))
    # A slot is a checker put alone on an empty point by this play.
    empty = set(before.blots) | set(before.made_points)
    slots = [
        p
        for p in SLOT_POINTS
        if p in a.blots and p not in empty and p not in o.blots and p not in o.made_points
    ]
    if slots:
        found.append(Reason("slots", {"point": slots[0]}))
    return found


def _safety(best: Side, other: Side, gap: int = SHOTS_GAP) -> list[Reason]:
    """Fewer shots at the blots that matter. The back checkers left out of
    ``shots`` (``exposed_blots``) are named with the rolls that hit any blot,
    so the page says "safer" only when that count agrees, and what the back
    checkers risk either way."""
    a, o = best.after, other.after
    if o.shots - a.shots < gap:
        return []
    params: dict[str, object] = {
        "best": a.shots,
        "other": o.shots,
        "best_points": list(a.exposed),
        "other_points": list(o.exposed),
        "best_all": best.any_shots,
        "other_all": other.any_shots,
        "best_back_points": [p for p in a.blots if p not in a.exposed],
        "other_back_points": [p for p in o.blots if p not in o.exposed],
    }
    return [Reason("safer", params)]


def _race(best: Side, other: Side) -> list[Reason]:
    a, o = best.after, other.after
    if not a.contact and o.contact:
        return [Reason("breaks_contact", {"lead": a.opp_pips - a.pips})]
    if a.contact or o.contact:
        return []
    if best.rolls is not None and other.rolls is not None:
        if other.rolls - best.rolls > 0.005:
            return [Reason("fewer_rolls", _pair(best.rolls, other.rolls, 2))]
    elif best.probs["win"] - other.probs["win"] >= RACE_GAP:
        # Outside the database: the race after the roll, as the evaluator
        # values it (every chance here is the race's: nothing can be hit).
        return [Reason("better_race", _pair(best.probs["win"], other.probs["win"]))]
    if a.borne_off > o.borne_off:
        return [Reason("bears_off_more", {"best": a.borne_off, "other": o.borne_off})]
    return []


def _timing(best: Side, other: Side) -> list[Reason]:
    """A holding or back game (contact, two or more back checkers on both
    sides of the comparison, the mover not ahead in the race): the best play
    keeps more pips to play before its back checkers must move."""
    a, o = best.after, other.after
    if not (a.contact and o.contact) or min(a.back_checkers, o.back_checkers) < 2:
        return []
    if a.back_checkers != o.back_checkers or a.pips < a.opp_pips:
        return []  # escaping is its own reason; a side ahead wants to run
    if a.timing - o.timing < TIMING_GAP:
        return []
    return [Reason("timing", {"best": a.timing, "other": o.timing})]
