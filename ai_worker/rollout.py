"""bgsage's rollouts for the site's 精确分析 (``learning.study.board``):
``rollout_cube`` of a cube decision (cubeful), ``rollout_plays`` of a roll's
plays in the unit the site ranks them in (``ai_worker.context``: cubeless
without the cube, cubeful at its cube and score).

No Django here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ai_worker.cube import CubeContext, CubeEquities, bgsage_probs
from ai_worker.evaluator import to_board26
from ai_worker.sanity import Probs
from games.engine import Dice, Play, Position


@dataclass(frozen=True, slots=True)
class RolledCube:
    """A cubeful rollout of a cube decision: the equities and their standard errors."""

    equities: CubeEquities
    no_double_se: float
    double_take_se: float
    trials: int


ROLLOUT_TRIALS = 72  # bgsage's truncated1: 2 x 36, truncated after 5 half-moves
SEED = 42  # bgsage's own default


def rollout_cube(
    position: Position,
    context: CubeContext,
    trials: int = ROLLOUT_TRIALS,
    threads: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> RolledCube:
    """bgsage's cubeful rollout of the cube decision of the side on roll
    (truncated after 5 half-moves, 1-ply inside the trials, the cube played
    in every trial); ``progress(done, total)`` after each batch of trials."""
    from bgsage import BgBotAnalyzer

    level = "truncated1" if trials == ROLLOUT_TRIALS else "rollout"
    extra = {} if level == "truncated1" else {"n_trials": trials, "truncation_depth": 5}
    analyzer = BgBotAnalyzer(eval_level=level, parallel_threads=threads, **extra)
    callback = None if progress is None else (lambda done, total, _r: progress(done, total))
    result = analyzer.cube_action(
        to_board26(position), **context.bgsage_kwargs(), progress_callback=callback
    )
    return RolledCube(
        CubeEquities(
            float(result.equity_nd),
            float(result.equity_dt),
            float(result.equity_dp),
            bgsage_probs(result.probs),
        ),
        float(result.equity_nd_se or 0.0),
        float(result.equity_dt_se or 0.0),
        trials,
    )


@dataclass(frozen=True, slots=True)
class RolledPlay:
    """A play's cubeless rollout (as the site ranks plays): the mover's equity
    after it, its chances and the equity's standard error."""

    play: Play
    equity: float
    probs: Probs
    se: float


def rollout_plays(
    position: Position,
    dice: Dice,
    plays: list[Play],
    trials: int = ROLLOUT_TRIALS,
    threads: int = 1,
    progress: Callable[[int, int], None] | None = None,
    context: CubeContext | None = None,
) -> list[RolledPlay]:
    """bgsage's rollout of ``plays`` (legal plays of ``dice``), best first.

    With a ``context`` each play's board is rolled out cubefully at that cube
    and score (``rollout_cubeful``), in the unit the review ranks it in.

    Cubeless (the N-ply ranking is: ``ai_worker.evaluator.rank_plays``),
    truncated after 5 half-moves, 1-ply inside the trials. bgsage rolls out
    its own filter's survivors (its 1-ply best five within 0.08) and the
    boards it is made to (``force_boards``): ``plays`` are all forced, and
    only they are returned. ``progress(done, total)`` counts the trials of
    every play bgsage rolls out."""
    from bgsage import BgBotAnalyzer

    if context is not None:
        return rollout_cubeful(plays, context, trials, threads, progress)
    level = "truncated1" if trials == ROLLOUT_TRIALS else "rollout"
    extra = {} if level == "truncated1" else {"n_trials": trials, "truncation_depth": 5}
    analyzer = BgBotAnalyzer(eval_level=level, parallel_threads=threads, cubeful=False, **extra)
    by_board = {tuple(to_board26(play.result)): play for play in plays}
    callback = None if progress is None else (lambda done, total, _r: progress(done, total))
    result = analyzer.checker_play(
        to_board26(position),
        dice.d1,
        dice.d2,
        cube_owner="",  # cubeless: bgsage's trials without the cube
        force_boards=[list(board) for board in by_board],
        progress_callback=callback,
    )
    rolled = [
        RolledPlay(
            by_board[tuple(move.board)],
            float(move.equity),
            bgsage_probs(move.probs),
            float(move.std_error or 0.0),
        )
        for move in result.moves
        if tuple(move.board) in by_board and move.eval_level == "Rollout"
    ]
    if len(rolled) != len(by_board):
        raise RuntimeError(f"bgsage rolled out {len(rolled)} of the {len(by_board)} plays")
    return sorted(rolled, key=lambda r: -r.equity)


def rollout_cubeful(
    plays: list[Play],
    context: CubeContext,
    trials: int = ROLLOUT_TRIALS,
    threads: int = 1,
    progress: Callable[[int, int], None] | None = None,
    level: str = "",
) -> list[RolledPlay]:
    """Each play's board after it rolled out cubefully at ``context`` (bgsage's
    ``post_move_analytics`` on a rollout analyzer: the cube played in every
    trial, the opponent's cube decision first), the same seeded dice for
    each play; best first, the equity and its standard error cubeful, per
    unit of the cube now. ``level``: a named bgsage level instead
    (``truncated2``...)."""
    from bgsage import BgBotAnalyzer

    level = level or ("truncated1" if trials == ROLLOUT_TRIALS else "rollout")
    extra = {} if level != "rollout" else {"n_trials": trials, "truncation_depth": 5}
    analyzer = BgBotAnalyzer(eval_level=level, parallel_threads=threads, **extra)
    kwargs = context.bgsage_kwargs()
    kwargs.pop("beaver")
    rolled = []
    for i, play in enumerate(plays):

        def step(done: int, total: int, before: int = i) -> None:
            if progress is not None:
                progress(before * total + done, len(plays) * total)

        found = analyzer.post_move_analytics(
            to_board26(play.result), **kwargs, progress_callback=step
        )
        equity, se = float(found.cubeful_equity), float(found.cubeful_se or 0.0)
        rolled.append(RolledPlay(play, equity, bgsage_probs(found.probs), se))
    return sorted(rolled, key=lambda r: -r.equity)


# ------------------------------------------------------------ seeded batches

BATCH_TRIALS = 36  # a multiple of 36: each batch's first roll exactly stratified


@dataclass(frozen=True, slots=True)
class Batches:
    """One rollout run in seeded batches: ``rows[b][i]`` is candidate ``i``'s
    equity in batch ``b``. Inside a batch every candidate is played on the
    same dice (bgsage reuses its seeded, stratified dice for each board), so
    the difference between two candidates is measured far more finely than
    either alone: its standard error comes from the spread of the batches'
    differences (``margin``), not from the two equities' own errors."""

    rows: tuple[tuple[float, ...], ...]
    trials: int  # per batch
    seed: int

    def mean(self, i: int) -> float:
        return sum(row[i] for row in self.rows) / len(self.rows)

    def margin(self, i: int, j: int) -> tuple[float, float]:
        """Candidate ``i``'s equity minus ``j``'s, and that difference's
        standard error over the batches (0.0 with fewer than two)."""
        diffs = [row[i] - row[j] for row in self.rows]
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return mean, 0.0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, (var / n) ** 0.5


def _batch_analyzer(trials: int, seed: int, threads: int, cubeful: bool) -> object:
    """bgsage's truncated1 settings (5 half-moves, 1-ply in the trials) at
    ``trials`` a batch; only the boards it is made to are rolled out."""
    from bgsage import BgBotAnalyzer

    return BgBotAnalyzer(
        eval_level="rollout",
        cubeful=cubeful,
        parallel_threads=threads,
        n_trials=trials,
        truncation_depth=5,
        ultra_late_threshold=2,
        seed=seed,
        filter_max_moves=1,
        filter_threshold=0.0,
    )


def rollout_play_batches(
    position: Position,
    dice: Dice,
    plays: list[Play],
    batches: int,
    seed: int,
    trials: int = BATCH_TRIALS,
    threads: int = 1,
    more: Batches | None = None,
) -> Batches:
    """``plays`` (legal plays of ``dice``) rolled out cubeless in ``batches``
    seeded batches (seeds ``seed``, ``seed + 1``, ...); ``more`` continues an
    earlier run of the same plays with the next seeds. Columns in the order
    of ``plays``."""
    analyzer: Any = _batch_analyzer(trials, seed, threads, cubeful=False)
    boards = [tuple(to_board26(play.result)) for play in plays]
    rows = list(more.rows) if more is not None else []
    for b in range(len(rows), len(rows) + batches):
        analyzer.set_seed(seed + b)
        result = analyzer.checker_play(
            to_board26(position),
            dice.d1,
            dice.d2,
            cube_owner="",
            force_boards=[list(board) for board in boards],
        )
        rolled = {
            tuple(m.board): float(m.equity) for m in result.moves if m.eval_level == "Rollout"
        }
        missing = [i for i, board in enumerate(boards) if board not in rolled]
        if missing:
            raise RuntimeError(f"bgsage rolled out {len(boards) - len(missing)} of {len(boards)}")
        rows.append(tuple(rolled[board] for board in boards))
    return Batches(tuple(rows), trials, seed)


def rollout_cube_batches(
    position: Position,
    context: CubeContext,
    batches: int,
    seed: int,
    trials: int = BATCH_TRIALS,
    threads: int = 1,
    more: Batches | None = None,
) -> Batches:
    """The cube decision of the side on roll rolled out cubefully in seeded
    batches: columns no double, double/take, double/pass (the doubler's, per
    unit of the cube now, as ``rollout_cube``)."""
    analyzer: Any = _batch_analyzer(trials, seed, threads, cubeful=True)
    rows = list(more.rows) if more is not None else []
    for b in range(len(rows), len(rows) + batches):
        analyzer.set_seed(seed + b)
        r = analyzer.cube_action(to_board26(position), **context.bgsage_kwargs())
        rows.append((float(r.equity_nd), float(r.equity_dt), float(r.equity_dp)))
    return Batches(tuple(rows), trials, seed)
