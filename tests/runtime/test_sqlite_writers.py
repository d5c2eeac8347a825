"""runtime.sqlite: the writers of one process queue on a lock of the process,
not in SQLite's sleeping retries, and every way out of a write gives it back."""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction

from accounts.models import User
from runtime.sqlite.base import writer_lock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _sqlite_only() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the lock orders SQLite's writers (PostgreSQL's rows lock themselves)")


def lock() -> threading.Lock:
    return writer_lock(connection.settings_dict["NAME"])


def in_thread(fn: Any) -> threading.Thread:
    def run() -> None:
        try:
            fn()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def waits_in_take(thread: threading.Thread) -> bool:
    frame = sys._current_frames().get(thread.ident or 0)
    while frame is not None:
        if frame.f_code.co_name == "_take":
            return True
        frame = frame.f_back
    return False


def test_a_write_waits_for_anothers_transaction_on_the_processs_lock() -> None:
    user = User.objects.create(username="writer")
    holding, release, order = threading.Event(), threading.Event(), []

    def hold() -> None:
        with transaction.atomic():
            User.objects.filter(pk=user.pk).update(first_name="A")
            holding.set()
            release.wait(10)
            order.append("A committed")

    def write() -> None:
        User.objects.filter(pk=user.pk).update(last_name="B")
        order.append("B written")

    first = in_thread(hold)
    assert holding.wait(10)
    assert lock().locked()
    second = in_thread(write)
    deadline = time.monotonic() + 5
    while not waits_in_take(second):  # on the lock, not in SQLite's busy handler
        assert time.monotonic() < deadline, "the second writer never waited on the lock"
        time.sleep(0.01)
    release.set()
    first.join(10)
    second.join(10)
    assert order == ["A committed", "B written"]
    user.refresh_from_db()
    assert (user.first_name, user.last_name) == ("A", "B")
    assert not lock().locked()


def test_a_rollback_a_failed_write_and_a_nested_block_give_the_lock_back() -> None:
    user = User.objects.create(username="rolled")
    with pytest.raises(RuntimeError), transaction.atomic():
        User.objects.filter(pk=user.pk).update(first_name="gone")
        with transaction.atomic():  # a savepoint: the lock is taken once
            User.objects.filter(pk=user.pk).update(last_name="gone")
        raise RuntimeError("rolled back")
    assert not lock().locked()
    with pytest.raises(IntegrityError):
        User.objects.create(username="rolled")  # the unique name: refused by SQLite
    assert not lock().locked()
    user.refresh_from_db()
    assert user.first_name == "" and user.last_name == ""


def test_a_connection_closed_mid_transaction_gives_the_lock_back() -> None:
    held: list[bool] = []

    def close_mid_write() -> None:
        try:
            with transaction.atomic():
                User.objects.create(username="closed")
                held.append(lock().locked())
                connection.close()
        except Exception:  # noqa: S110  # whatever the block's exit makes of it
            pass

    in_thread(close_mid_write).join(10)
    assert held == [True]
    assert not lock().locked()
    User.objects.create(username="after")  # would wait 20 s on a lock never given back
    assert not User.objects.filter(username="closed").exists()
