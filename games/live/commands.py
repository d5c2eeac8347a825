"""Socket commands: parse a frame, run it through ``games.services``, reply:
the protocol as plain synchronous code, apart from the consumer, which only
moves frames and calls ``run_command`` off the event loop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games import services, tutor
from games.engine import BAR, OFF
from games.engine.fairdice import valid_person_seed
from games.json_input import JsonInputError, read_object
from games.live.state import build_state, damaged_words
from games.models import Game, ResultKind
from games.row_checks import READ_ERRORS, row_damage
from games.words.cube import describe_cube_refusal
from games.words.dice import commitment_words
from games.words.refusals import describe_refusal

MAX_ID_LENGTH = 64
# A frame is at most 4 KB; a command is one flat object, so anything nested
# deeper is not one (and a frame of 2,000 "[" made json.loads raise
# RecursionError: the socket closed 1011 without a word).
MAX_FRAME_BYTES = 4096
MAX_FRAME_DEPTH = 2


class CommandError(Exception):
    """A frame that is not a command we can run."""

    def __init__(self, code: str, message: str, command_id: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.command_id = command_id


@dataclass(frozen=True)
class Command:
    type: str
    id: str
    version: int
    args: dict[str, Any] = field(default_factory=dict)


def parse_command(text_data: str | None, bytes_data: bytes | None = None) -> Command:
    """A ``Command`` from one frame, or ``CommandError`` saying what is wrong."""
    frame = text_data.encode() if text_data is not None else bytes_data or b""
    if len(frame) > MAX_FRAME_BYTES:
        raise CommandError("too_large", _("Message too large (over 4 KB)."))
    if text_data is None:
        raise CommandError("bad_json", _("Commands are JSON text frames."))
    try:
        data = read_object(text_data, MAX_FRAME_BYTES, MAX_FRAME_DEPTH)
    except JsonInputError as error:
        words = {"not_object": _("A command is a JSON object."), "too_deep": error.message}
        message = words.get(error.code, _("That message is not valid JSON."))
        raise CommandError("bad_json", message) from None
    given_id = str(data.get("id")) if type(data.get("id")) in (str, int) else ""
    command_id = given_id if 0 < len(given_id) <= MAX_ID_LENGTH else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in services.PERSON_COMMANDS:
        raise CommandError("unknown_type", _("Unknown command type."), command_id)
    if not given_id:
        raise CommandError("bad_command", _("A command needs an id."))
    if command_id is None:
        message = _("A command id is at most %(limit)d characters long.")
        raise CommandError("bad_command", message % {"limit": MAX_ID_LENGTH})
    version = data.get("version")
    if type(version) is not int:  # json.loads's exact types: a bool is no number
        message = _("A command needs the version it was made on.")
        raise CommandError("bad_command", message, command_id)
    return Command(kind, command_id, version, _args(kind, data, command_id))


def _args(kind: str, data: dict[str, Any], command_id: str) -> dict[str, Any]:
    if kind == "resign":
        resign_kind = data.get("kind", "single")
        if resign_kind not in ResultKind.values:
            message = _("A resignation is single, gammon or backgammon.")
            raise CommandError("bad_command", message, command_id)
        return {"kind": resign_kind}
    if kind == "next_game":
        return _next_game_args(data, command_id)
    if kind == "undo":
        return {"whole": True} if _flag(data, "whole", command_id) else {}
    if kind == "end_turn" or kind in tutor.ANYWAY_COMMANDS.values():  # 仍然这样走
        return {"anyway": True} if _flag(data, "anyway", command_id) else {}
    if kind != "step":
        return {}
    src, dst, die = data.get("from"), data.get("to"), data.get("die")
    if not (type(src) is int and type(dst) is int and OFF <= src <= BAR and OFF <= dst <= BAR):
        raise CommandError(
            "bad_command", _("A step needs a from and a to point between 0 and 25."), command_id
        )
    args: dict[str, Any] = {"src": src, "dst": dst}
    if die is not None:
        if not (type(die) is int and 1 <= die <= 6):
            raise CommandError("bad_command", _("A die is a number from 1 to 6."), command_id)
        args["die"] = die
    return args


def _next_game_args(data: dict[str, Any], command_id: str) -> dict[str, Any]:
    """The commitment the page showed (checked by the service: "" is none)
    and the person's seed for the next game's dice, if the page sends one."""
    seed, shown = data.get("seed"), data.get("commitment", "")
    if seed is not None and not (isinstance(seed, str) and valid_person_seed(seed)):
        raise CommandError("bad_command", bad_seed_message(), command_id)
    if not isinstance(shown, str) or not (shown == "" or _COMMITMENT.fullmatch(shown)):
        message = _("A dice commitment is 64 hex digits.")
        raise CommandError("bad_command", message, command_id)
    return {"commitment": shown, **({} if seed is None else {"seed": seed})}


_COMMITMENT = re.compile(r"[0-9a-f]{64}")


def _flag(data: dict[str, Any], name: str, command_id: str) -> bool:
    """An optional true/false field of a command (false when left out)."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        message = _("“%(name)s” is true or false.") % {"name": name}
        raise CommandError("bad_command", message, command_id)
    return value


def bad_seed_message() -> str:
    return _(
        "Your dice seed is 1 to 64 letters (A-Z, a-z), digits, underscores or hyphens; "
        "change it and try again."
    )


def run_command(
    game_id: int, user: Any, command: Command
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``command``; the reply and, unless it was refused, the state to send."""
    try:
        run = services.PERSON_COMMANDS[command.type]
        game = run(game_id, user, command.version, **command.args)
    except services.StepRefusedError as exc:
        refusal = exc.refusal
        params = {k: list(v) if isinstance(v, tuple) else v for k, v in refusal.params.items()}
        return _refused(command.id, refusal.code.value, params, describe_refusal(refusal)), None
    except services.CubeRefusedError as exc:
        words = describe_cube_refusal(exc.refusal_code)
        return _refused(command.id, exc.refusal_code, {}, words), None
    except services.CommitmentUsedError as exc:
        # Refused in words with the next commitment, which the page then shows.
        code = "commitment_used" if exc.commitment else "commitment_missing"
        shown = services.next_commitment(user)
        words = commitment_words(code, shown)
        return _refused(command.id, "commitment_used", {"commitment": shown}, words), None
    except services.ServiceError as exc:
        return _error_reply(command.id, exc.code), _state_of(game_id)
    except Game.DoesNotExist:
        return _error_reply(command.id, "not_found"), None
    except READ_ERRORS:
        # The row under an open socket cannot be read: stopped and said so
        # (build_state marks it), unless the row reads and the fault is ours.
        if row_damage(Game.objects.get(pk=game_id), deep=True) is None:
            raise
        return _error_reply(command.id, "damaged"), _state_of(game_id)
    state = getattr(game, "sent_state", None) or build_state(game)
    reply: dict[str, Any] = {"type": "ack", "id": command.id, "version": game.version}
    if state.get("tutor") is not None:  # the tutor's warning, or that it went unchecked
        reply["tutor"] = state["tutor"]
    return reply, state


def _refused(command_id: str, code: str, params: dict[str, Any], words: str) -> dict[str, Any]:
    """A command the rules or the moment refuse: nothing changed, no state follows."""
    return {"type": "refused", "id": command_id, "code": code, "params": params, "message": words}


def _state_of(game_id: int) -> dict[str, Any]:
    return build_state(Game.objects.get(pk=game_id))


def _error_reply(command_id: str, code: str) -> dict[str, Any]:
    """A command error ``code`` with its sentence in the active language."""
    messages = {
        "stale": _("The game has moved on; here is the current position."),
        "not_your_turn": _("It is not your turn."),
        "turn_incomplete": _("Play your dice before ending the turn."),
        "game_over": _("This game is over."),
        "not_your_game": _("This is not your game."),
        "not_found": _("No such game."),
        "damaged": damaged_words(finished=False),
    }
    message = messages.get(code, _("That command could not be run."))
    return {"type": "error", "id": command_id, "code": code, "message": message}
