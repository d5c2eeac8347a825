"""Stored steps get their hits: ``[src, dst, die]`` becomes ``[src, dst, die, hit]``.

For ``0008_steps_hits``, and for ``0005_fill_last_turn``, which words the
last turn with today's ``games.steps.turn_json`` (it reads the hit). Each
turn's steps are replayed on the board they were played from: a step hits
when it lands on a lone opposing checker. (Django's loader skips this
module: its name starts with an underscore.)
"""

from typing import Any



def _with_hits(steps: list[list[int]], opp: list[int]) -> list[list[int]]:
    out = []
    for step in steps:
        src, dst, die = step[:3]
        hit = 1 <= dst <= 24 and opp[24 - dst] == 1
        if hit:
            opp[24 - dst] = 0
        out.append([src, dst, die, int(hit)])
    return out


def _mover_opp(position_id: str, side: str) -> list[int]:
    from games.engine import Position  # pure: its Position ID codec is fixed by gnubg

    position = Position.from_position_id(position_id)
    return list((position.swapped() if side == "dark" else position).opp)


def add_hits(apps: Any, schema_editor: Any) -> None:
    Turn = apps.get_model("games", "Turn")
    Game = apps.get_model("games", "Game")
    for turn in Turn.objects.iterator():
        if any(len(s) == 3 for s in turn.steps):
            opp = _mover_opp(turn.position_before, turn.side)
            turn.steps = _with_hits(turn.steps, opp)
            turn.save(update_fields=["steps"])
    for game in Game.objects.iterator():
        if any(len(s) == 3 for s in game.steps):
            game.steps = _with_hits(game.steps, _mover_opp(game.position_id, game.turn))
            game.save(update_fields=["steps"])


def drop_hits(apps: Any, schema_editor: Any) -> None:
    for name in ("Turn", "Game"):
        for row in apps.get_model("games", name).objects.iterator():
            row.steps = [s[:3] for s in row.steps]
            row.save(update_fields=["steps"])
