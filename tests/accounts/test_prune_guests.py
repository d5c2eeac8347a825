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
