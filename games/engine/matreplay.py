"""Replay a match file's records through the rules: every play, cube action and result.

``replay_match`` checks each game of a ``MatchRecord`` (``games.engine.matfile``)
move by move: each play is read against the board and dice
(``parse_play``), each double against the cube and score
(``double_refusal``), and the result against the board: the last checker
off, a pass, or a resignation. The first fault raises ``MatFileError``
naming its line and move.

>>> from games.engine.matfile import SAMPLE, parse_mat
>>> game = replay_match(parse_mat(SAMPLE)).games[0]
>>> [turn.play.notation() for turn in game.turns if turn.play]
['8/3 6/3', '24/16', '8/5 6/5']
>>> end = game.end
>>> end.winner, end.kind, end.points, end.how
(<Side.DARK: 'dark'>, <ResultKind.SINGLE: 'single'>, 2, <EndHow.RESIGNED: 'resigned'>)
>>> game.cube
Cube(value=2, owner=<Side.LIGHT: 'light'>)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.engine.cube import Cube, Match, double_refusal, result_points
from games.engine.errors import IllegalPlayError, InvalidNotationError
from games.engine.matfile import Action, ActionKind, GameRecord, MatchRecord, MatFileError, Win
from games.engine.matfile import MatProblem as P
from games.engine.outcome import ResultKind, outcome
from games.engine.plays import Play, parse_play
from games.engine.position import Position, Side


class EndHow(enum.StrEnum):
    PLAYED = "played"  # the last checker borne off
    PASSED = "passed"  # a double refused
    RESIGNED = "resigned"


@dataclass(frozen=True, slots=True)
class GameEnd:
    winner: Side
    kind: ResultKind  # a pass counts as a single game
    points: int  # as the file gives them (gnubg: the full value, past the match's end)
    how: EndHow


@dataclass(frozen=True, slots=True)
class ReplayedTurn:
    """One action with the board (LIGHT's side) and cube it was made on."""

    action: Action
    board: Position
    cube: Cube
    play: Play | None = None  # for a roll


@dataclass(frozen=True, slots=True)
class ReplayedGame:
    record: GameRecord
    match: Match  # the score at the start (LIGHT left, DARK right), Crawford flag
    turns: tuple[ReplayedTurn, ...]
    board: Position  # the last board, LIGHT's side
    cube: Cube
    end: GameEnd | None  # None: the game is unfinished (only the file's last)

    @property
    def starter(self) -> Side | None:
        return self.turns[0].action.side if self.turns else None


@dataclass(frozen=True, slots=True)
class ReplayedMatch:
    record: MatchRecord
    games: tuple[ReplayedGame, ...]


def replay_match(record: MatchRecord) -> ReplayedMatch:
    """Every game replayed; ``MatFileError`` at the first illegal move or wrong score."""
    games: list[ReplayedGame] = []
    match = _first_match(record)
    scores = list(record.games[0].score)
    for index, game in enumerate(record.games):
        if index:
            if match.winner is not None:
                raise MatFileError(P.AFTER_MATCH, game.line)
            if list(game.score) != scores and tuple(game.score) != (match.light, match.dark):
                expected = (scores[0], scores[1])
                raise MatFileError(P.BAD_SCORE, game.line + 1, params={"expected": expected})
        replayed = _Game(match).run(game)
        if replayed.end is None and index < len(record.games) - 1:
            raise MatFileError(P.UNFINISHED_GAME, game.line)
        games.append(replayed)
        if replayed.end is not None:
            scores[0 if replayed.end.winner is Side.LIGHT else 1] += replayed.end.points
            match = _next_match(match, replayed.end)
    return ReplayedMatch(record, tuple(games))


def _first_match(record: MatchRecord) -> Match:
    light, dark = record.games[0].score
    length = record.length
    if length and max(light, dark) >= length:
        raise MatFileError(P.BAD_SCORE, record.games[0].line + 1, params={"expected": (0, 0)})
    # A file that starts at a side's match point minus one starts with the Crawford game.
    crawford = bool(length) and length - 1 in (light, dark)
    return Match(length, light, dark, crawford)


def _next_match(match: Match, end: GameEnd) -> Match:
    return match.after(end.winner, end.points)


class _Game:
    """The state of one game being replayed."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.board = Position.start()
        self.cube = Cube()
        self.on_turn: Side | None = None
        self.doubled: Side | None = None  # a double awaiting its answer
        self.end: GameEnd | None = None
        self.turns: list[ReplayedTurn] = []

    def run(self, record: GameRecord) -> ReplayedGame:
        for action in record.actions:
            self._act(action)
        if record.win is not None:
            self._finish(record.win)
        return ReplayedGame(record, self.match, tuple(self.turns), self.board, self.cube, self.end)

    def _act(self, action: Action) -> None:
        if self.end is not None:
            raise MatFileError(P.AFTER_END, action.line, action.text().strip())
        before = ReplayedTurn(action, self.board, self.cube)
        if action.kind is ActionKind.ROLL:
            before = ReplayedTurn(action, self.board, self.cube, self._roll(action))
        elif action.kind is ActionKind.DOUBLE:
            self._double(action)
        else:
            self._answer(action)
        self.turns.append(before)

    def _expect_turn(self, action: Action) -> None:
        if self.on_turn is None and action.kind is ActionKind.ROLL:
            self.on_turn = action.side
        if self.doubled is not None or action.side is not self.on_turn:
            raise MatFileError(P.OUT_OF_TURN, action.line, action.text().strip())

    def _roll(self, action: Action) -> Play:
        assert action.dice is not None
        if self.on_turn is None and action.dice.is_double:
            raise MatFileError(P.OPENING_DOUBLET, action.line, action.text().strip())
        self._expect_turn(action)
        mover = action.side
        position = self.board if mover is Side.LIGHT else self.board.swapped()
        params = {"dice": str(action.dice)}
        try:
            play = parse_play(position, action.dice, action.play)
        except InvalidNotationError as error:
            raise MatFileError(P.BAD_MOVE, action.line, action.play, params) from error
        except IllegalPlayError as error:
            raise MatFileError(P.ILLEGAL_MOVE, action.line, action.play or "-", params) from error
        self.board = play.result if mover is Side.LIGHT else play.result.swapped()
        self.on_turn = mover.other
        result = outcome(play.result, mover)
        if result is not None:
            points = result_points(result.kind, self.cube, Match(), result.winner)
            self.end = GameEnd(result.winner, result.kind, points, EndHow.PLAYED)
        return play

    def _double(self, action: Action) -> None:
        if self.on_turn is None:
            raise MatFileError(P.OUT_OF_TURN, action.line, action.text().strip())
        self._expect_turn(action)
        refusal = double_refusal(self.cube, self.match, action.side)
        if refusal is not None:
            reason = {"reason": refusal.value}
            raise MatFileError(P.CUBE_REFUSED, action.line, action.text().strip(), reason)
        if action.cube != self.cube.value * 2:
            expected = {"expected": self.cube.value * 2}
            raise MatFileError(P.BAD_CUBE_VALUE, action.line, action.text().strip(), expected)
        self.doubled = action.side

    def _answer(self, action: Action) -> None:
        if self.doubled is not action.side.other:
            raise MatFileError(P.OUT_OF_TURN, action.line, action.text().strip())
        if action.kind is ActionKind.TAKE:
            self.cube = self.cube.taken(action.side)
            self.doubled = None
            return
        self.end = GameEnd(action.side.other, ResultKind.SINGLE, self.cube.value, EndHow.PASSED)

    def _finish(self, win: Win) -> None:
        if self.end is None:
            self.end = self._resignation(win)
            return
        if win.side is not self.end.winner:
            raise MatFileError(P.WRONG_WINNER, win.line, win.text().strip())
        if win.points not in _allowed_points(self.end, self.cube, self.match):
            expected = {"expected": self.end.points}
            raise MatFileError(P.BAD_POINTS, win.line, win.text().strip(), expected)
        self.end = GameEnd(self.end.winner, self.end.kind, win.points, self.end.how)

    def _resignation(self, win: Win) -> GameEnd:
        """A result before the game is over: the other side resigned."""
        if self.on_turn is None:
            raise MatFileError(P.BAD_POINTS, win.line, win.text().strip())
        for kind in ResultKind:
            full = kind.points * self.cube.value
            capped = result_points(kind, self.cube, self.match, win.side)
            if win.points in (full, capped):
                return GameEnd(win.side, kind, win.points, EndHow.RESIGNED)
        raise MatFileError(P.BAD_POINTS, win.line, win.text().strip())


def _allowed_points(end: GameEnd, cube: Cube, match: Match) -> set[int]:
    """What a file may give for a result: the full value, capped in a match, Jacoby's single."""
    value = cube.value if end.how is EndHow.PASSED else end.kind.points * cube.value
    allowed = {value, min(value, match.away(end.winner)) if match.length else value}
    if match.is_money and cube.centred:
        allowed.add(cube.value)  # the Jacoby rule counts a single
    return allowed
