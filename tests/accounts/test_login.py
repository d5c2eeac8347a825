"""Log in, log out and login throttling (django-axes) through real URLs."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.9"
OWNER_ELSEWHERE = "198.51.100.4"


def log_in(client: Client, username: str, password: str, ip: str = "127.0.0.1") -> Any:
    return client.post(
        reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def test_logging_in_with_the_right_password_signs_in_and_rotates_the_session(
    client: Client, user: Any, password: str
) -> None:
    client.get(reverse("accounts:login"))
    client.session.save()
    before = client.session.session_key
    response = log_in(client, user.username, password)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    assert client.session.session_key != before


def test_a_wrong_password_shows_the_form_again(client: Client, user: Any) -> None:
    response = log_in(client, user.username, "not-the-password")
    assert response.status_code == 200
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


@pytest.mark.slow
def test_repeated_wrong_passwords_lock_that_username_from_that_address(
    client: Client, user: Any, password: str, settings: Any
) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, user.username, "wrong", ip=ATTACKER)
    locked = log_in(client, user.username, password, ip=ATTACKER)
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    assert reverse("accounts:password_reset") in locked.content.decode()


@pytest.mark.slow
def test_the_real_user_elsewhere_is_not_locked_out(user: Any, password: str, settings: Any) -> None:
    attacker = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        log_in(attacker, user.username, "wrong", ip=ATTACKER)
    owner = Client()
    response = log_in(owner, user.username, password, ip=OWNER_ELSEWHERE)
    assert response.status_code == 302
    assert owner.session["_auth_user_id"] == str(user.pk)


@pytest.mark.slow
def test_the_locked_address_can_still_log_in_to_another_account(
    make_user: Any, password: str, settings: Any
) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, ann.username, "wrong", ip=ATTACKER)
    assert log_in(client, bob.username, password, ip=ATTACKER).status_code == 302


def test_the_client_address_behind_a_trusted_proxy_is_taken_from_x_forwarded_for(
    rf: Any, settings: Any
) -> None:
    from accounts.throttling import client_ip

    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="127.0.0.1")
    settings.TRUSTED_PROXIES = ()
    assert client_ip(request) == "127.0.0.1"
    settings.TRUSTED_PROXIES = ("127.0.0.1",)
    assert client_ip(request) == "203.0.113.9"


def test_logging_out_is_a_post_and_ends_the_session(client_logged_in: Client) -> None:
    assert client_logged_in.get(reverse("accounts:logout")).status_code == 405
    response = client_logged_in.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client_logged_in.session


def test_passwords_are_stored_with_argon2(user: Any) -> None:
    assert user.password.startswith("argon2")


def test_the_header_shows_who_is_signed_in(client_logged_in: Client, user: Any) -> None:
    page = client_logged_in.get(reverse("accounts:profile")).content.decode()
    assert user.username in page
    assert reverse("accounts:logout") in page
