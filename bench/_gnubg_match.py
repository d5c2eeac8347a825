"""GNU Backgammon as an outside program for ``bench/match_truth.py``: its own
noisy self-play, written as match files, and its 2-ply analysis of them.

Debian's ``/usr/games/gnubg -t`` runs as a separate program, fed commands
on standard input; nothing here imports it. Each file is one money session
or one match between two gnubg players, each with its own chequer-play and
cube noise (``deterministic on``: the noise is a function of the position,
so a file is a function of its seed) and depth; the files are cached under
``bench/output/match_truth/`` by their settings.

The analysis: ``analyse match`` at 2-ply, chequer play and cube, cubeful,
beavers off (the site refuses them) and money sessions without the Jacoby
rule (a .mat file does not say, and the site reads a money file so);
then per game ``show statistics game``, read per player: the unforced
moves, the close or actual cube decisions, the error totals in EMG (the
normalized money equivalents its error rate is in) and the luck total, in
EMG and in match winning chances. Its PR is 500 × (chequer + cube error
total) / (unforced moves + close or actual cube decisions), which is its
"Error rate mEMG" ÷ 2.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

GNUBG = Path("/usr/games/gnubg")
OUTPUT = Path(__file__).resolve().parent / "output" / "match_truth"
ANALYSIS_PLIES = 2
REVISION = 2  # raise when the analysis commands change: the cached analyses are redone


@dataclass(frozen=True)
class Player:
    name: str
    noise: float  # gnubg's evaluation noise, chequer play and cube alike
    plies: int = 0  # its search depth for both


@dataclass(frozen=True)
class Plan:
    """One file: a money session of ``games`` games (``length`` 0) or a match."""

    name: str
    length: int
    left: Player
    right: Player
    seed: int
    games: int = 1  # money sessions only

    def key(self) -> str:
        return hashlib.sha1(json.dumps(asdict(self), sort_keys=True).encode()).hexdigest()[:12]


def _player_lines(index: int, player: Player) -> list[str]:
    lines = [f"set player {index} gnubg"]
    for what in ("chequerplay", "cubedecision"):
        lines += [
            f"set player {index} {what} evaluation plies {player.plies}",
            f"set player {index} {what} evaluation noise {player.noise}",
            f"set player {index} {what} evaluation deterministic on",
        ]
    return lines


def play(plan: Plan) -> str:
    """The plan's file as a .mat text, played now (cached by the plan's key)."""
    cached = OUTPUT / f"{plan.name}-{plan.key()}.mat"
    if cached.exists():
        return cached.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "played.mat"
        start = [f"new match {plan.length}"] if plan.length else ["new game"] * plan.games
        script = [
            "set display off",
            "set automatic game " + ("on" if plan.length else "off"),
            "set automatic roll on",
            "set rng mersenne",
            f"set seed {plan.seed}",
            "set cube use on",
            "set jacoby off",  # a .mat file does not say; the site reads money files so
            "set beavers 0",
            *_player_lines(0, plan.left),
            *_player_lines(1, plan.right),
            *start,
            f"export match mat {out}",
        ]
        _run(script, timeout=3600)
        text = out.read_text()
    text = _renamed(text, plan.left.name, plan.right.name)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    cached.write_text(text)
    return text


def _renamed(text: str, left: str, right: str) -> str:
    """The file with its players named: gnubg names them after the program
    and the user running it, whatever ``set player N name`` said before
    ``new match``."""
    found = re.search(r"^ (\S+) : \d+ +(\S+) : \d+", text, re.M)
    if found is None:
        raise SystemExit("gnubg wrote no game")
    old_left, old_right = found.group(1), found.group(2)
    pattern = re.compile(
        rf"^ {re.escape(old_left)} : (\d+)( +){re.escape(old_right)} : (\d+)", re.M
    )

    def header(m: re.Match[str]) -> str:
        pad = " " * max(1, 31 - len(left) - 3 - len(m.group(1)))
        return f" {left} : {m.group(1)}{pad}{right} : {m.group(3)}"

    return pattern.sub(header, text)


def _run(script: list[str], timeout: int) -> str:
    done = subprocess.run(
        ["nice", "-n", "10", str(GNUBG), "-t", "-q"],
        input="\n".join(script) + "\n",
        text=True,
        capture_output=True,
        timeout=timeout,
        check=True,
    )
    return done.stdout


@dataclass(frozen=True)
class SideFigures:
    """One player's figures in one game, as GNU Backgammon's statistics give them."""

    unforced: int
    close_cube: int
    checker_error: float  # EMG, a positive total
    cube_error: float
    luck: float  # EMG
    luck_mwc: float | None  # match winning chances (a match only)

    @property
    def pr(self) -> float | None:
        decisions = self.unforced + self.close_cube
        if not decisions:
            return None
        return 500.0 * (self.checker_error + self.cube_error) / decisions


def analyse(plan: Plan, text: str) -> list[tuple[SideFigures, SideFigures]]:
    """GNU Backgammon's 2-ply figures for each game of the file, (left, right)."""
    digest = hashlib.sha1(f"{REVISION}:{ANALYSIS_PLIES}:{text}".encode()).hexdigest()[:12]
    cached = OUTPUT / f"{plan.name}-{digest}.gnubg.json"
    if cached.exists():
        stored = json.loads(cached.read_text())
        return [(SideFigures(**a), SideFigures(**b)) for a, b in stored]
    games = text.count("\n Game ")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "file.mat"
        path.write_text(text)
        script = [
            "set display off",
            "set jacoby off",
            "set beavers 0",
            f"import mat {path}",
            *(
                f"set analysis {what} evaluation {setting}"
                for what in ("chequerplay", "cubedecision")
                for setting in (f"plies {ANALYSIS_PLIES}", "cubeful on")
            ),
            "analyse match",
            "first game",
            *(["show statistics game", "next game"] * games),
        ]
        out = _run(script, timeout=7200)
    found = [_parse(block) for block in out.split("Player   ")[1:]]
    if len(found) != games:
        raise SystemExit(f"gnubg gave statistics for {len(found)} of {games} games")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps([[asdict(a), asdict(b)] for a, b in found]))
    return found


_NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def _two(block: str, label: str, section: str = "") -> list[str]:
    """The two columns of the line starting with ``label`` (after ``section``)."""
    text = block[block.index(section) :] if section else block
    line = next(line for line in text.splitlines() if line.startswith(label))
    return re.split(r"\s{3,}", line.strip())[1:3]  # the label and its unit, then the cells


def _error(cell: str) -> float:
    """An "Error total EMG (MWC)" cell, "-0.842 ( -6.510%)": the EMG, positive."""
    return -float(re.match(_NUMBER, cell.strip()).group(1))  # type: ignore[union-attr]


def _luck(cell: str) -> tuple[float, float | None]:
    """A "Luck total EMG (MWC)" cell: (EMG, MWC as a fraction or None in money)."""
    numbers = re.findall(_NUMBER, cell)
    mwc = float(numbers[1]) / 100 if "%" in cell and len(numbers) > 1 else None
    return float(numbers[0]), mwc


def _parse(block: str) -> tuple[SideFigures, SideFigures]:
    unforced = _two(block, "Unforced moves")
    close = _two(block, "Close or actual cube decisions")
    checker = _two(block, "Error total", "Chequerplay statistics")
    cube = _two(block, "Error total", "Cube statistics")
    luck = _two(block, "Luck total")
    sides = []
    for i in range(2):
        emg, mwc = _luck(luck[i])
        sides.append(
            SideFigures(
                int(unforced[i]), int(close[i]), _error(checker[i]), _error(cube[i]), emg, mwc
            )
        )
    return sides[0], sides[1]


def describe(plan: Plan) -> dict[str, Any]:
    return asdict(plan)


@dataclass(frozen=True)
class Decision:
    """One decision of GNU Backgammon's analysis, as its text export words it."""

    number: int  # its "Move number"
    player: str
    kind: str  # "play", "no double", "double", "take", "pass"
    loss: float  # EMG given away against its best (0 when right)
    text: str  # the play made, or the cube's equities


_MOVE = re.compile(r"^Move number (\d+):\s+(\S+) (to play|doubles|accepts|rejects)", re.M)
_PLAYED = re.compile(
    r"^\*\s+\S+\s+Cubeful \d-ply\s+(.+?)\s+Eq\.:\s+[+-]\d+\.\d+(?: \(([+-]\d+\.\d+)\))?", re.M
)
_ACTIONS = ("No double", "No redouble", "Double, pass", "Redouble, pass", "Double, take")
_CUBE = re.compile(rf"^\d\. ({'|'.join(_ACTIONS)}|Redouble, take)\s+([+-]\d+\.\d+)", re.M)


def detail(plan: Plan, text: str, game: int) -> list[Decision]:
    """GNU Backgammon's 2-ply analysis of game ``game`` (from 1), decision by
    decision, from its text export (``export game text``)."""
    with tempfile.TemporaryDirectory() as tmp:
        path, out = Path(tmp) / "file.mat", Path(tmp) / "game.txt"
        path.write_text(text)
        script = [
            "set display off",
            "set jacoby off",
            "set beavers 0",
            f"import mat {path}",
            *(
                f"set analysis {what} evaluation {setting}"
                for what in ("chequerplay", "cubedecision")
                for setting in (f"plies {ANALYSIS_PLIES}", "cubeful on")
            ),
            "set export moves number of moves 20",
            "analyse match",
            "first game",
            *(["next game"] * (game - 1)),
            f"export game text {out}",
        ]
        _run(script, timeout=3600)
        words = out.read_text()
    found = []
    blocks = list(_MOVE.finditer(words))
    for i, m in enumerate(blocks):
        body = words[m.end() : blocks[i + 1].start() if i + 1 < len(blocks) else len(words)]
        number, player, what = int(m.group(1)), m.group(2), m.group(3)
        cube = {
            name.replace("Redouble", "Double").replace("No redouble", "No double"): float(v)
            for name, v in _CUBE.findall(body)
        }
        if what == "to play" and cube:
            best = max(
                cube.get("No double", 0.0),
                min(cube.get("Double, take", 9), cube.get("Double, pass", 9)),
            )
            gap = best - min(cube.get("Double, take", 9), 1.0)
            found.append(
                Decision(
                    number, player, "no double", best - cube["No double"], f"gap {gap:.3f} {cube}"
                )
            )
        played = _PLAYED.search(body)
        if what == "to play" and played is not None:
            loss = -float(played.group(2)) if played.group(2) else 0.0
            found.append(Decision(number, player, "play", loss, played.group(1)))
        if what == "doubles" and cube:
            best = max(
                cube.get("No double", 0.0),
                min(cube.get("Double, take", 9), cube.get("Double, pass", 9)),
            )
            doubled = min(cube.get("Double, take", 9), cube.get("Double, pass", 9))
            found.append(Decision(number, player, "double", best - doubled, str(cube)))
        if what in ("accepts", "rejects") and cube:
            take, drop = -cube.get("Double, take", 0.0), -cube.get("Double, pass", -1.0)
            mine = take if what == "accepts" else drop
            found.append(
                Decision(
                    number,
                    player,
                    "take" if what == "accepts" else "pass",
                    max(take, drop) - mine,
                    str(cube),
                )
            )
    return found
