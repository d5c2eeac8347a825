"""Match files read, replayed and written: GNU Backgammon's own files, and broken ones.

The files under tests/data/gnubg_*.mat were written by GNU Backgammon 1.07
(two 0-ply players, `export match mat`).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engine import Cube, Position, ResultKind, Side
from games.engine.matfile import (
    MAX_FILE_BYTES,
    MAX_GAMES,
    SAMPLE,
    ActionKind,
    MatFileError,
    MatProblem,
    parse_mat,
    swapped,
    write_mat,
)
from games.engine.matreplay import EndHow, replay_match

DATA = Path(__file__).resolve().parents[1] / "data"
LIGHT, DARK = Side.LIGHT, Side.DARK


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def ends(name: str) -> list[tuple[Side, ResultKind, int, EndHow]]:
    match = replay_match(parse_mat(read(name)))
    return [(g.end.winner, g.end.kind, g.end.points, g.end.how) for g in match.games if g.end]


def test_gnubg_match_replays_with_its_cube_actions_and_results() -> None:
    record = parse_mat(read("gnubg_match3.mat"))
    assert record.players == ("alice", "bob") and record.length == 3
    assert [game.score for game in record.games] == [(0, 0), (1, 0), (1, 2), (2, 2)]
    assert ends("gnubg_match3.mat") == [
        (LIGHT, ResultKind.SINGLE, 1, EndHow.PASSED),
        (DARK, ResultKind.SINGLE, 2, EndHow.PLAYED),
        (LIGHT, ResultKind.SINGLE, 1, EndHow.RESIGNED),
        (LIGHT, ResultKind.GAMMON, 2, EndHow.RESIGNED),  # gnubg writes the full value
    ]
    games = replay_match(record).games
    assert games[1].cube == Cube(2, LIGHT)  # bob doubled, alice took
    assert [g.match.crawford for g in games] == [False, False, True, False]
    assert games[1].board.borne_off() == (1, 15) and games[3].board.borne_off() == (8, 0)


def test_gnubg_resignation_and_take() -> None:
    assert ends("gnubg_match3_short.mat") == [
        (DARK, ResultKind.SINGLE, 1, EndHow.PASSED),
        (LIGHT, ResultKind.GAMMON, 4, EndHow.RESIGNED),
    ]
    game = replay_match(parse_mat(read("gnubg_match3_short.mat"))).games[1]
    assert game.cube == Cube(2, DARK) and game.board.borne_off() == (11, 0)


def test_gnubg_money_games() -> None:
    assert parse_mat(read("gnubg_money_pass.mat")).length == 0
    assert ends("gnubg_money_pass.mat") == [(DARK, ResultKind.SINGLE, 1, EndHow.PASSED)]
    assert ends("gnubg_money_take.mat") == [(LIGHT, ResultKind.SINGLE, 2, EndHow.RESIGNED)]


@pytest.mark.parametrize(
    "name", ["gnubg_match3.mat", "gnubg_match3_short.mat", "gnubg_money_pass.mat"]
)
def test_written_file_is_gnubgs_layout(name: str) -> None:
    text = read(name)
    record = parse_mat(text)
    written = write_mat(record)
    assert parse_mat(written) == record
    assert [line.rstrip() for line in written.rstrip("\n").splitlines()] == [
        line.rstrip() for line in text.rstrip("\n").splitlines()
    ]


def test_every_play_is_the_engines() -> None:
    game = replay_match(parse_mat(SAMPLE)).games[0]
    first = game.turns[0]
    assert first.board == Position.start() and first.action.side is DARK
    assert [t.action.kind for t in game.turns] == [
        ActionKind.ROLL,
        ActionKind.ROLL,
        ActionKind.DOUBLE,
        ActionKind.TAKE,
        ActionKind.ROLL,
    ]


def test_swapped_exchanges_the_columns() -> None:
    record = swapped(parse_mat(SAMPLE))
    assert record.players == ("bob", "alice")
    game = replay_match(record).games[0]
    assert game.starter is LIGHT and game.end is not None and game.end.winner is LIGHT


def broken(old: str, new: str, text: str = SAMPLE) -> MatFileError:
    assert old in text
    with pytest.raises(MatFileError) as caught:
        replay_match(parse_mat(text.replace(old, new)))
    return caught.value


def test_illegal_move_names_its_line_and_move() -> None:
    error = broken("62: 24/18 18/16", "62: 24/16 13/11")
    assert (error.problem, error.line, error.text) == (MatProblem.ILLEGAL_MOVE, 8, "24/16 13/11")
    assert "line 8" in str(error) and "24/16 13/11" in str(error)


def test_unreadable_move_and_row() -> None:
    error = broken("8/3 6/3", "8/3 6/x")
    assert (error.problem, error.line, error.text) == (MatProblem.BAD_MOVE, 7, "8/3 6/x")
    error = broken("  3)  Takes", "  3)  Maybe")
    assert (error.problem, error.line) == (MatProblem.BAD_ROW, 9)


def test_must_play_when_a_play_exists() -> None:
    error = broken("53: 8/3 6/3", "53:")
    assert (error.problem, error.line) == (MatProblem.ILLEGAL_MOVE, 7)


def test_cube_faults() -> None:
    assert broken("Doubles => 2", "Doubles => 4").problem is MatProblem.BAD_CUBE_VALUE
    assert broken(" Takes  ", " Doubles => 4").problem is MatProblem.OUT_OF_TURN
    crawford = SAMPLE.replace("alice : 0 ", "alice : 2 ")
    error = broken("Doubles => 2", "Doubles => 2", crawford)
    assert error.problem is MatProblem.CUBE_REFUSED and error.params["reason"] == "crawford_game"


def test_results_checked() -> None:
    assert broken("Wins 2 points", "Wins 5 points").problem is MatProblem.BAD_POINTS
    two = SAMPLE + SAMPLE[SAMPLE.index(" Game 1") :].replace("Game 1", "Game 2")
    error = broken("bob : 0\n  1)", "bob : 0\n  1)", two.replace("alice : 0 ", "alice : 1 ", 1))
    assert error.problem is MatProblem.BAD_SCORE
    unfinished = two.replace("                                  Wins 2 points\n", "", 1)
    assert broken("Game 2", "Game 2", unfinished).problem is MatProblem.UNFINISHED_GAME


def test_after_the_end_and_opening_doublet() -> None:
    assert broken("Wins 2 points", "Wins 2 points\n  4) 11:").problem is MatProblem.AFTER_END
    error = broken("53: 8/3 6/3", "55: 8/3 8/3 6/1 6/1")
    assert error.problem is MatProblem.OPENING_DOUBLET


def test_limits() -> None:
    with pytest.raises(MatFileError) as caught:
        parse_mat(SAMPLE + ";" * MAX_FILE_BYTES)
    assert caught.value.problem is MatProblem.TOO_LARGE
    game = SAMPLE[SAMPLE.index(" Game 1") :]
    with pytest.raises(MatFileError) as caught:
        parse_mat(SAMPLE + game * MAX_GAMES)
    assert caught.value.problem is MatProblem.TOO_MANY_GAMES
    with pytest.raises(MatFileError) as caught:
        parse_mat(SAMPLE.replace("3 point", "99 point"))
    assert caught.value.problem is MatProblem.MATCH_TOO_LONG
    with pytest.raises(MatFileError) as caught:
        parse_mat("hello\n")
    assert (caught.value.problem, caught.value.line) == (MatProblem.NO_LENGTH, 1)


def other_programs_layout(text: str) -> str:
    """The same record as other programs lay it out: no leading space, wider
    columns, ``bar``/``off`` for 25/0, "and the match" after the last result."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"(?<![\d/])25/", "bar/", line)
        line = re.sub(r"/0\b", "/off", line)
        if not re.match(r"^\s*\d+\)", line) and "Wins" not in line:
            line = line.strip()
        out.append(line.replace("   ", "      "))
    return "\r\n".join(out).replace("points\r\n\r\n", "points and the match\r\n\r\n")


@pytest.mark.parametrize("name", ["gnubg_match3.mat", "gnubg_money_take.mat"])
def test_other_programs_layout_reads_the_same(name: str) -> None:
    text = read(name)
    variant = other_programs_layout(text)
    assert variant != text and "bar/" in variant and "/off" in variant
    assert replayed(variant) == replayed(text)


def replayed(text: str) -> list[tuple[object, ...]]:
    games = replay_match(parse_mat(text)).games
    return [
        (g.match, g.end, g.cube, [(t.action.side, t.action.kind, t.play) for t in g.turns])
        for g in games
    ]


@pytest.mark.slow
def test_a_damaged_file_fails_only_with_matfileerror() -> None:
    """Characters changed, dropped or added anywhere: read and replayed, or a MatFileError."""
    rng = random.Random(1)
    texts = [read(name) for name in ("gnubg_match3.mat", "gnubg_money_take.mat")]
    alphabet = "0123456789/*: abDoubles=>TakesDropsWinpoint\n)"
    failed = 0
    for _ in range(400):
        text = list(rng.choice(texts))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(text))
            choice = rng.random()
            if choice < 0.4:
                text[at] = rng.choice(alphabet)
            elif choice < 0.7:
                del text[at]
            else:
                text.insert(at, rng.choice(alphabet))
        try:
            replay_match(parse_mat("".join(text)))
        except MatFileError as error:
            failed += 1
            assert error.line >= 0 and str(error)
    assert failed > 100  # most damage is caught, none of it crashes
