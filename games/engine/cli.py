"""``python -m games.engine``: legal plays for a Position ID and dice, or a text board.

python -m games.engine plays POSITION_ID D1 D2
python -m games.engine plays --batch < lines_of_POSITION_ID_D1_D2
python -m games.engine show POSITION_ID
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
    args = parser.parse_args(argv)
    try:
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
