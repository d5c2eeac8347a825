"""Reading a position for the analysis board: an ID, an XGID or a set-up board.

Every way in ends in a ``Position`` from the side on roll, or a
``BoardInputError`` (``learning.board.errors``) whose ``code`` and
``params`` the page words (``message``), so bad input never changes the
board the person sees.

The page shows the board from the person's side: ``side`` says which colour
is on roll (``"light"``, the person's, by default; ``"dark"`` after one play
of a variation). Points the page sends are the board's targets: display
points 1..24, and 25 / 0 for the bar and the tray of the side on roll.

The cube and the score (``read_context``) are named by colour: ``cube`` its
value, ``owner`` light / dark (nothing: the middle), ``match`` the length (0
or nothing: a money game), ``score`` light's and dark's points (``3-2``),
``crawford`` and ``jacoby`` 1 or nothing. An XGID carries them too
(``xgid_context``); the XGID the page writes holds them (``xgid_of``), the
side on roll as X, as GNU Backgammon's ``set xgid`` reads it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from ai_worker.cube import CubeContext
from games.engine import (
    BAR,
    CHECKERS,
    OFF,
    Cube,
    Dice,
    Display,
    InvalidNotationError,
    Match,
    NumberOutOfRangeError,
    Position,
    Side,
    Xgid,
    decode_xgid,
    encode_xgid,
)
from games.reading import cube_of, match_of
from learning.board.errors import BoardInputError

SIDES = ("light", "dark")
# "63", "6-3", "6 3" or "all" (the 21 rolls); nothing for no dice.
_DICE = re.compile(r"^\s*([1-6])\s*[-, ]?\s*([1-6])\s*$")
ALL_ROLLS = "all"
MAX_MATCH = 25  # the longest match the board sets up (the site's matches are shorter)
_SCORE = re.compile(r"^\s*(\d{1,2})\s*[-:, ]\s*(\d{1,2})\s*$")
_YES = ("1", "true", "on", "yes")


def read_position(text: str) -> tuple[Position, Dice | None]:
    """A Position ID or an XGID (with its dice, if it has rolled ones)."""
    text = (text or "").strip()
    if not text:
        raise BoardInputError("empty")
    if _is_xgid(text):
        return _read_xgid(text)
    try:
        return Position.from_position_id(text), None
    except InvalidNotationError as error:
        raise _classified(error, text) from error


def refuse_non_game(position: Position, side: str, *, to_play: bool) -> None:
    """BoardInputError for a board with no game on it: the empty board
    always; with ``to_play`` (a variation, an analysis) also a board where a
    side has borne off all 15, which is over. A finished board may still be
    opened (a set-up in the address is one until both sides are placed), and
    the set-up itself builds a board from the empty one."""
    off = seen_by_light(position, side).borne_off()
    if off == (CHECKERS, CHECKERS):
        raise BoardInputError("empty_board")
    if to_play and CHECKERS in off:
        raise BoardInputError("light_off" if off[0] == CHECKERS else "dark_off")


def _read_xgid(text: str) -> tuple[Position, Dice | None]:
    field_text = text.split(":", 1)[0].removeprefix("XGID=")
    if len(field_text) == 26:
        _check_xgid_counts(field_text)
    try:
        return decode_xgid(text)
    except InvalidNotationError as error:
        raise _classified(error, text) from error


def _check_xgid_counts(field_text: str) -> None:
    """An XGID writes each colour with its own letters: count them before the
    engine refuses, so the message can give the count."""
    for letters in (str.isupper, str.islower):
        count = sum(ord(c.lower()) - ord("a") + 1 for c in field_text if c.isalpha() and letters(c))
        if count > CHECKERS:
            raise BoardInputError("too_many", {"count": count})


_BOTH = re.compile(r"both sides have checkers on point (\d+)")


def _classified(error: InvalidNotationError, text: str) -> BoardInputError:
    # The engine's notation errors carry no code, only their text.
    if isinstance(error, NumberOutOfRangeError):
        params = {"field": error.field, "value": error.value, "limit": error.limit}
        return BoardInputError("out_of_range", params)
    message = str(error)
    if match := _BOTH.search(message):
        return BoardInputError("both_sides", {"point": int(match.group(1))})
    if "does not describe a board" in message:
        return BoardInputError("not_a_board", {"text": text[:40]})
    return BoardInputError("malformed", {"text": text[:40]})


def read_dice(text: str | None) -> Dice | str | None:
    """``Dice``, ``ALL_ROLLS`` or ``None`` (no dice chosen)."""
    text = (text or "").strip()
    if not text:
        return None
    if text.lower() == ALL_ROLLS:
        return ALL_ROLLS
    match = _DICE.match(text)
    if not match:
        raise BoardInputError("bad_dice", {"text": text[:10]})
    return Dice(int(match.group(1)), int(match.group(2)))


def read_side(text: str | None) -> str:
    side = (text or "light").strip() or "light"
    if side not in SIDES:
        raise BoardInputError("bad_side")
    return side


def _is_xgid(text: str) -> bool:
    return ":" in text or text.strip().upper().startswith("XGID=")


def read_context(data: Mapping[str, Any], side: str) -> CubeContext:
    """The cube and the score from a query or a JSON body (see the module)."""
    mover = Side(side)
    cube = _read_cube(str(data.get("cube") or "1"), str(data.get("owner") or ""))
    length_text = str(data.get("match") or "0").strip()
    if not length_text.isdigit() or int(length_text) > MAX_MATCH:
        raise BoardInputError("bad_match", {"text": length_text[:10], "most": MAX_MATCH})
    length = int(length_text)
    jacoby = str(data.get("jacoby") or "").lower() in _YES
    crawford = str(data.get("crawford") or "").lower() in _YES
    score_text = str(data.get("score") or "").strip()
    if length == 0:
        if _read_score(score_text) != (0, 0):
            raise BoardInputError("money_score")
        if crawford:
            raise BoardInputError("bad_crawford")
        return CubeContext(cube, Match(jacoby=jacoby), mover)
    if jacoby:
        raise BoardInputError("jacoby_match")
    light, dark = _read_score(score_text)
    if max(light, dark) >= length:
        raise BoardInputError("score_past", {"length": length, "light": light, "dark": dark})
    if crawford and length - 1 not in (light, dark):
        raise BoardInputError("bad_crawford")
    return CubeContext(cube, Match(length, light, dark, crawford), mover)


def _read_cube(value_text: str, owner_text: str) -> Cube:
    value_text = value_text.strip()
    if not value_text.isdigit() or int(value_text) not in [1 << i for i in range(7)]:
        raise BoardInputError("bad_cube", {"text": value_text[:10]})
    owner_text = owner_text.strip()
    if owner_text not in ("", "centre", *SIDES):
        raise BoardInputError("bad_owner")
    owner = Side(owner_text) if owner_text in SIDES else None
    if owner is not None and int(value_text) == 1:
        raise BoardInputError("owned_one")
    return Cube(int(value_text), owner)


def _read_score(text: str) -> tuple[int, int]:
    if not text:
        return 0, 0
    match = _SCORE.match(text)
    if not match:
        raise BoardInputError("bad_score", {"text": text[:10]})
    return int(match.group(1)), int(match.group(2))


def context_json(context: CubeContext) -> dict[str, Any]:
    """The cube and the score as the page and the address hold them."""
    m = context.match
    return {
        "cube": context.cube.value,
        "owner": context.cube.owner.value if context.cube.owner else "",
        "match": m.length,
        "score": f"{m.light}-{m.dark}" if m.length else "",
        "crawford": m.crawford,
        "jacoby": m.jacoby,
    }


def cube_on_board(context: CubeContext, offered: str = "") -> dict[str, Any]:
    """The cube as ``games/board.js`` draws it (``offered``: the side doubling)."""
    owner = context.cube.owner
    return {"value": context.cube.value, "owner": owner.value if owner else "", "offered": offered}


def describe_context(context: CubeContext) -> str:
    """The cube and the score in words: "Money game, cube 2 owned by dark"."""
    m, cube = context.match, context.cube
    if m.length:
        game = _("%(length)s-point match, light %(light)s, dark %(dark)s") % {
            "length": m.length,
            "light": m.light,
            "dark": m.dark,
        }
        if m.crawford:
            game = _("%(game)s, the Crawford game") % {"game": game}
    else:
        game = _("Money game, with the Jacoby rule") if m.jacoby else _("Money game")
    if cube.owner is None:
        where = _("cube %(value)s in the middle") % {"value": cube.value}
    elif cube.owner is Side.LIGHT:
        where = _("cube %(value)s owned by light") % {"value": cube.value}
    else:
        where = _("cube %(value)s owned by dark") % {"value": cube.value}
    return _("%(game)s; %(cube)s.") % {"game": game, "cube": where}


def context_query(context: CubeContext) -> dict[str, str]:
    """The address's part for the cube and the score: only what is not the default."""
    data = context_json(context)
    query = {k: str(data[k]) for k in ("owner", "score") if data[k]}
    query |= {k: str(data[k]) for k in ("cube", "match") if data[k] not in (0, 1)}
    query |= {k: "1" for k in ("crawford", "jacoby") if data[k]}
    return query


def xgid_context(text: str, side: str) -> CubeContext | None:
    """An XGID's cube and score in colours (its side on turn is ``side``); None for an ID."""
    if not _is_xgid(text):
        return None
    try:
        xgid = Xgid.parse(text)
    except InvalidNotationError as error:
        raise _classified(error, text) from error
    mover = Side(side)

    def colour(s: Side | None) -> Side | None:
        return None if s is None else mover if s is xgid.turn else mover.other

    m = xgid.match
    scores = {mover: m.score(xgid.turn), mover.other: m.score(xgid.turn.other)}
    match = Match(m.length, scores[Side.LIGHT], scores[Side.DARK], m.crawford, m.jacoby)
    return CubeContext(Cube(xgid.cube.value, colour(xgid.cube.owner)), match, mover)


def xgid_of(position: Position, side: str, dice: Dice | None, context: CubeContext | None) -> str:
    """The XGID of ``position`` (from ``side``, on roll, X) with its cube and score."""
    if context is None:
        return encode_xgid(position, dice)
    mover = Side(side)
    owner = context.cube.owner
    cube = Cube(
        context.cube.value, None if owner is None else Side.LIGHT if owner is mover else Side.DARK
    )
    m = context.match
    match = Match(m.length, m.score(mover), m.score(mover.other), m.crawford, m.jacoby)
    return Xgid(position, Side.LIGHT, dice, cube, match).text()


def from_setup(light: Sequence[int], dark: Sequence[int], side: str) -> Position:
    """A board placed checker by checker: 25 counts per colour in display
    points (index ``p - 1`` for point ``p``, index 24 that colour's bar)."""
    halves = {"light": _half(light, "light"), "dark": _half(dark, "dark")}
    for point in range(1, 25):
        if halves["light"][point - 1] and halves["dark"][24 - point]:
            raise BoardInputError("both_sides", {"point": point})
    mover = halves[side]
    other = halves["dark" if side == "light" else "light"]
    return Position(tuple(mover), tuple(other))


def _half(counts: Sequence[int], side: str) -> list[int]:
    """One colour's 25 counts from its own side (gnubg's numbering)."""
    valid = isinstance(counts, list) and len(counts) == 25
    if not valid or not all(type(n) is int and n >= 0 for n in counts):
        raise BoardInputError("malformed", {"text": "set-up"})
    if sum(counts) > CHECKERS:
        raise BoardInputError("too_many", {"count": sum(counts)})
    if side == "light":
        return list(counts)
    # DARK's own point i + 1 is display point 24 - i.
    return [counts[23 - i] for i in range(24)] + [counts[24]]


def mover_point(target: int, side: str) -> int:
    """A board target (display point, 25 bar, 0 tray) in the mover's numbering."""
    if not isinstance(target, int) or not OFF <= target <= BAR:
        raise BoardInputError("bad_point", {"point": target})
    if side == "light" or target in (OFF, BAR):
        return target
    return BAR - target


def seen_by_light(position: Position, side: str) -> Position:
    """The position as the person sees it (LIGHT = the light checkers)."""
    return position if side == "light" else position.swapped()


def from_game(game: Any, turn_number: int | None) -> tuple[Position, Dice | None, str, CubeContext]:
    """A game's position for the board: before turn ``turn_number`` (its dice,
    mover, cube and score), or the game's current position when it is
    ``None``. The game's positions are stored from LIGHT's side."""
    if turn_number is None:
        light_view = Position.from_position_id(game.position_id)
        side = game.turn if game.turn in SIDES else "light"
        if game.cube_offered in SIDES:  # a double to answer: the doubler's board
            side = game.cube_offered
        dice = Dice(*game.dice) if game.dice else None
    else:
        turn = game.turns.filter(number=turn_number).first()
        if turn is None:
            raise BoardInputError("no_turn", {"turn": turn_number})
        light_view = Position.from_position_id(turn.position_before)
        side, dice = turn.side, Dice(turn.die1, turn.die2)
    context = CubeContext(_game_cube(game, turn_number), match_of(game), Side(side))
    return seen_by_light(light_view, side), dice, side, context


def _game_cube(game: Any, turn_number: int | None) -> Cube:
    """The cube during the turn (the last take before it), or now."""
    if turn_number is None:
        return cube_of(game) or Cube()
    take = (
        game.cube_actions.filter(action="take", before_turn__lte=turn_number)
        .order_by("number")
        .last()
    )
    return Cube(take.value, Side(take.side)) if take else Cube()


def board_facts(
    position: Position, side: str, dice: Dice | None = None, context: CubeContext | None = None
) -> dict[str, Any]:
    """What the page shows of a position: the board, pips, counts and both IDs
    (the XGID with the cube and score of ``context``, when given)."""
    light_view = seen_by_light(position, side)
    pips = light_view.pips()
    off = light_view.borne_off()
    return {
        "side": side,
        "board": Display.from_position(light_view).to_json(),
        "position_id": position.position_id(),
        "xgid": xgid_of(position, side, dice, context),
        "pips": {"light": pips[0], "dark": pips[1]},
        "checkers": {"light": CHECKERS - off[0], "dark": CHECKERS - off[1]},
    }


def plays_context(context: CubeContext) -> CubeContext | None:
    """The cube and score the board's plays are judged at: the setting, but
    its default (money, the cube in the middle at 1, no Jacoby rule) is the
    single game without the cube, as a single game's review judges it."""
    m = context.match
    return None if m.is_money and not m.jacoby and context.cube == Cube() else context


def stored_context(row: Any) -> CubeContext | None:
    """The cube and score a play job (a ``BoardAnalysis``) was asked at (None: cubeless)."""
    return read_context(row.cube, row.cube["side"]) if row.cube else None
