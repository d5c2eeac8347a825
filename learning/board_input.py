"""Reading a position for the analysis board: an ID, an XGID or a set-up board.

Every way in ends in a ``Position`` from the side on roll, or a
``BoardInputError`` whose ``code`` and ``params`` the page words
(``message``), so bad input never changes the board the person sees.

The page shows the board from the person's side: ``side`` says which colour
is on roll (``"light"``, the person's, by default; ``"dark"`` after one play
of a variation). Points the page sends are the board's targets: display
points 1..24, and 25 / 0 for the bar and the tray of the side on roll.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import (
    BAR,
    CHECKERS,
    OFF,
    Dice,
    Display,
    InvalidNotationError,
    Position,
    decode_xgid,
    encode_xgid,
)

SIDES = ("light", "dark")
# "63", "6-3", "6 3" or "all" (the 21 rolls); nothing for no dice.
_DICE = re.compile(r"^\s*([1-6])\s*[-, ]?\s*([1-6])\s*$")
ALL_ROLLS = "all"


class BoardInputError(ValueError):
    """Input that is not a board: ``code`` names why, ``params`` the details."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.params: Mapping[str, Any] = dict(params or {})
        super().__init__(f"{code}: {self.params}")

    @property
    def message(self) -> str:
        return describe_error(self)


def describe_error(error: BoardInputError) -> str:
    """The reason in words, in the active language."""
    p = dict(error.params)
    texts = {
        "empty": _("Paste a GNU Backgammon Position ID or an XGID first."),
        "malformed": _(
            "“%(text)s” is neither a Position ID (14 letters, digits, + and /) nor an XGID."
        ),
        "not_a_board": _("The Position ID “%(text)s” does not describe a board."),
        "too_many": _("One side has %(count)s checkers: each side has at most 15."),
        "both_sides": _("Both sides have checkers on point %(point)s: a point holds one colour."),
        "bad_dice": _("“%(text)s” is not a roll: write two digits from 1 to 6, such as 63."),
        "bad_side": _("The side on roll is the light or the dark checkers."),
        "bad_point": _("There is no point %(point)s on the board."),
        "no_turn": _("That game has no turn %(turn)s."),
    }
    return texts.get(error.code, _("That is not a position.")) % p


def read_position(text: str) -> tuple[Position, Dice | None]:
    """A Position ID or an XGID (with its dice, if it has rolled ones)."""
    text = (text or "").strip()
    if not text:
        raise BoardInputError("empty")
    if ":" in text or text.upper().startswith("XGID="):
        return _read_xgid(text)
    try:
        return Position.from_position_id(text), None
    except InvalidNotationError as error:
        raise _classified(error, text) from error


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
    if len(counts) != 25 or not all(isinstance(n, int) and n >= 0 for n in counts):
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


def from_game(game: Any, turn_number: int | None) -> tuple[Position, Dice | None, str]:
    """A game's position for the board: before turn ``turn_number`` (its dice
    and mover), or the game's current position when it is ``None``. The
    game's positions are stored from LIGHT's side."""
    if turn_number is None:
        light_view = Position.from_position_id(game.position_id)
        side = game.turn if game.turn in SIDES else "light"
        dice = Dice(*game.dice) if game.dice else None
    else:
        turn = game.turns.filter(number=turn_number).first()
        if turn is None:
            raise BoardInputError("no_turn", {"turn": turn_number})
        light_view = Position.from_position_id(turn.position_before)
        side, dice = turn.side, Dice(turn.die1, turn.die2)
    return seen_by_light(light_view, side), dice, side


def board_facts(position: Position, side: str, dice: Dice | None = None) -> dict[str, Any]:
    """What the page shows of a position: the board, pips, counts and both IDs."""
    light_view = seen_by_light(position, side)
    pips = light_view.pips()
    off = light_view.borne_off()
    return {
        "side": side,
        "board": Display.from_position(light_view).to_json(),
        "position_id": position.position_id(),
        "xgid": encode_xgid(position, dice),
        "pips": {"light": pips[0], "dark": pips[1]},
        "checkers": {"light": CHECKERS - off[0], "dark": CHECKERS - off[1]},
    }
