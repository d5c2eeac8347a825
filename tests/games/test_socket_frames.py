"""Every frame a game socket receives is answered, or the socket closes with a code
(issue 30, item 8).

Frames fuzzed through the real ASGI app (channels' WebsocketCommunicator,
as tests/games/test_consumers.py): commands with fields of every JSON kind
(``NaN`` and ``Infinity`` literals included), JSON text mutated a character
at a time, deep nesting, any text and bytes. After each frame the socket
sends a JSON reply with a ``type``, or closes with a code that is not 1011
(the server's own failure).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from tests.games.fixtures_sockets import TIMEOUT, connect_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

REPLIES = {"ack", "refused", "error", "state"}


@pytest.fixture
def game(make_game: Any, held_computer_turns: Any) -> Game:
    return make_game(dice=[5, 2], kind="money")


async def answer_to(game_id: int, user: Any, frame: str | bytes) -> dict[str, Any]:
    """The socket's first output after ``frame``: a sent reply or a close."""
    socket, state = await connect_socket(game_id, user, language=b"en")
    key = "bytes" if isinstance(frame, bytes) else "text"
    await socket.send_input({"type": "websocket.receive", key: frame})
    output: dict[str, Any] = await socket.receive_output(TIMEOUT)
    await socket.disconnect()
    return output


def answered(output: dict[str, Any]) -> None:
    if output["type"] == "websocket.close":
        assert output["code"] not in (1011, None), output
        return
    assert output["type"] == "websocket.send", output
    reply = json.loads(output["text"])
    assert reply["type"] in REPLIES and (reply["type"] != "error" or reply["message"]), reply


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "step", "id": NaN, "version": 1, "from": 13, "to": 8}',
        '{"type": "step", "id": "a", "version": NaN, "from": 13, "to": 8}',
        '{"type": "step", "id": "a", "version": Infinity, "from": 13, "to": 8}',
        '{"type": "step", "id": "a", "version": 1, "from": NaN, "to": -Infinity}',
        '{"type": "resign", "id": "a", "version": 1, "kind": NaN}',
        '{"type": "step", "id": "a", "version": 1e400, "from": 13, "to": 8}',
        '{"type": "step", "id": "a", "version": 99999999999999999999999, "from": 13, "to": 8}',
        '{"type": "hint", "id": "a", "version": 99999999999999999999999}',
        '{"type": "step", "id": ' + "9" * 4000 + ', "version": 1}',
        "[" * 2000 + "]" * 2000,
        '{"type": "step", "id": "a", "version": 1, "from": ' + "[" * 1500 + "]" * 1500 + "}",
        b"\x00\xff",
        "",
    ],
    ids=lambda frame: repr(frame)[:40],
)
def test_the_frames_that_went_unanswered_are_answered(game: Game, user: Any, frame: Any) -> None:
    answered(async_to_sync(answer_to)(game.pk, user, frame))


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**25), 10**25),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["step", "undo", "end_turn", "resign", "hint", "roll", "double", "take"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=10,
)
FIELDS = ("type", "id", "version", "from", "to", "die", "kind")
COMMANDS = st.fixed_dictionaries({}, optional={name: JSON for name in FIELDS})


def frames() -> st.SearchStrategy[str | bytes]:
    encoded = COMMANDS.map(lambda command: json.dumps(command, allow_nan=True))
    mutated = st.tuples(encoded, st.integers(0, 200), st.text(max_size=3)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]
    )
    nested = st.integers(1, 3000).map(lambda n: "[" * n + "]" * n)
    anything = st.one_of(st.text(max_size=50), st.binary(max_size=30))
    return st.one_of(encoded, encoded, mutated, nested, anything)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frame=frames())
@pytest.mark.slow
def test_any_frame_is_answered_or_closed_with_a_code(game: Game, user: Any, frame: Any) -> None:
    answered(async_to_sync(answer_to)(game.pk, user, frame))
