"""Stored games and matches as match files (``.mat``), for download and ``export_match``.

What is written, and the players' names: docs/interfaces.md §1 ("Match
files", the site). Read only: this module changes nothing.
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import Dice, Position, ResultKind, Side, play_leading_to
from games.engine.matfile import (
    Action,
    ActionKind,
    GameRecord,
    MatchRecord,
    MatFileError,
    MatProblem,
    Win,
    play_text,
    write_mat,
)
from games.models import START_POSITION_ID, CubeAction, Game, Status, Turn


def export_text(game: Game) -> str:
    """The match file of ``game``: its whole match, or the game alone."""
    return write_mat(match_record(game))


def exportable(game: Game) -> bool:
    """Whether a match file can hold ``game``: its games start from the opening position."""
    first = game.turns.order_by("number").only("position_before").first()
    start = first.position_before if first is not None else game.position_id
    return game.match_id is not None or start == START_POSITION_ID


def file_name(game: Game) -> str:
    if game.match_id is not None:
        return f"shuanglu-match-{game.match_id}.mat"
    return f"shuanglu-game-{game.pk}.mat"


def match_record(game: Game) -> MatchRecord:
    length, opponent = 0, ""
    rows = Game.objects.filter(pk=game.pk)
    if game.match_id is not None:
        assert game.match is not None
        length, opponent = game.match.length, game.match.opponent_name
        rows = Game.objects.filter(match_id=game.match_id)
    games = rows.order_by("match_game").prefetch_related(
        Prefetch("turns", queryset=Turn.objects.order_by("number")),
        Prefetch("cube_actions", queryset=CubeAction.objects.order_by("number")),
    )
    named = game.file_players  # an imported game: the file's own players
    if named is not None:
        players = (_name(named[0]), _name(named[1]))
    else:
        players = (_name(game.owner.get_username()), _name(opponent or f"Shuanglu-{game.tier}"))
    records = tuple(game_record(g) for g in games)
    comments = (
        '[Site "Shuanglu"]',
        f'[EventDate "{game.created_at:%Y.%m.%d}"]',
        f'[Jacoby "{"On" if game.jacoby else "Off"}"]',
    )
    return MatchRecord(players, length, records, comments)


def _name(name: str) -> str:
    # A name is one cell of the score line: no colon, no line break.
    return " ".join(name.replace(":", " ").split())[:40] or "?"


def game_record(game: Game) -> GameRecord:
    """One stored game as its record: turns and cube actions in order, then the result."""
    cube_actions: dict[int, list[CubeAction]] = {}
    for cube in game.cube_actions.all():
        cube_actions.setdefault(cube.before_turn, []).append(cube)
    actions: list[Action] = []
    turns = list(game.turns.all())
    for turn in turns:
        actions += [_cube_action(c) for c in cube_actions.pop(turn.number, [])]
        actions.append(_roll(turn))
    for later in sorted(cube_actions):  # after the last turn: a double, its answer
        actions += [_cube_action(c) for c in cube_actions[later]]
    win = None
    if game.status == Status.FINISHED and game.winner:
        win = Win(Side(game.winner), _points_written(game))
    return GameRecord((game.score_light, game.score_dark), tuple(actions), win)


def _points_written(game: Game) -> int:
    """In a match, gnubg's full value (kind × cube), not the points the site counted."""
    if game.match_id is None:
        return game.points
    full = game.cube_value if game.passed else ResultKind(game.result_kind).points * game.cube_value
    return max(game.points, full)


def _cube_action(cube: CubeAction) -> Action:
    return Action(Side(cube.side), ActionKind(cube.action), cube=cube.value)


def _roll(turn: Turn) -> Action:
    """A turn as gnubg writes it: hop by hop in the mover's numbering, hits starred."""
    side = Side(turn.side)
    dice = Dice(turn.die1, turn.die2)
    before = Position.from_position_id(turn.position_before)
    after = Position.from_position_id(turn.position_after)
    if side is Side.DARK:
        before, after = before.swapped(), after.swapped()
    play = play_leading_to(before, dice, after) if turn.notation else None
    hops = [(s.src, s.dst, s.hit) for s in play.steps] if play is not None else []
    return Action(side, ActionKind.ROLL, dice, play_text(hops))


def _problem_words(error: MatFileError) -> str:
    params = {key: _param(value) for key, value in error.params.items()}
    words = {
        MatProblem.TOO_LARGE: _("The file is larger than %(limit)s bytes."),
        MatProblem.NOT_TEXT: _("This is not a text file."),
        MatProblem.NO_LENGTH: _("There is no “N point match” line: this is not a match file."),
        MatProblem.MATCH_TOO_LONG: _("The match is longer than %(limit)s points."),
        MatProblem.NUMBER_TOO_LARGE: _("A number on this line is past %(limit)s."),
        MatProblem.UNSUPPORTED_LENGTH: _(
            "A match to %(length)s points cannot be stored: the site plays matches to "
            "1, 3, 5, 7, 9, 11 or 15 points."
        ),
        MatProblem.TOO_MANY_GAMES: _("The file has more than %(limit)s games."),
        MatProblem.TOO_MANY_ROWS: _("A game has more than %(limit)s lines."),
        MatProblem.NO_GAMES: _("The file has no finished game."),
        MatProblem.BAD_SCORE_LINE: _("The players' names and scores cannot be read."),
        MatProblem.BAD_ROW: _("This line cannot be read."),
        MatProblem.UNSUPPORTED: _("Beavers are not played here."),
        MatProblem.AFTER_END: _("The game is already over."),
        MatProblem.BAD_MOVE: _("The move cannot be read."),
        MatProblem.ILLEGAL_MOVE: _("The move is not legal with the roll %(dice)s."),
        MatProblem.OUT_OF_TURN: _("It is not this player's turn for that."),
        MatProblem.CUBE_REFUSED: _CUBE_REFUSED.get(
            str(error.params.get("reason", "")), _("The rules do not allow a double here.")
        ),
        MatProblem.BAD_CUBE_VALUE: _("The double should turn the cube to %(expected)s."),
        MatProblem.OPENING_DOUBLET: _("The opening roll cannot be a double."),
        MatProblem.WRONG_WINNER: _("The winner written is not the side that won the game."),
        MatProblem.BAD_POINTS: _("The points do not fit how the game ended."),
        MatProblem.BAD_SCORE: _("The score does not follow from the games before (%(expected)s)."),
        MatProblem.UNFINISHED_GAME: _("This game has no result, and another game follows it."),
        MatProblem.AFTER_MATCH: _("A game follows the end of the match."),
    }
    return str(words[error.problem]) % params if params else str(words[error.problem])


_CUBE_REFUSED = {
    "crawford_game": gettext_lazy("No doubling in the Crawford game."),
    "not_your_cube": gettext_lazy("The other side owns the cube."),
    "cube_at_max": gettext_lazy("The cube is at 64, as high as it goes."),
    "dead_cube": gettext_lazy("The cube already wins the match for the doubler: no double here."),
}


def _param(value: object) -> str:
    if isinstance(value, tuple):
        return "–".join(str(v) for v in value)
    return str(value)


def describe_mat_error(error: MatFileError) -> str:
    """The fault in words: the line, the move as written, and what is wrong."""
    problem = _problem_words(error)
    values = {"line": error.line, "text": error.text, "problem": problem}
    if error.line and error.text:
        return _("Line %(line)s (%(text)s): %(problem)s") % values
    if error.line:
        return _("Line %(line)s: %(problem)s") % values
    return problem
