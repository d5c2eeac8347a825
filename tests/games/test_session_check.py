"""The socket's session check (games.live.sessions.session_expiry).

After a whole check passed, one query that reads the session row and the
user's password hash and active flag answers; whatever changes one of them
gets the whole check again, with the same answers as before.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from games.live.sessions import session_expiry

pytestmark = pytest.mark.django_db


def session_holds(key: str, user_id: int) -> bool:
    return session_expiry(key, user_id) is not None


def session_of(user: Any) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return str(client.session.session_key)


def test_another_user_is_refused_on_the_same_session(user: Any, make_user: Any) -> None:
    key = session_of(user)
    assert session_holds(key, user.pk)
    assert not session_holds(key, make_user("bob").pk)


def test_expiry_deactivation_and_a_new_password_end_a_held_session(user: Any) -> None:
    key = session_of(user)
    assert session_holds(key, user.pk)
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(1))
    assert not session_holds(key, user.pk)

    key = session_of(user)
    assert session_holds(key, user.pk)
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    assert not session_holds(key, user.pk)
    type(user).objects.filter(pk=user.pk).update(is_active=True)
    assert session_holds(key, user.pk)  # the session row was kept: active again, it holds

    user.set_password("Another-Shuang-lu-2027!")
    user.save()
    assert not session_holds(key, user.pk)  # the hash the session was made with is stale
    assert not Session.objects.filter(session_key=key).exists()  # flushed, as over HTTP


def test_a_held_session_is_known_until_its_expire_date(user: Any) -> None:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.session
    session.set_expiry(600)
    session.save()
    expected = Session.objects.get(session_key=session.session_key).expire_date.timestamp()
    for _ in range(2):  # the whole check, then the one query
        assert session_expiry(session.session_key, user.pk) == pytest.approx(expected, abs=1e-3)
    assert session_expiry(session.session_key, user.pk + 1) is None
    assert session_expiry(None, user.pk) is None
