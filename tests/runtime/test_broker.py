"""runtime/broker.py: Celery's messages as kombu's Redis transport keeps
them (runtime/internals.py). Real tasks sent through Celery to a real Redis
and read back: when Celery or kombu change the lists or the envelope, these
fail instead of every job reading as lost."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from ai_worker import dispatch
from learning import tasks
from runtime import broker

QUEUE = tasks.analyse_position.declared_queue  # "analysis"


@pytest.fixture
def queue(redis_url: str, settings: Any) -> Iterator[redis.Redis]:
    """The broker on the tests' Redis, ``QUEUE`` empty before and after."""
    settings.CELERY_BROKER_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    client.delete(QUEUE)
    yield client
    client.delete(QUEUE)
    client.close()


@pytest.mark.redis
def test_celerys_messages_are_where_and_as_the_broker_reader_reads_them(
    queue: redis.Redis,
) -> None:
    assert broker.is_empty(queue, QUEUE)
    for job in (11, 12, 13):
        dispatch.enqueue(tasks.analyse_position, job)
    assert not broker.is_empty(queue, QUEUE)
    name = tasks.analyse_position.name
    assert [broker.ahead(queue, QUEUE, name, [job]) for job in (11, 12, 13, 14)] == [0, 1, 2, None]
    assert broker.ahead(queue, QUEUE, "learning.tasks.other", [11]) is None
    # The envelope itself: the next message (the list's end) is the first sent.
    envelope = json.loads(queue.lindex(QUEUE, -1))
    assert envelope["headers"]["task"] == name
    args, kwargs, _embed = json.loads(base64.b64decode(envelope["body"]))
    assert (args, kwargs) == ([11], {})
    # And the dispatcher answers through it.
    assert dispatch.messages_ahead(tasks.analyse_position, 13) == 2
    assert not dispatch.queue_is_empty(QUEUE)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b'{"headers": {"task": "t"}}',
        b'{"headers": {"task": "t"}, "body": "!"}',
    ],
)
def test_a_message_that_cannot_be_read_is_no_ones(raw: bytes) -> None:
    assert broker.is_message_of(raw, "t", [1]) is False
