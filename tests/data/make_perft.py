"""Generate perft.jsonl.gz: (position, dice) -> the set of resulting Position IDs.

The answers come from bgsage's C++ move generator (``bgsage.possible_moves``),
an implementation independent of games.engine. Run from the repository root:

    .venv/bin/python tests/data/make_perft.py

bgsage's 26-int board is seen from the side on roll: index 1..24 are its
points (positive = its checkers, negative = the opponent's), index 25 its bar
and index 0 the opponent's bar, as a POSITIVE count (a hit raises it by one;
``flip_board`` moves the mover's bar there as +n).

Two known bgsage departures from the rules: with no legal move it returns
the unchanged board, which is written here as no play at all; and it lets the
last checker bear off with one die where another order plays both dice
(checker on 3, opposing blot on the 1-point, 6-2 must be ``3/1*/off``). The
second is kept as bgsage answers it; tests/engine/test_perft.py lists each such
case with the answer the rules give, and tests/engine/test_rules.py has it as a
hand test.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import bgsage

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ai_worker.evaluator import from_board26 as from_board  # noqa: E402  (after the path fix)
from ai_worker.evaluator import to_board26 as to_board  # noqa: E402
from games.engine.position import Position  # noqa: E402

OUT = Path(__file__).with_name("perft.jsonl.gz")
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
Board = list[int]


def pips_moved(before: Position, after: Position) -> int:
    return before.pips()[0] - after.pips()[0]


def dice_used(before: Position, after: Position, dice: tuple[int, int]) -> int:
    """Dice a result used, from the checkers moved (each step moves or bears off one)."""
    moved = pips_moved(before, after)
    if dice[0] == dice[1]:
        return -(-moved // dice[0]) if after.borne_off()[0] == before.borne_off()[0] else -1
    return 2 if moved == sum(dice) else 1 if moved in dice else -1


def expected(position: Position, dice: tuple[int, int]) -> list[str]:
    raw = bgsage.possible_moves(to_board(position), *dice)
    results = {from_board(b) for b in raw} - {position}
    return sorted(r.position_id() for r in results)


def tags_for(position: Position, dice: tuple[int, int], results: list[str]) -> list[str]:
    me, opp = position.me, position.opp
    tags = []
    if me[24]:
        made = sum(1 for i in range(6) if opp[i] >= 2)
        tags.append("bar" + ("_closed" if made == 6 else "_half_closed" if made >= 3 else ""))
    if not any(me[6:25]):
        tags.append("bearoff")
        if opp[24] or any(opp[18:24]):
            tags.append("bearoff_contact")
    contact = max((p for p in range(1, 26) if me[p - 1]), default=0) > min(
        (25 - q for q in range(1, 26) if opp[q - 1]), default=25
    )
    tags.append("contact" if contact else "race")
    if not results:
        tags.append("no_play")
    else:
        used = {dice_used(position, Position.from_position_id(r), dice) for r in results}
        if dice[0] == dice[1] and max(used) in (1, 2, 3):
            tags.append("double_fewer")
        if dice[0] != dice[1] and used == {1}:
            moved = {pips_moved(position, Position.from_position_id(r)) for r in results}
            tags.append("one_die_larger" if moved == {max(dice)} else "one_die_smaller")
    return tags


def scatter(rng: random.Random, count: int, points: list[int], free: set[int]) -> dict[int, int]:
    """Put ``count`` checkers on random points from ``points`` that are in ``free``."""
    placed: Counter[int] = Counter()
    choices = [p for p in points if p in free]
    for _ in range(count):
        placed[rng.choice(choices)] += 1
    return dict(placed)


def build(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """``mine`` by mover point (25 bar), ``theirs`` by the opponent's own point (25 bar)."""
    me, opp = [0] * 25, [0] * 25
    for point, n in mine.items():
        me[point - 1] += n
    for point, n in theirs.items():
        opp[point - 1] += n
    return Position(tuple(me), tuple(opp))


def bar_position(rng: random.Random) -> Position:
    """1-3 mover checkers on the bar against a board with 3-6 points made."""
    made = rng.sample(range(1, 7), rng.randint(3, 6))
    theirs = {p: 2 for p in made}
    spare = 15 - 2 * len(made)
    for point, n in scatter(rng, spare, list(range(1, 25)), set(range(1, 25))).items():
        theirs[point] = theirs.get(point, 0) + n
    blocked = {25 - p for p in theirs}
    bar = rng.randint(1, 3)
    mine = {25: bar}
    free = set(range(1, 25)) - blocked
    mine.update(scatter(rng, 15 - bar - rng.randint(0, 3), list(range(1, 25)), free))
    return build(mine, theirs)


def bearoff_position(rng: random.Random) -> Position:
    """Mover all home (some off); sometimes an opponent checker in or behind it."""
    contact = rng.random() < 0.6
    theirs: dict[int, int] = {}
    if contact:
        spot = rng.choice([25] + list(range(19, 25)))
        theirs[spot] = rng.randint(1, 2) if spot == 25 else 1
    rest = 15 - sum(theirs.values())
    far = list(range(1, 19))
    for point, n in scatter(rng, rest, far, set(far)).items():
        theirs[point] = theirs.get(point, 0) + n
    free = {p for p in range(1, 7) if 25 - p not in theirs}
    mine = scatter(rng, rng.randint(1, 15), list(range(1, 7)), free)
    return build(mine, theirs)


def race_position(rng: random.Random) -> Position:
    split = rng.randint(4, 14)
    mine = scatter(rng, rng.randint(5, 15), list(range(1, split + 1)), set(range(1, 25)))
    theirs = scatter(rng, rng.randint(5, 15), list(range(1, 25 - split)), set(range(1, 25)))
    return build(mine, theirs)


def blocked_position(rng: random.Random) -> Position:
    """Many opposing points made: fertile ground for one-die and short doubles."""
    theirs: dict[int, int] = {}
    for point in rng.sample(range(1, 25), 7):
        theirs[point] = 2
    theirs[rng.choice(list(theirs))] += 1
    free = set(range(1, 25)) - {25 - p for p in theirs}
    mine = scatter(rng, rng.randint(3, 14), list(range(1, 25)), free)
    if rng.random() < 0.3:
        mine[25] = 1
    return build(mine, theirs)


def playout_positions(rng: random.Random, games: int) -> list[Position]:
    seen: list[Position] = []
    for _ in range(games):
        board = list(bgsage.STARTING_BOARD)
        for _turn in range(200):
            seen.append(from_board(board))
            moves = bgsage.possible_moves(board, rng.randint(1, 6), rng.randint(1, 6))
            if moves:
                board = list(rng.choice(moves))
            if bgsage.check_game_over(board):
                break
            board = bgsage.flip_board(board)
    return seen


def hand_cases() -> list[tuple[Position, tuple[int, int]]]:
    """Named cases: bgsage's one-die bear-off departure, and no-play boards."""
    last_checker = build({3: 1}, {24: 1, 1: 14})
    closed = build({25: 2, 6: 13}, {p: 2 for p in range(1, 7)} | {12: 3})
    return [(last_checker, (6, 2)), (last_checker, (2, 6)), (closed, (6, 5)), (closed, (2, 2))]


def main() -> None:
    rng = random.Random(20261130)
    picks: list[tuple[Position, tuple[int, int]]] = list(hand_cases())
    picks += [(Position.start(), roll) for roll in ROLLS]
    played = playout_positions(rng, 60)
    for position in rng.sample(played, 130):
        picks += [(position, roll) for roll in ROLLS]
    makers: list[tuple[Callable[[random.Random], Position], int]] = [
        (bar_position, 30),
        (bearoff_position, 45),
        (race_position, 12),
    ]
    for maker, count in makers:
        for _ in range(count):
            position = maker(rng)
            picks += [(position, roll) for roll in ROLLS]
    wanted = Counter({"one_die_larger": 120, "one_die_smaller": 120, "double_fewer": 150})
    tries = 0
    while +wanted and tries < 200000:
        tries += 1
        position, roll = blocked_position(rng), rng.choice(ROLLS)
        tags = tags_for(position, roll, expected(position, roll))
        hits = [t for t in tags if wanted[t] > 0]
        if hits:
            wanted.subtract(hits)
            picks.append((position, roll))
    write(picks)


def write(picks: list[tuple[Position, tuple[int, int]]]) -> None:
    seen: set[tuple[str, tuple[int, int]]] = set()
    totals: Counter[str] = Counter()
    with gzip.open(OUT, "wt", encoding="ascii") as out:
        for position, roll in picks:
            key = (position.position_id(), roll)
            if key in seen:
                continue
            seen.add(key)
            results = expected(position, roll)
            tags = tags_for(position, roll, results)
            totals.update(tags)
            row = {"position": key[0], "dice": list(roll), "results": results, "tags": tags}
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"{len(seen)} cases written to {OUT.name}; tags: {dict(sorted(totals.items()))}")


if __name__ == "__main__":
    main()
