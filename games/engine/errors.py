"""Typed errors raised by the rules engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.turn import Refusal


class InvalidNotationError(ValueError):
    """Text that is not a well-formed move, Position ID or XGID."""


class IllegalPlayError(ValueError):
    """A well-formed play that the rules do not allow in this position."""


class IllegalStepError(ValueError):
    """A single step the turn refuses; ``refusal`` says why (code + params)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.code.value}: {dict(refusal.params)}")
        self.refusal = refusal
