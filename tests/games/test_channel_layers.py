"""The channel layers the site configures, under the load one server sees."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.utils.module_loading import import_string

from runtime.layers import InMemoryChannelLayer
from tests.settings_runs import run

LAYER_CONFIG_PROBE = """
import json, django
from django.conf import settings
django.setup()
print("PROBE" + json.dumps(settings.CHANNEL_LAYERS["default"]))
"""


def site_layer_config(redis_url: str) -> dict[str, Any]:
    """CHANNEL_LAYERS["default"] as config/settings.py builds it for ``redis_url``."""
    result = run(["-c", LAYER_CONFIG_PROBE], REDIS_URL=redis_url)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("PROBE"))
    layer: dict[str, Any] = json.loads(line.removeprefix("PROBE"))
    return layer


def site_layer(redis_url: str, prefix: str) -> Any:
    config = site_layer_config(redis_url)
    return import_string(config["BACKEND"])(**{**config["CONFIG"], "prefix": prefix})


@pytest.mark.slow
def test_redis_layer_channels_carry_the_database_number() -> None:
    # Pub/sub channels are the whole Redis server's: two sites on one server,
    # each on its own database, must not share a game's group.
    prefixes = {
        site_layer_config(f"redis://127.0.0.1:6379/{n}")["CONFIG"]["prefix"] for n in ("", 2, 3)
    }
    assert prefixes == {"asgi-db0-", "asgi-db2-", "asgi-db3-"}


@pytest.mark.redis
def test_redis_layer_takes_300_sockets_joining_at_once(redis_url: str) -> None:
    # A restarted server sees every open game reconnect within a second; with
    # channels_redis's list-based layer on redis-py's default pool (100
    # connections, then an error) each socket past the hundredth was closed
    # with 1011.
    layer = site_layer(redis_url, "test-burst")

    async def burst() -> list[dict[str, Any]]:
        channels = [await layer.new_channel() for _ in range(300)]
        await asyncio.gather(
            *(layer.group_add(f"burst-{i}", name) for i, name in enumerate(channels))
        )
        await asyncio.gather(
            *(layer.group_send(f"burst-{i}", {"type": "x", "i": i}) for i in range(300))
        )
        got = await asyncio.gather(*(layer.receive(name) for name in channels))
        await asyncio.gather(
            *(layer.group_discard(f"burst-{i}", name) for i, name in enumerate(channels))
        )
        await layer.flush()
        return list(got)

    got = asyncio.run(burst())
    assert [message["i"] for message in got] == list(range(300))


@pytest.mark.redis
def test_redis_layer_survives_an_idle_spell(redis_url: str) -> None:
    # redis-py 8 reads with a 5 s timeout by default; channels_redis's
    # list-based layer waited 5 s in BZPOPMIN, so an idle process's receive
    # failed now and then and every socket on it closed. Wait past both and
    # the layer still delivers.
    layer = site_layer(redis_url, "test-idle")

    async def idle() -> dict[str, Any]:
        channel = await layer.new_channel()
        await layer.group_add("idle", channel)
        waiting = asyncio.ensure_future(layer.receive(channel))  # as a socket waits
        await asyncio.sleep(6.5)
        assert not waiting.done(), waiting
        await layer.group_send("idle", {"type": "x", "after": "idle"})
        message: dict[str, Any] = await asyncio.wait_for(waiting, timeout=5)
        await layer.flush()
        return message

    assert asyncio.run(idle()) == {"type": "x", "after": "idle"}


def test_in_memory_layer_sweeps_expired_messages_once_a_second() -> None:
    layer = InMemoryChannelLayer(expiry=-1)  # every message is born expired

    async def scenario() -> None:
        await layer.group_add("g", "specific.a!1")
        await layer.send("specific.a!1", {"type": "x"})
        layer._clean_expired()  # the first sweep runs
        assert "specific.a!1" not in layer.channels
        assert "specific.a!1" not in layer.groups.get("g", {})

        await layer.group_add("g", "specific.a!2")
        await layer.send("specific.a!2", {"type": "x"})
        layer._clean_expired()  # within the second: skipped
        assert "specific.a!2" in layer.channels
        layer._next_sweep = 0.0  # a second later
        layer._clean_expired()
        assert "specific.a!2" not in layer.channels

    asyncio.run(scenario())


def test_in_memory_layer_still_delivers_to_the_group() -> None:
    layer = InMemoryChannelLayer()

    async def scenario() -> list[dict[str, Any]]:
        await layer.group_add("g", "specific.a!1")
        await layer.group_add("g", "specific.a!2")
        await layer.group_send("g", {"type": "game.state", "n": 1})
        return [await layer.receive("specific.a!1"), await layer.receive("specific.a!2")]

    assert asyncio.run(scenario()) == [{"type": "game.state", "n": 1}] * 2


def test_in_memory_layer_gives_each_member_its_own_message_and_skips_a_full_channel() -> None:
    layer = InMemoryChannelLayer(capacity=1)

    async def scenario() -> list[dict[str, Any]]:
        for member in ("specific.a!1", "specific.a!2"):
            await layer.group_add("g", member)
        await layer.send("specific.a!2", {"type": "earlier"})  # now full
        await layer.group_send("g", {"type": "game.state", "n": 1})
        first = await layer.receive("specific.a!1")
        first["n"] = 2  # a handler's change stays its own
        return [first, await layer.receive("specific.a!2")]

    assert asyncio.run(scenario()) == [{"type": "game.state", "n": 2}, {"type": "earlier"}]


def test_in_memory_layer_leaves_the_sender_of_a_state_out() -> None:
    # The socket whose command made the state answers with it itself
    # (games.live.broadcast.answered_by); the group's other sockets get it.
    layer = InMemoryChannelLayer()

    async def scenario() -> tuple[dict[str, Any], bool]:
        for member in ("specific.a!1", "specific.a!2"):
            await layer.group_add("g", member)
        await layer.group_send("g", {"type": "game.state", "n": 1, "sender": "specific.a!1"})
        other = await layer.receive("specific.a!2")
        sender_queue = layer.channels.get("specific.a!1")
        return other, sender_queue is None or sender_queue.empty()

    assert asyncio.run(scenario()) == (
        {"type": "game.state", "n": 1, "sender": "specific.a!1"},
        True,
    )


def test_in_memory_layer_tells_whether_a_group_has_others_than_the_sender() -> None:
    layer = InMemoryChannelLayer()

    async def scenario() -> list[bool]:
        seen = [layer.reaches_others("g", "specific.a!1")]  # no group yet
        await layer.group_add("g", "specific.a!1")
        seen.append(layer.reaches_others("g", "specific.a!1"))
        await layer.group_add("g", "specific.a!2")
        seen.append(layer.reaches_others("g", "specific.a!1"))
        seen.append(layer.reaches_others("g", "specific.b!1"))
        return seen

    assert asyncio.run(scenario()) == [False, False, True, True]


@pytest.mark.django_db
def test_only_the_commands_own_state_names_its_sender_and_alone_it_is_not_sent(
    make_game: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from asgiref.sync import async_to_sync

    from games.live import broadcast
    from games.models import Game

    layer = InMemoryChannelLayer()
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append(message))
    game = make_game(dice=[5, 2])
    group = broadcast.group_name(game.pk)
    async_to_sync(layer.group_add)(group, "specific.a!1")
    with broadcast.answered_by("specific.a!1"):
        broadcast.push_state(Game, game)  # the sender alone watches: nothing sent
    async_to_sync(layer.group_add)(group, "specific.a!2")  # a second tab
    with broadcast.answered_by("specific.a!1"):
        broadcast.push_state(Game, game)
        broadcast.push_state(Game, game)  # anything after it in the block: to every socket
    broadcast.push_state(Game, game)
    assert [m.get("sender") for m in sent] == ["specific.a!1", None, None]
    assert all(m["state"]["game"] == game.pk for m in sent)


def test_a_send_from_a_thread_running_another_loop_still_reaches_the_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No sockets' loop in this process, and the calling thread runs a loop of
    # its own (a test driving Playwright's sync API signs a user in):
    # async_to_sync refuses to run there, and the send was logged as failed.
    from games.live import broadcast

    layer = InMemoryChannelLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcast, "_server_loop", None)
    group = broadcast.session_group("a-session-key")

    async def scenario() -> dict[str, Any]:
        await layer.group_add(group, "specific.a!1")
        broadcast.group_send(group, {"type": "session.check"})  # a plain call, inside the loop
        return await asyncio.wait_for(layer.receive("specific.a!1"), 5)

    assert asyncio.run(scenario()) == {"type": "session.check"}
