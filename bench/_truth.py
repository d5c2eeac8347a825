"""A brute force on two boards: is a comparison sentence true?

``contradictions(position, best, other, reasons)`` checks each reason
``ai_worker.versus`` gives for ``best`` against ``other`` (both plays of the
same roll from ``position``, the mover's side) on the two boards it leads to,
with nothing of ``ai_worker.features``: the rolls that hit a blot are counted
by the rules' own move generator (``games.engine.legal_plays``, for each of
the opponent's 21 rolls), points held, checkers borne off, pips and hits are
read off the boards. It answers what each false claim says, empty when every
claim holds. Used by tests/learning/test_comparisons.py and bench/teaching.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from games.engine import Dice, Play, Position, legal_plays

Check = Callable[[Position, Play, Play, Mapping[str, Any]], list[str]]
KEY_POINTS = (5, 4, 7, 6, 3, 20, 21, 18)


@lru_cache(maxsize=4096)
def _hit_points(position: Position) -> tuple[tuple[int, frozenset[int]], ...]:
    """For each of the opponent's 21 rolls: (weight, the mover's points some
    legal play of that roll hits)."""
    opponent = Position(position.opp, position.me)
    found = []
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            hit = {
                25 - step.dst
                for play in legal_plays(opponent, Dice(d1, d2))
                for step in play.steps
                if step.hit
            }
            found.append((1 if d1 == d2 else 2, frozenset(hit)))
    return tuple(found)


def rolls_hitting(position: Position, points: Iterable[int]) -> int:
    """Of the 36 rolls, how many let the opponent hit a checker on ``points``."""
    wanted = set(points)
    return sum(w for w, hit in _hit_points(position) if hit & wanted)


def blots(position: Position) -> set[int]:
    return {p for p in range(1, 25) if position.me[p - 1] == 1}


def held(position: Position) -> set[int]:
    return {p for p in range(1, 25) if position.me[p - 1] >= 2}


def hits(play: Play) -> int:
    return sum(1 for s in play.steps if s.hit)


def pips(side: Sequence[int]) -> int:
    return sum(p * n for p, n in enumerate(side, 1))


def contact(position: Position) -> bool:
    mine = [p for p in range(1, 26) if position.me[p - 1]]
    theirs = [25 - q for q in range(1, 26) if position.opp[q - 1]]
    return bool(mine and theirs) and max(mine) > min(theirs)


def borne_off(position: Position) -> int:
    return 15 - sum(position.me)


def back(position: Position) -> int:
    return sum(position.me[18:25])


def weak_board(position: Position) -> bool:
    """The opponent's home board (the mover's 19..24) holds fewer than four
    points and no checker of the mover's is on the bar: no blitz."""
    points = sum(1 for q in range(1, 7) if position.opp[q - 1] >= 2)
    return points < 4 and position.me[24] == 0


def _claim(ok: bool, text: str) -> list[str]:
    return [] if ok else [text]


def _gammons(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    return _claim(p["best"] != p["other"], "the two chances are equal")


def _blitz(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    a = best.result
    home = sum(1 for q in range(1, 7) if a.me[q - 1] >= 2)
    return [
        *_claim(hits(best) == p["hits"] > hits(other), f"hits {hits(best)} vs {hits(other)}"),
        *_claim(home == p["home_points"], f"home points {home}"),
    ]


def _hits_more(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    ok = (hits(best), hits(other)) == (p["best"], p["other"]) and p["best"] > p["other"]
    return _claim(ok, f"hits {hits(best)} vs {hits(other)}")


def _prime(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    a = held(best.result)
    run = all(q in a for q in range(p["bottom"], p["top"] + 1))
    length = p["top"] - p["bottom"] + 1
    o = held(other.result)
    longest = max(
        (
            n
            for s in range(1, 25)
            for n in range(1, 25 - s + 1)
            if all(s + i in o for i in range(n))
        ),
        default=0,
    )
    return [
        *_claim(run and length == p["length"], f"no {p['length']}-point prime there"),
        *_claim(longest < length, f"the other play's prime is {longest} long"),
    ]


def _escapes(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    b, o = back(best.result), back(other.result)
    return _claim((b, o) == (p["best"], p["other"]) and b < o, f"back checkers {b} vs {o}")


def _points(kind: str) -> Check:
    def check(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
        point = p["point"]
        a, o, before = held(best.result), held(other.result), held(pos)
        wrong = _claim(point in a and point not in o, f"the {point} point is not the best's alone")
        if kind == "keeps":
            wrong += _claim(point in before, f"the {point} point was not held before")
        else:
            wrong += _claim(point not in before, f"the {point} point was held before")
        if kind == "anchor":
            wrong += _claim(point >= 18, f"{point} is no anchor")
        # A trade is told: every point the other play holds alone among the
        # key points and those held before is named.
        traded = (o - a) & (set(KEY_POINTS) | before)
        named = set(p.get("other_points") or [])
        wrong += _claim(named == traded, f"points the other play holds alone: {sorted(traded)}")
        return wrong

    return check


def _builders(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    home = not any(best.result.me[6:]) or not any(other.result.me[6:])
    return _claim(not home, "builders while bearing off")


def _slots(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    point = p["point"]
    return _claim(
        pos.me[point - 1] == 0
        and best.result.me[point - 1] == 1
        and other.result.me[point - 1] == 0,
        f"the {point} point is not slotted by the best play alone",
    )


def _safer(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    wrong: list[str] = []
    for name, play in (("best", best), ("other", other)):
        board = play.result
        if "best_points" not in p:
            wrong.append("the blots are not named")
            return wrong
        shown, behind = set(p[f"{name}_points"]), set(p[f"{name}_back_points"])
        all_blots = blots(board)
        wrong += _claim(shown | behind == all_blots, f"{name}: blots {sorted(all_blots)}")
        wrong += _claim(
            all(q >= 19 for q in behind) and (not behind or weak_board(board)),
            f"{name}: {sorted(behind)} are not back checkers that cost little",
        )
        n = rolls_hitting(board, shown)
        wrong += _claim(n == p[name], f"{name}: {n} rolls hit {sorted(shown)}, not {p[name]}")
        n_all = rolls_hitting(board, all_blots)
        wrong += _claim(n_all == p[f"{name}_all"], f"{name}: {n_all} rolls hit a blot")
    wrong += _claim(p["best"] < p["other"], "no fewer shots at the blots that matter")
    return wrong


def _breaks_contact(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    a = best.result
    lead = pips(a.opp) - pips(a.me)
    return _claim(
        not contact(a) and contact(other.result) and lead == p["lead"], "no contact broken"
    )


def _race(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    return _claim(not contact(best.result) and not contact(other.result), "not a race")


def _bears_off_more(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    b, o = borne_off(best.result), borne_off(other.result)
    return _claim((b, o) == (p["best"], p["other"]) and b > o, f"borne off {b} vs {o}")


def _timing(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    def left(board: Position) -> int:
        return sum((q - 1) * board.me[q - 1] for q in range(2, 19))

    b, o = left(best.result), left(other.result)
    return _claim((b, o) == (p["best"], p["other"]) and b > o, f"timing {b} vs {o}")


def same_things(pos: Position, best: Play, other: Play) -> bool:
    a, o = best.result, other.result
    return (
        hits(best) == hits(other)
        and held(a) == held(o)
        and blots(a) == blots(o)
        and borne_off(a) == borne_off(o)
        and (a.me[24], a.opp[24]) == (o.me[24], o.opp[24])
        and (pips(a.me), pips(a.opp)) == (pips(o.me), pips(o.opp))
    )


def _only_equity(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    return _claim(same_things(pos, best, other), "the boards do not show the same things")


def _chances(pos: Position, best: Play, other: Play, p: Mapping[str, Any]) -> list[str]:
    ok = (p["best_play"], p["other_play"]) == (best.notation(), other.notation())
    return _claim(ok, "the plays named are not the two plays")


CHECKS: dict[str, Check] = {
    "wins_gammon": _gammons,
    "saves_gammon": _gammons,
    "wins_backgammon": _gammons,
    "saves_backgammon": _gammons,
    "blitz": _blitz,
    "hits_more": _hits_more,
    "prime": _prime,
    "escapes": _escapes,
    "makes_point": _points("makes"),
    "keeps_point": _points("keeps"),
    "anchor": _points("anchor"),
    "builders": _builders,
    "slots": _slots,
    "safer": _safer,
    "breaks_contact": _breaks_contact,
    "fewer_rolls": _race,
    "better_race": _race,
    "bears_off_more": _bears_off_more,
    "timing": _timing,
    "only_equity": _only_equity,
    "chances": _chances,
    # A note on the score (ai_worker.context.gammons_count): nothing on the boards to refute.
    "gammons_free": lambda *_args: [],
}

# The reasons that name a difference on the board (not only the numbers).
VAGUE = frozenset({"only_equity", "chances", "gammons_free"})


def contradictions(
    position: Position, best: Play, other: Play, reasons: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Every claim of ``reasons`` (``{"code", "params"}``) the two boards refute."""
    wrong = []
    for reason in reasons:
        check = CHECKS.get(str(reason["code"]))
        if check is None:
            wrong.append(f"{reason['code']}: no check for this code")
            continue
        wrong += [f"{reason['code']}: {w}" for w in check(position, best, other, reason["params"])]
    return wrong
