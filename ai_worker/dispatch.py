"""Send work to the computer player: Celery when a broker is set, else in-process.

Generic: it knows no task. Call ``enqueue`` from inside
``transaction.on_commit`` (the receivers of ``games.signals`` run there) so a
task never sees a state that was rolled back. With ``CELERY_BROKER_URL`` set,
``enqueue`` sends the Celery task to the queue it declares (``apply_async``,
routed by config.celery). Without a broker, the very same task function runs
in the web process on zero set-up's runtime (``runtime.inprocess``): this
module names each job's thread pool and lane, and ``wire`` (at start-up)
routes the evaluator's searches through the runtime, which sends them to the
lane's child processes. The domain code never knows where a search ran.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import redis
from celery import Task
from django.conf import settings
from kombu import pools

from runtime import broker, inprocess

# One thread pool per queue: a burst of reviews on "analysis" never holds up
# a computer move on "moves" nor a hint on "hints". A few threads for moves:
# the network evaluation mostly runs in C++, and a long Expert search in one
# game must leave threads free for the other games. Three for the hints
# queue's rankings, which wait on the engine lanes' processes: one thread
# kept the tutor's rankings in a line at 200 games (bench/README.md, "Stop 42").
POOL_SIZES = {"moves": 3, "hints": 3, "analysis": 1}

# Each queue's searches go to a lane of runtime.inprocess: the study work's
# to the reviews' lane (nice 19, behind play), the rest to play's.
LANES = {"analysis": inprocess.STUDY}

_lock = threading.Lock()


def wire() -> None:
    """At start-up (``AiWorkerConfig.ready``): the evaluator's searches go
    through the runtime, which sends them to the lane of the job asking (its
    child processes without a broker; here with one)."""
    from ai_worker import evaluator
    from ai_worker.analysis import review_ply
    from games.tiers import Tier, tier_spec

    evaluator.route_searches(inprocess.run)
    # The networks a lane's child loads before its first search: play's and
    # the reply's the Expert's depth, the reviews' theirs (the child unpickles
    # the function: it names a module that imports no Django).
    play = functools.partial(evaluator.warm_up, tier_spec(Tier.EXPERT).ply)
    study = functools.partial(evaluator.warm_up, review_ply())
    warm = {inprocess.PLAY: play, inprocess.REPLY: play, inprocess.STUDY: study}
    inprocess.wire(inprocess.Wiring(engine_processes, warm, jobs_here=in_process))


def in_process() -> bool:
    """Whether the jobs run in this process (no broker)."""
    return not uses_broker()


def engine_processes() -> int:
    """The play lane's processes now: ``ENGINE_PROCESSES``, none with a broker
    (a Celery worker searches on its own)."""
    return 0 if uses_broker() else int(getattr(settings, "ENGINE_PROCESSES", 0))


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
    lane = LANES.get(queue, inprocess.PLAY)
    job = functools.partial(task, *args)
    inprocess.submit(queue, POOL_SIZES.get(queue, 1), lane, (_name(task), args), job)


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
    try:
        return broker.is_empty(_client(), queue)
    except redis.RedisError:
        return False


def messages_ahead(task: Any, *args: Any) -> int | None:
    """How many messages are ahead of ``task(*args)`` in its queue: 0 when it
    is next; None when it is not waiting there (taken by a worker, lost, or
    no queue this process can see). Through the broker on Redis, else the
    in-process pool's own queue."""
    queue = queue_for(task)
    if not uses_broker():
        return inprocess.ahead(queue, (_name(task), args))
    if not _redis_broker():
        return None
    try:
        return broker.ahead(_client(), queue, task.name, list(args))
    except redis.RedisError:
        return None


def _client() -> redis.Redis:
    url = str(settings.CELERY_BROKER_URL)
    client = _clients.get(url)
    if client is None:
        # redis-py's pool is safe across threads and opens anew after a fork.
        client = _clients.setdefault(url, redis.Redis.from_url(url))
    return client


def _name(task: Any) -> str:
    return str(getattr(task, "name", task))


def queue_for(task: Any) -> str:
    """The queue ``task`` declares (``shared_task(declared_queue=...)``); "moves" if none."""
    return str(getattr(task, "declared_queue", None) or "moves")


def wait_idle(timeout: float = 30.0) -> bool:
    """Block until every in-process job has finished; True if all did.

    For tests and shutdown: the web process itself never waits.
    """
    return inprocess.wait_idle(timeout)


def close() -> None:
    """Finish the in-process jobs, close their connections, stop the pools and
    the lanes' processes (shutdown, and between tests)."""
    inprocess.close()
