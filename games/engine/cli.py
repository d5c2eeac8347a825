"""``python -m games.engine``: legal plays for a Position ID and dice, or a text board.

python -m games.engine plays POSITION_ID D1 D2
python -m games.engine plays --batch < lines_of_POSITION_ID_D1_D2
python -m games.engine show POSITION_ID
python -m games.engine verify-dice --server-seed HEX --person-seed S [--commitment HEX] R=D1D2
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.engine.dice import Dice
from games.engine.display import board_text
from games.engine.errors import InvalidNotationError
from games.engine.fairdice import check_rolls, commitment, server_seed_from_hex
from games.engine.plays import legal_plays
from games.engine.position import Position


def plays_lines(pid: str, d1: int, d2: int) -> list[str]:
    """``NOTATION<TAB>RESULT_POSITION_ID`` for each distinct legal play.

    >>> plays_lines('4HPwATDgc/ABMA', 6, 5)[0]
    '24/13\\t4HPwATDgc/ADIA'
    """
    return [f"{n}\t{r}" for n, r in _plays(pid, d1, d2)]


def _plays(pid: str, d1: int, d2: int) -> list[tuple[str, str]]:
    position = Position.from_position_id(pid)
    return [(p.notation(), p.result.position_id()) for p in legal_plays(position, Dice(d1, d2))]


def batch_line(line: str) -> dict[str, Any]:
    """One ``--batch`` answer; bad input gives ``{"input": ..., "error": ...}``."""
    parts = line.split()
    try:
        if len(parts) != 3:
            raise ValueError("expected POSITION_ID D1 D2")
        d1, d2 = int(parts[1]), int(parts[2])
        plays = [{"notation": n, "result": r} for n, r in _plays(parts[0], d1, d2)]
    except ValueError as error:
        return {"input": line.strip(), "error": str(error)}
    return {"position": parts[0], "dice": [d1, d2], "plays": plays}


def run_batch(stdin: TextIO, stdout: TextIO) -> int:
    for line in stdin:
        if line.strip():
            stdout.write(json.dumps(batch_line(line), ensure_ascii=False) + "\n")
            stdout.flush()
    return 0


def verify_lines(
    server_seed_hex: str, person_seed: str, committed: str | None, rolls: Sequence[str]
) -> tuple[bool, list[str]]:
    """Each roll ``R=D1D2`` beside what the seeds give; (all match, lines).

    >>> ok, lines = verify_lines("00" * 32, "s", None, ["0=11"])
    >>> ok, lines[0].split(":")[0]
    (False, 'roll 0')
    """
    seed = server_seed_from_hex(server_seed_hex)
    lines: list[str] = []
    ok = True
    if committed is not None:
        same = commitment(seed) == committed.strip().lower()
        ok = same
        lines.append(
            "commitment: matches"
            if same
            else f"commitment: DOES NOT MATCH (the seed's SHA-256 is {commitment(seed)})"
        )
    for check in check_rolls(seed, person_seed, [_roll_arg(text) for text in rolls]):
        played = f"{check.played[0]}-{check.played[1]}"
        if check.matches:
            lines.append(f"roll {check.roll}: {played} matches")
        else:
            ok = False
            derived = f"{check.derived[0]}-{check.derived[1]}"
            lines.append(
                f"roll {check.roll}: played {played}, the seeds give {derived}: DOES NOT MATCH"
            )
    return ok, lines


def _roll_arg(text: str) -> tuple[int, tuple[int, int]]:
    number, _, dice = text.partition("=")
    if not (number.isdigit() and len(dice) == 2 and all(c in "123456" for c in dice)):
        raise ValueError(f"a roll is written R=D1D2, e.g. 0=51, not {text!r}")
    return int(number), (int(dice[0]), int(dice[1]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    plays = commands.add_parser("plays", help="list the legal plays")
    plays.add_argument("--batch", action="store_true", help="read lines from stdin, write JSON")
    plays.add_argument("position_id", nargs="?")
    plays.add_argument("d1", nargs="?", type=int)
    plays.add_argument("d2", nargs="?", type=int)
    show = commands.add_parser("show", help="print a text board")
    show.add_argument("position_id")
    verify = commands.add_parser("verify-dice", help="recompute a game's rolls from its seeds")
    verify.add_argument("--server-seed", required=True, help="64 hex digits, shown after the game")
    verify.add_argument("--person-seed", required=True)
    verify.add_argument("--commitment", help="the SHA-256 shown before the first roll")
    verify.add_argument("rolls", nargs="*", help="R=D1D2: roll number R as played")
    args = parser.parse_args(argv)
    try:
        if args.command == "verify-dice":
            ok, lines = verify_lines(
                args.server_seed, args.person_seed, args.commitment, args.rolls
            )
            print("\n".join(lines))
            return 0 if ok else 1
        if args.command == "show":
            print(board_text(Position.from_position_id(args.position_id)))
            return 0
        if args.batch:
            return run_batch(sys.stdin, sys.stdout)
        if args.position_id is None or args.d1 is None or args.d2 is None:
            parser.error("plays needs POSITION_ID D1 D2 (or --batch)")
        for line in plays_lines(args.position_id, args.d1, args.d2):
            print(line)
    except (InvalidNotationError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
