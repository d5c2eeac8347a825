"""Dice anyone can check: every die derived from two seeds and its number.

The server draws a secret *server seed* (32 bytes) when a game starts and
shows its SHA-256 (the *commitment*) before the first roll; the person's
browser gives a *person seed*. Die ``n`` of the game (0, 1, 2, ...) is

    HMAC-SHA-256(key = server seed, message = "<person seed>:<n>:<block>")

read byte by byte from block 0: the first byte below 252 gives the die,
``byte % 6 + 1`` (252 = 6 x 42, so each face has 42 of the 252 accepted
values: no modulo bias); a byte of 252..255 is skipped, and when a whole
block is skipped (odds 4/256 to the 32nd power) the next block is read.
Roll ``r`` is the pair of dice ``2r`` and ``2r + 1``: an opening roll's
first die is the person's (LIGHT's), the second the computer's; a turn's
roll is its first and second die as shown. docs/dice.md has the worked
example the tests check.

>>> seed = bytes(range(32))
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> roll_of(seed, "shuanglu", 0), roll_of(seed, "shuanglu", 1)
((5, 1), (2, 4))
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass

SERVER_SEED_BYTES = 32
# 252 = 6 x 42: bytes 0..251 map evenly onto the faces, 252..255 are skipped.
ACCEPT_BELOW = 252
PERSON_SEED_CHARACTERS = "A-Z a-z 0-9 _ -"
_PERSON_SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")


class DiceSeedError(ValueError):
    """A seed that cannot be used: the text says what is wrong."""


def commitment(server_seed: bytes) -> str:
    """The SHA-256 of the server seed, in hex: what is shown before the first roll."""
    return hashlib.sha256(server_seed).hexdigest()


def server_seed_from_hex(text: str) -> bytes:
    """The server seed written as 64 hex digits.

    >>> len(server_seed_from_hex("00" * 32))
    32
    >>> server_seed_from_hex("abc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    games.engine.fairdice.DiceSeedError: the server seed is 64 hex digits (32 bytes), not 3 ...
    """
    text = text.strip().lower()
    if len(text) != 2 * SERVER_SEED_BYTES or not re.fullmatch(r"[0-9a-f]+", text):
        raise DiceSeedError(
            f"the server seed is {2 * SERVER_SEED_BYTES} hex digits "
            f"({SERVER_SEED_BYTES} bytes), not {len(text)} characters"
        )
    return bytes.fromhex(text)


def check_person_seed(text: str) -> str:
    """The person seed as given, if usable: 1 to 64 of A-Z a-z 0-9 _ -.

    >>> check_person_seed("my-lucky_seed7")
    'my-lucky_seed7'
    >>> check_person_seed("两颗骰子")
    Traceback (most recent call last):
    ...
    games.engine.fairdice.DiceSeedError: a person seed is 1 to 64 of A-Z a-z 0-9 _ -
    """
    if not _PERSON_SEED.fullmatch(text):
        raise DiceSeedError(f"a person seed is 1 to 64 of {PERSON_SEED_CHARACTERS}")
    return text


def valid_person_seed(text: str) -> bool:
    return _PERSON_SEED.fullmatch(text) is not None


def die_from_bytes(data: bytes) -> int | None:
    """The die the first accepted byte gives, or None when every byte is skipped.

    >>> die_from_bytes(bytes([251])), die_from_bytes(bytes([252, 253, 0]))
    (6, 1)
    >>> die_from_bytes(bytes([255])) is None
    True
    """
    for byte in data:
        if byte < ACCEPT_BELOW:
            return byte % 6 + 1
    return None


def die(server_seed: bytes, person_seed: str, number: int) -> int:
    """Die ``number`` (0-based) of a game with these seeds."""
    block = 0
    while True:
        message = f"{person_seed}:{number}:{block}".encode("ascii")
        value = die_from_bytes(hmac.new(server_seed, message, hashlib.sha256).digest())
        if value is not None:
            return value
        block += 1


def roll_of(server_seed: bytes, person_seed: str, roll: int) -> tuple[int, int]:
    """Roll ``roll`` (0-based): dice ``2 * roll`` and ``2 * roll + 1``."""
    return (die(server_seed, person_seed, 2 * roll), die(server_seed, person_seed, 2 * roll + 1))


@dataclass(frozen=True, slots=True)
class RollCheck:
    """One roll as played, beside the roll the seeds give."""

    roll: int
    played: tuple[int, int]
    derived: tuple[int, int]

    @property
    def matches(self) -> bool:
        return self.played == self.derived


def check_rolls(
    server_seed: bytes, person_seed: str, played: Iterable[tuple[int, tuple[int, int]]]
) -> list[RollCheck]:
    """Each ``(roll number, dice played)`` beside what the seeds give.

    >>> seed = bytes(range(32))
    >>> [c.matches for c in check_rolls(seed, "shuanglu", [(0, (5, 1)), (1, (2, 5))])]
    [True, False]
    """
    return [
        RollCheck(roll, (int(dice[0]), int(dice[1])), roll_of(server_seed, person_seed, roll))
        for roll, dice in played
    ]
