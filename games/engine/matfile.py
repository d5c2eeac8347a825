"""Match files (``.mat``): the plain-text records GNU Backgammon, XG and Galaxy share.

A file is a few ``;`` comment lines, ``N point match`` (0 for a money
session), then each game: ``Game N``, the two names with their scores at the
game's start, and numbered rows, each the left player's action then the right
player's::

     Game 1
     alice : 0                      bob : 0
      1)                             53: 8/3 6/3
      2) 62: 24/18 18/16              Doubles => 2
      3)  Takes                      31: 8/5 6/5
                                      Wins 2 points

An action is a roll and its play (``62: 24/18 18/16``, each hop as its
player numbers the points, 25 the bar and 0 off; the dice alone when no
move is possible), ``Doubles => 2``, ``Takes`` or ``Drops``; ``Wins N
points`` ends the game, after its last checker, a pass, or a resignation.
Here the left player is ``Side.LIGHT`` and the right one ``Side.DARK``.

This module reads the text into records and writes records back; it checks
the layout only. ``games.engine.matreplay`` plays the records through the
rules. Errors name the line: ``MatFileError``.

>>> record = parse_mat(SAMPLE)
>>> record.players, record.length, len(record.games)
(('alice', 'bob'), 3, 1)
>>> [str(action) for action in record.games[0].actions][:4]
['dark: 53: 8/3 6/3', 'light: 62: 24/18 18/16', 'dark: Doubles => 2', 'light: Takes']
>>> record.games[0].win
Win(side=<Side.DARK: 'dark'>, points=2, line=10)
>>> parse_mat(write_mat(record)) == record
True
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from games.engine.cube import MAX_MATCH_LENGTH
from games.engine.dice import Dice
from games.engine.errors import Param
from games.engine.position import Side

# Limits that protect the server from a hostile upload.
MAX_FILE_BYTES = 256 * 1024
MAX_GAMES = 100
MAX_ROWS = 300  # numbered rows in one game (a long game has about 40)
MAX_LENGTH = MAX_MATCH_LENGTH  # match length in points
MAX_NAME = 40
# Numbers as written, before the rules judge them (play stops at 64): the
# cube a file may name, a game's points, and a money session's running score.
MAX_FILE_CUBE = 1 << 15
MAX_POINTS = 3 * MAX_FILE_CUBE
MAX_SCORE = MAX_GAMES * MAX_POINTS

SAMPLE = """; [EventDate "2026.12.01"]

 3 point match

 Game 1
 alice : 0                      bob : 0
  1)                             53: 8/3 6/3
  2) 62: 24/18 18/16              Doubles => 2
  3)  Takes                      31: 8/5 6/5
                                  Wins 2 points
"""


class MatProblem(enum.StrEnum):
    """What is wrong with a match file (the site words each one)."""

    TOO_LARGE = "too_large"
    NOT_TEXT = "not_text"
    NO_LENGTH = "no_length"  # no "N point match" line
    MATCH_TOO_LONG = "match_too_long"
    NUMBER_TOO_LARGE = "number_too_large"  # a score, cube or points past its limit
    UNSUPPORTED_LENGTH = "unsupported_length"  # a length the site does not play
    TOO_MANY_GAMES = "too_many_games"
    TOO_MANY_ROWS = "too_many_rows"
    NO_GAMES = "no_games"
    BAD_SCORE_LINE = "bad_score_line"
    BAD_ROW = "bad_row"
    UNSUPPORTED = "unsupported"  # beavers, raccoons
    AFTER_END = "after_end"  # an action after the game's result
    # Found while replaying (games.engine.matreplay):
    BAD_MOVE = "bad_move"  # unreadable notation
    ILLEGAL_MOVE = "illegal_move"
    OUT_OF_TURN = "out_of_turn"
    CUBE_REFUSED = "cube_refused"  # a double the rules do not allow now
    BAD_CUBE_VALUE = "bad_cube_value"
    OPENING_DOUBLET = "opening_doublet"
    WRONG_WINNER = "wrong_winner"
    BAD_POINTS = "bad_points"
    BAD_SCORE = "bad_score"  # a game's score does not follow from the ones before
    UNFINISHED_GAME = "unfinished_game"  # a game without a result before the last
    AFTER_MATCH = "after_match"  # a game after a side has won the match


class MatFileError(ValueError):
    """A match file that cannot be read or replayed: the problem, its line and move.

    >>> error = MatFileError(MatProblem.ILLEGAL_MOVE, 7, "24/13", {"dice": "65"})
    >>> str(error)
    'line 7: illegal_move: 24/13 (dice=65)'
    """

    def __init__(
        self,
        problem: MatProblem,
        line: int = 0,
        text: str = "",
        params: Mapping[str, Param] | None = None,
    ) -> None:
        self.problem = problem
        self.line = line
        self.text = text
        self.params: dict[str, Param] = dict(params or {})
        extra = ", ".join(f"{key}={value}" for key, value in self.params.items())
        message = f"line {line}: {problem.value}" if line else problem.value
        message += f": {text}" if text else ""
        super().__init__(message + (f" ({extra})" if extra else ""))


class ActionKind(enum.StrEnum):
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"


@dataclass(frozen=True, slots=True)
class Action:
    """One player's action: a roll and its play, a double (to ``cube``), a take or a pass.

    ``line`` is where it was read (0 when built in code); it does not count
    in comparisons.
    """

    side: Side
    kind: ActionKind
    dice: Dice | None = None
    play: str = ""
    cube: int = 0
    line: int = field(default=0, compare=False)

    def text(self) -> str:
        """The action as a cell of its row (gnubg's spelling)."""
        if self.kind is ActionKind.ROLL:
            return f"{self.dice}: {self.play}".rstrip(" ") if self.play else f"{self.dice}:"
        if self.kind is ActionKind.DOUBLE:
            return f" Doubles => {self.cube}"
        return " Takes" if self.kind is ActionKind.TAKE else " Drops"

    def __str__(self) -> str:
        return f"{self.side.value}: {self.text().strip()}"


@dataclass(frozen=True, slots=True)
class Win:
    """The game's result as written: who wins how many points."""

    side: Side
    points: int
    line: int = field(default=0, compare=False)

    def text(self) -> str:
        return f" Wins {self.points} point{'s' if self.points != 1 else ''}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: the score at its start (LIGHT's, DARK's), its actions and result."""

    score: tuple[int, int]
    actions: tuple[Action, ...]
    win: Win | None = None
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole file: the players (left, right), the length (0: money) and the games."""

    players: tuple[str, str]
    length: int
    games: tuple[GameRecord, ...]
    comments: tuple[str, ...] = field(default=(), compare=False)

    def name(self, side: Side) -> str:
        return self.players[0 if side is Side.LIGHT else 1]


# --- reading ---------------------------------------------------------------

# re.ASCII: ``\d`` is 0-9 only (``int`` reads other scripts' digits, and
# ``str.isdigit`` passes "²", which ``int`` refuses).
_LENGTH = re.compile(r"^\s*(\d+)\s+points?\s+match\b", re.IGNORECASE | re.ASCII)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE | re.ASCII)
_SCORES = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$", re.ASCII)
_ROW = re.compile(r"^(\s*\d+\))(.*)$", re.ASCII)
_DIGITS = re.compile(r"\d+", re.ASCII)
_ROLL = re.compile(r"^([1-6])([1-6]):$")
_STARTS = {"doubles", "takes", "accepts", "drops", "passes", "rejects", "wins", "beavers"}
# A cell that starts this far into its line is in the right column (gnubg: 33).
_RIGHT_COLUMN = 20


@dataclass
class _Reader:
    lines: list[str]
    index: int = 0

    def peek(self) -> str | None:
        while self.index < len(self.lines) and not self.lines[self.index].strip():
            self.index += 1
        return self.lines[self.index] if self.index < len(self.lines) else None

    def take(self) -> tuple[int, str]:
        self.index += 1
        return self.index, self.lines[self.index - 1]


def parse_mat(text: str) -> MatchRecord:
    """Read a match file's text into records; ``MatFileError`` names the line at fault."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise MatFileError(MatProblem.TOO_LARGE, params={"limit": MAX_FILE_BYTES})
    if "\x00" in text:
        raise MatFileError(MatProblem.NOT_TEXT)
    reader = _Reader(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    comments, length = _read_head(reader)
    games: list[GameRecord] = []
    players: tuple[str, str] | None = None
    while reader.peek() is not None:
        number, line = reader.take()
        if not _GAME.match(line):
            raise MatFileError(MatProblem.BAD_ROW, number, line.strip())
        if len(games) == MAX_GAMES:
            raise MatFileError(MatProblem.TOO_MANY_GAMES, number, params={"limit": MAX_GAMES})
        names, game = _read_game(reader, number)
        players = players or names
        games.append(game)
    if players is None:
        raise MatFileError(MatProblem.NO_GAMES, len(reader.lines))
    return MatchRecord(players, length, tuple(games), tuple(comments))


def _read_head(reader: _Reader) -> tuple[list[str], int]:
    comments: list[str] = []
    while (line := reader.peek()) is not None and line.lstrip().startswith(";"):
        reader.take()
        comments.append(line.lstrip()[1:].strip())
    if line is None:
        raise MatFileError(MatProblem.NO_LENGTH, reader.index)
    number, line = reader.take()
    found = _LENGTH.match(line)
    if not found:
        raise MatFileError(MatProblem.NO_LENGTH, number, line.strip())
    length = _number(found.group(1), MAX_LENGTH, number, MatProblem.MATCH_TOO_LONG)
    return comments, length


def _number(
    digits: str, limit: int, line: int, problem: MatProblem = MatProblem.NUMBER_TOO_LARGE
) -> int:
    """``digits`` (ASCII) as a number; ``problem`` past ``limit``, judged on the digits first."""
    if len(digits) > len(str(limit)) or int(digits) > limit:
        raise MatFileError(problem, line, params={"limit": limit})
    return int(digits)


def _read_game(reader: _Reader, start: int) -> tuple[tuple[str, str], GameRecord]:
    if reader.peek() is None:
        raise MatFileError(MatProblem.BAD_SCORE_LINE, start)
    number, line = reader.take()
    found = _SCORES.match(line)
    if not found:
        raise MatFileError(MatProblem.BAD_SCORE_LINE, number, line.strip())
    names = (found.group(1)[:MAX_NAME], found.group(3)[:MAX_NAME])
    score = (_number(found.group(2), MAX_SCORE, number), _number(found.group(4), MAX_SCORE, number))
    actions: list[Action] = []
    win: Win | None = None
    rows = 0
    while (ahead := reader.peek()) is not None and not _GAME.match(ahead):
        number, line = reader.take()
        rows += 1
        if rows > MAX_ROWS:
            raise MatFileError(MatProblem.TOO_MANY_ROWS, number, params={"limit": MAX_ROWS})
        for cell in _cells(line, number):
            if win is not None:
                raise MatFileError(MatProblem.AFTER_END, number, line.strip())
            if isinstance(cell, Win):
                win = cell
            else:
                actions.append(cell)
    return names, GameRecord(score, tuple(actions), win, start)


def _cells(line: str, number: int) -> Iterator[Action | Win]:
    """The one or two cells of a row, each with its side."""
    numbered = _ROW.match(line)
    offset = len(numbered.group(1)) if numbered else 0
    body = numbered.group(2) if numbered else line
    tokens = [(m.start() + offset, m.group()) for m in re.finditer(r"\S+", body)]
    starts = [i for i, (_col, token) in enumerate(tokens) if _starts_cell(token)]
    if not starts or starts[0] != 0 or len(starts) > 2:
        raise MatFileError(MatProblem.BAD_ROW, number, line.strip())
    sides = [Side.LIGHT, Side.DARK]
    if len(starts) == 1 and tokens[0][0] >= _RIGHT_COLUMN:
        sides = [Side.DARK]
    for side, begin, end in zip(sides, starts, [*starts[1:], len(tokens)], strict=False):
        yield _cell(side, [token for _col, token in tokens[begin:end]], number, line)


def _starts_cell(token: str) -> bool:
    return bool(_ROLL.match(token)) or token.lower() in _STARTS


def _cell(side: Side, tokens: list[str], number: int, line: str) -> Action | Win:
    head, rest = tokens[0], tokens[1:]
    word = head.lower()
    roll = _ROLL.match(head)
    if roll:
        dice = Dice(int(roll.group(1)), int(roll.group(2)))
        return Action(side, ActionKind.ROLL, dice, " ".join(rest), line=number)
    if word == "doubles" and len(rest) == 2 and rest[0] == "=>" and _DIGITS.fullmatch(rest[1]):
        cube = _number(rest[1], MAX_FILE_CUBE, number)
        return Action(side, ActionKind.DOUBLE, cube=cube, line=number)
    if word in ("takes", "accepts") and not rest:
        return Action(side, ActionKind.TAKE, line=number)
    if word in ("drops", "passes", "rejects") and not rest:
        return Action(side, ActionKind.PASS, line=number)
    if word == "wins" and rest and _DIGITS.fullmatch(rest[0]):
        words = [token.lower() for token in rest[1:]]
        if words[:1] in (["point"], ["points"]) and words[1:] in ([], ["and", "the", "match"]):
            return Win(side, _number(rest[0], MAX_POINTS, number), number)
    if word == "beavers":
        raise MatFileError(MatProblem.UNSUPPORTED, number, " ".join(tokens))
    raise MatFileError(MatProblem.BAD_ROW, number, line.strip())


# --- writing ---------------------------------------------------------------

_CELL = 28  # the left column's width, as gnubg writes it


def write_mat(record: MatchRecord) -> str:
    """The file's text, laid out as GNU Backgammon writes it."""
    out = [f"; {comment}" for comment in record.comments]
    out += ["", f" {record.length} point match", ""]
    for number, game in enumerate(record.games, start=1):
        out += _game_lines(record.players, number, game)
        out.append("")
    return "\n".join(out) + "\n"


def _game_lines(players: tuple[str, str], number: int, game: GameRecord) -> list[str]:
    left = f" {players[0]} : {game.score[0]}"
    lines = [f" Game {number}", f"{left:<32}{players[1]} : {game.score[1]}"]
    rows: list[list[str]] = []
    for action in game.actions:
        if action.side is Side.LIGHT or not rows or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][0 if action.side is Side.LIGHT else 1] = action.text()
    win = game.win
    if win is not None and win.side is Side.DARK and rows and not rows[-1][1]:
        rows[-1][1], win = win.text(), None  # after the left player's pass: one row
    for index, (cell_left, cell_right) in enumerate(rows, start=1):
        lines.append(f"{index:3d}) {cell_left:<{_CELL - 1}} {cell_right}".rstrip())
    if win is not None:
        indent = 5 if win.side is Side.LIGHT else 5 + _CELL
        lines.append(" " * indent + win.text())
    return lines


def play_text(hops: list[tuple[int, int, bool]]) -> str:
    """A play written hop by hop as gnubg writes it: 25 the bar, 0 off, ``*`` a hit.

    >>> play_text([(25, 22, True), (13, 10, False)])
    '25/22* 13/10'
    """
    return " ".join(f"{src}/{dst}{'*' if hit else ''}" for src, dst, hit in hops)


def swapped(record: MatchRecord) -> MatchRecord:
    """The same record with the columns exchanged (the right player becomes LIGHT)."""
    games = tuple(
        replace(
            game,
            score=(game.score[1], game.score[0]),
            actions=tuple(replace(a, side=a.side.other) for a in game.actions),
            win=replace(game.win, side=game.win.side.other) if game.win else None,
        )
        for game in record.games
    )
    players = (record.players[1], record.players[0])
    return MatchRecord(players, record.length, games, record.comments)
