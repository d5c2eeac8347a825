"""Send work to the computer player: Celery when a broker is set, else in-process.

Generic: it knows no task. Call ``enqueue`` from inside
``transaction.on_commit`` (the receivers of ``games.signals`` run there) so a
task never sees a state that was rolled back. With ``CELERY_BROKER_URL`` set,
``enqueue`` sends the Celery task to the queue it declares (``apply_async``,
routed by config.celery). Without a broker,
the very same task function runs on a small thread pool owned by this module,
never on the event loop nor on the consumer's sync database thread, so an
Expert turn in one game does not delay a step in another.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

import redis
from celery import Task
from django.conf import settings
from django.db import close_old_connections
from kombu import pools

from runtime import dbthreads, engine_pool

log = logging.getLogger(__name__)

# One pool per queue: a burst of reviews on "analysis" never holds up a
# computer move on "moves" nor a hint on "hints". A few threads for moves:
# the network evaluation mostly runs in C++, and a long Expert search in one
# game must leave threads free for the other games. Three for the hints
# queue's rankings, which wait on the engine lanes' processes: one thread
# kept the tutor's rankings in a line at 200 games (bench/README.md, "Stop 42").
POOL_SIZES = {"moves": 3, "hints": 3, "analysis": 1}

# The pools share this process's interpreter lock with the event loop: it
# changes hands every 1 ms instead of Python's 5, so a step waits less behind
# a computer's turn, a ranking or a review (zero set-up, 50 games, tutor on:
# p99 435 and 274 -> 78 and 53 ms; not told apart with a broker:
# bench/README.md, "The tutor", stop 41).
SWITCH_INTERVAL = 0.001

# The searches of an in-process job run in child processes of its lane
# (runtime.engine_pool), each an interpreter of its own: the reviews' lane at
# nice 19, behind play. ``settings.ENGINE_PROCESSES`` play processes; 0 keeps
# every search on the job's thread.
STUDY_QUEUES = frozenset({"analysis"})
STUDY_NICE = 19
# Before each of its searches a review waits while a person's command is on
# the game sockets' threads, this long at most: its rows, its searches' answers
# and its share of the interpreter come after play's.
STUDY_YIELDS_SECONDS = 0.1

_lock = threading.Lock()
_pools: dict[str, ThreadPoolExecutor] = {}
_pending: set[Future[None]] = set()
# The in-process jobs not started yet, per queue, in order: (task, args).
_waiting: dict[str, list[tuple[Any, tuple[Any, ...]]]] = {}


class QueuedTask(Task[Any, Any]):
    """The base of every task of the site: it names its queue.

    ``shared_task(base=QueuedTask, declared_queue="moves")``; config.celery's
    router sends it there, and without a broker its in-process pool is the
    one of that name.
    """

    declared_queue = "moves"


def uses_broker() -> bool:
    """True when tasks go to Celery workers rather than the web process."""
    return bool(getattr(settings, "CELERY_BROKER_URL", ""))


def enqueue(task: Any, *args: Any) -> None:
    """Run ``task(*args)``: via the broker if there is one, else in-process."""
    if uses_broker():
        # The broker that settings name now (a test may point at another): a
        # producer from kombu's pool for that URL, not the app's first one.
        with pools.producers[_broker(task.app)].acquire(block=True) as producer:
            task.apply_async(args=args, producer=producer)
        return
    queue = queue_for(task)
    with _lock:
        _waiting.setdefault(queue, []).append((task, args))
    _submit(queue, _run_in_process, queue, task, args)


_brokers: dict[str, Any] = {}


def _broker(app: Any) -> Any:
    """The kombu connection (one per URL, the key of its producer pool)."""
    url = str(settings.CELERY_BROKER_URL)
    with _lock:
        if url not in _brokers:
            _brokers[url] = app.connection_for_write(url)
        return _brokers[url]


def _redis_broker() -> bool:
    return str(settings.CELERY_BROKER_URL).startswith(("redis://", "rediss://"))


_clients: dict[str, redis.Redis] = {}


def queue_is_empty(queue: str) -> bool:
    """Whether the broker's ``queue`` holds no message (False without a Redis
    broker: nothing there can be lost, or nothing to ask)."""
    if not uses_broker() or not _redis_broker():
        return False
    client = _client()
    try:
        try:
            return int(client.llen(queue)) == 0
        except redis.ConnectionError:  # a connection from before a restart: once more
            return int(client.llen(queue)) == 0
    except redis.RedisError:
        return False


# How far into a queue ``messages_ahead`` looks (from the end taken first).
LOOK_AHEAD = 500


def messages_ahead(task: Any, *args: Any) -> int | None:
    """How many messages are ahead of ``task(*args)`` in its queue: 0 when it
    is next; None when it is not waiting there (taken by a worker, lost, or
    no queue this process can see). Through the broker on Redis, else the
    in-process pool's own queue."""
    queue = queue_for(task)
    if not uses_broker():
        return _in_process_ahead(queue, task, args)
    if not _redis_broker():
        return None
    try:
        # LPUSH in, BRPOP out: the list's end is the next message.
        waiting = list(reversed(_client().lrange(queue, -LOOK_AHEAD, -1)))
    except redis.RedisError:
        return None
    for ahead, raw in enumerate(waiting):
        if _is_message_of(raw, task.name, list(args)):
            return ahead
    return None


def _is_message_of(raw: bytes | str, name: str, args: list[Any]) -> bool:
    try:
        envelope = json.loads(raw)
        if envelope.get("headers", {}).get("task") != name:
            return False
        body = json.loads(base64.b64decode(envelope["body"]))
    except (ValueError, KeyError, TypeError):
        return False
    return isinstance(body, list) and bool(body) and body[0] == args


def _in_process_ahead(queue: str, task: Any, args: tuple[Any, ...]) -> int | None:
    with _lock:
        waiting = list(_waiting.get(queue, ()))
    # A pool of n threads runs the first n at once: what is ahead is in line before.
    for ahead, job in enumerate(waiting):
        if job == (task, args):
            return ahead
    return None


def _client() -> redis.Redis:
    url = str(settings.CELERY_BROKER_URL)
    client = _clients.get(url)
    if client is None:
        # redis-py's pool is safe across threads and opens anew after a fork.
        client = _clients.setdefault(url, redis.Redis.from_url(url))
    return client


def queue_for(task: Any) -> str:
    """The queue ``task`` declares (``shared_task(declared_queue=...)``); "moves" if none."""
    return str(getattr(task, "declared_queue", None) or "moves")


def wait_idle(timeout: float = 30.0) -> bool:
    """Block until every in-process job has finished; True if all did.

    For tests and shutdown: the web process itself never waits.
    """
    with _lock:
        pending = set(_pending)
    if not pending:
        return True
    _done, not_done = wait(pending, timeout=timeout)
    return not not_done


def _submit(queue: str, fn: Callable[..., None], *args: Any) -> None:
    with _lock:
        pool = _pools.get(queue)
        if pool is None:
            sys.setswitchinterval(SWITCH_INTERVAL)
            pool = ThreadPoolExecutor(
                max_workers=POOL_SIZES.get(queue, 1), thread_name_prefix=f"ai-{queue}"
            )
            _pools[queue] = pool
        future = pool.submit(fn, *args)
        _pending.add(future)
    future.add_done_callback(_forget)


def _forget(future: Future[None]) -> None:
    with _lock:
        _pending.discard(future)


def _run_in_process(queue: str, task: Any, args: tuple[Any, ...]) -> None:
    with _lock:
        waiting = _waiting.get(queue, [])
        if (task, args) in waiting:
            waiting.remove((task, args))
    # Each pool thread keeps its own database connection (CONN_MAX_AGE), as
    # a Celery worker does: drop stale ones before and after. Reconnecting
    # for every turn cost PostgreSQL 20-30 ms of the reply (bench/live.py).
    close_old_connections()
    try:
        with engine_pool.lane(lane_of(queue)):
            task(*args)
    except Exception:
        log.exception("in-process task %s%r failed", getattr(task, "name", task), args)
    finally:
        close_old_connections()


def lane_of(queue: str) -> engine_pool.Lane | None:
    """The engine lane of ``queue``'s in-process jobs (``play_lane``, the
    reviews' own for the study queues)."""
    play = play_lane()
    if play is None or queue not in STUDY_QUEUES:
        return play
    gate = functools.partial(dbthreads.wait_quiet, STUDY_YIELDS_SECONDS)
    return engine_pool.Lane("study", 1, STUDY_NICE, play.warm, gate)


def reply_lane() -> engine_pool.Lane | None:
    """The lane of what a person's command waits for on the game sockets'
    threads (the tutor's check: its search and its words), a process of its
    own: never behind the computer's turns and the rankings in play's."""
    play = play_lane()
    return None if play is None else engine_pool.Lane("reply", 1, 0, play.warm)


def play_lane() -> engine_pool.Lane | None:
    """The lane of play's searches (the computer's turns and the rankings);
    None with a broker (a Celery worker searches on its own) or
    ``ENGINE_PROCESSES`` 0."""
    processes = int(getattr(settings, "ENGINE_PROCESSES", 0))
    if processes <= 0 or uses_broker():
        return None
    from ai_worker.evaluator import MAX_PLY, warm_up

    # The networks loaded before a child's first search.
    return engine_pool.Lane("play", processes, 0, functools.partial(warm_up, MAX_PLY))


def close() -> None:
    """Finish the in-process jobs, close the pools' connections, stop the pools.

    For shutdown and between tests (a test database cannot be dropped while
    a pool thread holds a connection to it).
    """
    with _lock:
        pools = list(_pools.items())
        _pools.clear()
    for queue, pool in pools:
        _shut_down(pool, queue)
    engine_pool.close()


def _shut_down(pool: ThreadPoolExecutor, queue: str) -> None:
    dbthreads.shut_down(pool, POOL_SIZES.get(queue, 1))
