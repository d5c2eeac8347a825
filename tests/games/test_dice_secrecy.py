"""The server seed stays on the server until the game is over (docs/dice.md).

A game is started from the lobby with the person's seed and played over a
real socket (the person's steps as commands, the computer's turns by its
real policy) for several turns; every socket message and every page of the
game is read: none holds the seed (hex, either case, or base64), and the
only 64-hex-digit strings they hold are commitments. Resigned, the state
reveals the seed, which gives every roll played.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client, override_settings

from ai_worker.turns import run_computer_turn
from config.asgi import application
from games.dice_proof import check_game
from games.engine import fairdice
from games.models import Game, NextDiceSeed
from tests.conftest import start_fields

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]

HEX64 = re.compile(r"[0-9a-fA-F]{64}")
TIMEOUT = 10


def _secret_forms(seed_hex: str) -> list[str]:
    raw = bytes.fromhex(seed_hex)
    return [seed_hex, seed_hex.upper(), base64.b64encode(raw).decode(), raw.hex(" ")]


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _pages(client: Client, game_id: int) -> list[str]:
    urls = ["/", f"/games/{game_id}/", f"/games/{game_id}/state", f"/learn/verify/{game_id}/"]
    return [client.get(url).content.decode() for url in urls]


def _start(client: Client) -> int:
    answer = client.post(
        "/games/new/", start_fields(client, tier="beginner", dice_seed="secrecy-test")
    )
    return int(answer.url.strip("/").split("/")[-1])


async def _drain(
    socket: WebsocketCommunicator,
    seen: list[str],
    after: int | None = None,
    last: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every message up to the first state past version ``after``, or, with no
    ``after``, until the socket is quiet; the last state (``last``: the one
    read before). Messages that come later are read by the next drain, so
    ``seen`` misses none."""
    last = dict(last or {})

    async def done() -> bool:
        if after is not None:
            return bool(last) and last["version"] > after
        # At least one state (a loaded machine may take longer than 0.3 s to send it).
        return bool(last) and await socket.receive_nothing(timeout=0.3)

    while not await done():
        text = await socket.receive_from(TIMEOUT)
        seen.append(text)
        message = json.loads(text)
        if message.get("type") == "state":
            last = message
    return last


# Each command is sent as soon as its state came, faster than a person plays:
# past the socket's burst of commands they would be refused.
@override_settings(SOCKET_COMMAND_BURST=100)
async def test_the_server_seed_is_sent_nowhere_before_the_game_ends(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    client = await database_sync_to_async(_client)(user)
    seen: list[str] = []
    seen.append((await database_sync_to_async(client.get)("/")).content.decode())
    game_id = await database_sync_to_async(_start)(client)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"cookie", cookie.encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    assert (await socket.connect())[0]
    state = await _drain(socket, seen)
    number = 0
    for _ in range(40):
        if state["status"] == "finished":
            break
        version: int | None = state["version"]
        if state["turn"] == "dark":
            await database_sync_to_async(run_computer_turn)(game_id, state["version"])
        elif state["allowed"]:
            step = state["allowed"][0]
            number += 1
            command = {
                "type": "step",
                "id": f"c{number}",
                "version": state["version"],
                "from": step["from"],
                "to": step["to"],
                "die": step["die"],
            }
            await socket.send_json_to(command)
        elif state["can_end_turn"]:
            number += 1
            await socket.send_json_to(
                {"type": "end_turn", "id": f"c{number}", "version": state["version"]}
            )
        else:
            version = None  # nothing sent: read until the socket is quiet
        state = await _drain(socket, seen, after=version)
    state = await _drain(socket, seen, last=state)  # whatever came after that state
    seen.extend(await database_sync_to_async(_pages)(client, game_id))

    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    nxt = await database_sync_to_async(NextDiceSeed.objects.get)(owner=user)
    assert game.person_seed == "secrecy-test"
    assert game.last_turn is not None and game.last_turn["number"] >= 3  # rolls of both sides
    allowed = {game.dice_commitment, fairdice.commitment(bytes.fromhex(nxt.seed))}
    everything = "\n".join(seen)
    for form in _secret_forms(game.server_seed) + _secret_forms(nxt.seed):
        assert form not in everything
    assert {m.lower() for m in HEX64.findall(everything)} <= allowed
    assert game.dice_commitment in everything

    number += 1
    await socket.send_json_to({"type": "resign", "id": f"c{number}", "version": state["version"]})
    state = await _drain(socket, seen)
    assert state["status"] == "finished"
    assert state["dice_proof"]["server_seed"] == game.server_seed
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    committed, checked = await database_sync_to_async(check_game)(game)
    assert committed and checked and all(c.matches for c in checked)
    await socket.disconnect()
    await database_sync_to_async(connections.close_all)()
