"""A beginner's clicks as the engine's steps.

A click from a checker to the point that two or more dice reach together
(24 to 14 with 6-4) is that checker's steps, one die after another: the
way the engine allows, one that hits nothing on the way when there is one
(the person asked only for the end). ``reach`` lists those far points for
the board to light up; ``why_stuck`` says why a checker the person tapped
cannot move at all, which is a slip, not a mistake.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import BAR, OFF, Dice, IllegalStepError, Position, Turn
from games.words.refusals import describe_refusal

Click = tuple[int, int]


def _paths(turn: Turn, src: int) -> dict[int, list[Click]]:
    """Every point one checker from ``src`` reaches with two or more of the
    dice left, and the steps of the best way there."""
    found: dict[int, tuple[tuple[bool, int], list[Click]]] = {}

    def search(at: Turn, where: int, steps: list[Click], hits: bool) -> None:
        for step in {(s.src, s.dst) for s in at.allowed_steps() if s.src == where}:
            after = at.step(*step)
            hit = hits or after.steps[-1].hit
            chain = [*steps, step]
            if len(chain) >= 2:
                # The steps' last hit is the one asked for: only a hit on the way counts.
                rank = (hits, len(chain))
                if step[1] not in found or rank < found[step[1]][0]:
                    found[step[1]] = (rank, chain)
            if step[1] != OFF and not after.complete:
                search(after, step[1], chain, hit)

    search(turn, src, [], False)
    return {dst: chain for dst, (_rank, chain) in found.items()}


def expand(position: Position, dice: Dice, clicks: Sequence[Click]) -> list[Click]:
    """The clicks with each far click written as its steps; a click the
    rules refuse stays as it is (the walk then says why) and ends the list."""
    turn, steps = Turn(position, dice), []
    for src, dst in clicks:
        if turn.refusal(src, dst) is None:
            turn = turn.step(src, dst)
            steps.append((src, dst))
            continue
        path = _paths(turn, src).get(dst)
        if path is None:
            steps.append((src, dst))
            break
        for step in path:
            turn = turn.step(*step)
        steps.extend(path)
    return steps


def reach(turn: Turn) -> list[dict[str, int]]:
    """The far points each movable checker reaches with several dice."""
    if turn.complete:
        return []
    sources = sorted({s.src for s in turn.allowed_steps()}, reverse=True)
    single = {(s.src, s.dst) for s in turn.allowed_steps()}
    return [
        {"from": src, "to": dst}
        for src in sources
        for dst in sorted(_paths(turn, src), reverse=True)
        if (src, dst) not in single
    ]


def why_stuck(turn: Turn, src: int) -> str:
    """Why the person's checker on ``src`` cannot move now (the engine's
    words for its first refused step), or "" when it can or is not there."""
    own = turn.current.me[src - 1] if 1 <= src <= BAR else 0
    if not own or turn.complete or any(s.src == src for s in turn.allowed_steps()):
        return ""
    for die in sorted(set(turn.remaining), reverse=True):
        try:
            turn.step(src, max(src - die, OFF), die)
        except IllegalStepError as refused:
            return describe_refusal(refused.refusal)
    return ""
