"""Why a command changed nothing: the caller answers with the state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.engine import Refusal

if TYPE_CHECKING:
    from games.models import Game


class ServiceError(Exception):
    """A command that changed nothing; ``code`` names the reason on the wire."""

    code = "refused"


class StepRefusedError(ServiceError):
    """A step the rules forbid; ``refusal`` says which rule."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(str(refusal.code))
        self.refusal = refusal


class CubeRefusedError(ServiceError):
    """A cube, resign or match command the rules or the moment forbid;
    ``refusal_code``: the engine's ``CubeRefusal`` value or a moment's code
    (docs/interfaces.md §4a)."""

    def __init__(self, refusal_code: str) -> None:
        super().__init__(refusal_code)
        self.refusal_code = refusal_code


class StaleVersionError(ServiceError):
    code = "stale"

    def __init__(self, game: Game) -> None:
        super().__init__(f"game {game.pk} is at version {game.version}")
        self.game = game


class NotYourGameError(ServiceError):
    code = "not_your_game"


class GameOverError(ServiceError):
    code = "game_over"


class NotYourTurnError(ServiceError):
    code = "not_your_turn"


class TurnIncompleteError(ServiceError):
    """End turn before the steps form a whole legal play."""

    code = "turn_incomplete"


class CommitmentUsedError(ServiceError):
    """A start under a dice commitment that is no longer the person's next
    one (another tab's game took it), or under none (``commitment`` "")."""

    code = "commitment_used"

    def __init__(self, commitment: str) -> None:
        super().__init__(f"commitment {commitment[:12]!r} is not the next one")
        self.commitment = commitment


class SessionEndedError(Exception):
    """A socket's command whose session ended before its write (docs/interfaces.md
    §4, 4401). Not a ``ServiceError``: not refused in the game's terms."""
