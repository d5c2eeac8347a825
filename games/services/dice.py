"""The one source of dice in the site (tests replace ``roll_die`` here)."""

from __future__ import annotations

import secrets


def roll_die() -> int:
    return secrets.randbelow(6) + 1


def roll_dice() -> list[int]:
    """One roll: two dice, each from ``roll_die`` (looked up at call time)."""
    return [roll_die(), roll_die()]
