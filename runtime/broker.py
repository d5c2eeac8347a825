"""Celery's messages where kombu's Redis transport keeps them: one Redis list
a queue (``LPUSH`` in, ``BRPOP`` out, so the list's end is the next
message), each message kombu's JSON envelope whose ``headers.task`` names
the task and whose ``body`` is the base64 of Celery's protocol 2 body,
``[args, kwargs, embed]``. Read to say how many messages are ahead of a job
and whether a queue is empty (runtime/internals.py; tests/runtime/
test_broker.py sends real tasks through Celery and reads them back).

A message at another priority than the default sits in another list
(kombu's ``queue\\x06\\x16N``): the site sends none.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import redis

# How far into a queue ``ahead`` looks (from the end taken first).
LOOK_AHEAD = 500


def is_empty(client: redis.Redis, queue: str) -> bool:
    """Whether ``queue`` holds no message; a connection from before a Redis
    restart is tried once more. ``redis.RedisError`` if Redis does not answer."""
    try:
        return int(client.llen(queue)) == 0
    except redis.ConnectionError:
        return int(client.llen(queue)) == 0


def ahead(client: redis.Redis, queue: str, task: str, args: list[Any]) -> int | None:
    """How many messages are before ``task(*args)``'s in ``queue`` (0: next),
    None if it is not among the ``LOOK_AHEAD`` next. ``redis.RedisError`` if
    Redis does not answer."""
    waiting = list(reversed(client.lrange(queue, -LOOK_AHEAD, -1)))
    for count, raw in enumerate(waiting):
        if is_message_of(raw, task, args):
            return count
    return None


def is_message_of(raw: bytes | str, task: str, args: list[Any]) -> bool:
    """Whether the stored message ``raw`` is ``task(*args)``."""
    try:
        envelope = json.loads(raw)
        if envelope.get("headers", {}).get("task") != task:
            return False
        body = json.loads(base64.b64decode(envelope["body"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    return isinstance(body, list) and bool(body) and body[0] == args
