"""prune_guests removes only guests unused for longer than --days."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User

pytestmark = pytest.mark.django_db


def age(user: Any, days: int) -> None:
    then = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(last_login=then, date_joined=then)


def test_it_deletes_old_guests_and_keeps_recent_guests_and_named_users(
    make_user: Any,
) -> None:
    old_guest, new_guest = make_user(guest=True), make_user(guest=True)
    old_named = make_user("olga")
    age(old_guest, 200)
    age(old_named, 200)
    age(new_guest, 3)
    out = StringIO()
    call_command("prune_guests", "--days", "120", stdout=out)
    assert "deleted 1 guest accounts" in out.getvalue()
    assert set(User.objects.values_list("pk", flat=True)) == {new_guest.pk, old_named.pk}


def test_a_dry_run_deletes_nothing(make_user: Any) -> None:
    age(make_user(guest=True), 200)
    out = StringIO()
    call_command("prune_guests", "--dry-run", stdout=out)
    assert "would delete 1" in out.getvalue()
    assert User.objects.count() == 1


# --- scheduled (issue 30, item 9) -------------------------------------------------------


def test_beat_prunes_guests_daily_through_a_registered_task(make_user: Any, settings: Any) -> None:
    from config.celery import app

    app.autodiscover_tasks(force=True)  # as a worker does when it starts
    entry = next(e for e in app.conf.beat_schedule.values() if "prune_guests" in e["task"])
    assert entry["schedule"] == 24 * 3600
    task = app.tasks[entry["task"]]
    assert task.declared_queue == "watchdog"  # every worker takes it, behind no backlog
    settings.GUEST_RETENTION_DAYS = 30
    old, recent = make_user(guest=True), make_user(guest=True)
    age(old, 31)
    age(recent, 29)
    assert task() == 1  # the task as a worker runs it (its signals close connections)
    assert list(User.objects.values_list("pk", flat=True)) == [recent.pk]


def test_the_command_keeps_guests_for_the_retention_by_default(
    make_user: Any, settings: Any
) -> None:
    settings.GUEST_RETENTION_DAYS = 10
    age(make_user(guest=True), 11)
    out = StringIO()
    call_command("prune_guests", stdout=out)
    assert "deleted 1 guest accounts" in out.getvalue()


def test_the_retention_outlasts_the_guests_cookie() -> None:
    from django.conf import settings

    assert settings.GUEST_RETENTION_DAYS * 24 * 3600 > settings.SESSION_COOKIE_AGE


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "unused for 77 days is deleted with its games"),
        ("zh-hans", "闲置超过77天，就会连同它的对局一起删除"),
    ],
)
def test_the_help_says_how_long_a_guest_is_kept(
    client: Any, settings: Any, language: str, words: str
) -> None:
    settings.GUEST_RETENTION_DAYS = 77
    page = client.get("/learn/help/faq/", HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    assert words in page.content.decode()
