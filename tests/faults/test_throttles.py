"""Issue 13, items 7 and 8: throttles that hold, and every field with a limit.

Through real URLs with Django's test client; the counters and locks live in
the cache the settings name (Redis when REDIS_URL is set), the failed logins
are recorded in django-axes's table (PostgreSQL when DATABASE_URL is set).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.conftest import start_fields

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.9"
PROXY = "10.0.0.2"


def log_in(client: Client, username: str, password: str, ip: str = ATTACKER, **extra: Any) -> Any:
    data = {"username": username, "password": password}
    return client.post(reverse("accounts:login"), data, REMOTE_ADDR=ip, **extra)


@pytest.fixture
def limits(settings: Any) -> dict[str, tuple[int, int]]:
    """Small limits, so a test reaches each one in a few requests."""
    settings.THROTTLES = {
        "login-pair": (5, 600),
        "login-address": (8, 600),
        "login-username": (6, 600),
        "login-device": (5, 600),
        "guest": (3, 600),
        "password-reset": (2, 600),
    }
    settings.AXES_FAILURE_LIMIT = 5
    return dict(settings.THROTTLES)


@pytest.mark.slow
def test_a_spray_of_usernames_from_one_address_is_held(
    limits: Any, make_user: Any, password: str
) -> None:
    bob = make_user("bob")
    sprayer = Client()
    answers = [log_in(sprayer, f"name{i}", "guess").status_code for i in range(8)]
    assert answers == [200] * 8  # each name only once: axes's pair lock never fires
    held = log_in(sprayer, bob.username, password)
    assert held.status_code == 429
    assert "输错密码的次数太多" in held.content.decode()  # zh-hans, the default
    assert "_auth_user_id" not in sprayer.session
    # Bob from his own address is not held by the sprayer's lock.
    assert log_in(Client(), bob.username, password, ip="198.51.100.7").status_code == 302


@pytest.mark.slow
def test_one_username_from_many_addresses_is_held_but_not_its_owner(
    limits: Any, make_user: Any, password: str
) -> None:
    ann = make_user("ann")
    owner = Client()
    assert log_in(owner, "ann", password, ip="198.51.100.4").status_code == 302
    owner.post(reverse("accounts:logout"))
    for i in range(6):
        assert log_in(Client(), "ANN", "guess", ip=f"203.0.113.{i + 10}").status_code == 200
    # A new browser, even with the right password, waits out the lock...
    stranger = Client()
    assert log_in(stranger, "ann", password, ip="192.0.2.50").status_code == 429
    assert "_auth_user_id" not in stranger.session
    # ...but the browser the owner signed in from before is let through.
    assert log_in(owner, "ann", password, ip="192.0.2.51").status_code == 302
    assert owner.session["_auth_user_id"] == str(ann.pk)


def test_the_username_lock_ends_after_its_time(
    settings: Any, limits: Any, make_user: Any, password: str, clock: Any
) -> None:
    make_user("ann")
    settings.THROTTLES = {**limits, "login-username": (3, 600)}
    for i in range(3):
        log_in(Client(), "ann", "guess", ip=f"203.0.113.{i + 10}")
    assert log_in(Client(), "ann", password, ip="192.0.2.50").status_code == 429
    clock.advance(settings.LOCKOUT_STEPS[0] + 1)
    assert log_in(Client(), "ann", password, ip="192.0.2.50").status_code == 302


@pytest.mark.slow
def test_a_password_reset_lifts_the_username_lock(
    limits: Any, make_user: Any, password: str
) -> None:
    ann = make_user("ann")
    for i in range(6):
        log_in(Client(), "ann", "guess", ip=f"203.0.113.{i + 10}")
    owner = Client(REMOTE_ADDR="192.0.2.60")
    assert log_in(owner, "ann", password, ip="192.0.2.60").status_code == 429
    owner.post(reverse("accounts:password_reset"), {"email": ann.email})
    link = re.search(r"http://testserver(/account/password/reset/\S+/\S+/)", mail.outbox[-1].body)
    assert link is not None
    form = owner.get(link.group(1), follow=True)
    new = "Another-Shuang-lu-2027!"
    done = owner.post(form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    assert log_in(owner, "ann", new, ip="192.0.2.60").status_code == 302


@pytest.mark.slow
def test_a_forged_x_forwarded_for_from_an_untrusted_address_changes_nothing(
    settings: Any, limits: Any, make_user: Any, password: str
) -> None:
    settings.TRUSTED_PROXIES = (PROXY,)
    settings.THROTTLES = {**limits, "login-username": (20, 600)}
    ann = make_user("ann")
    attacker = Client()
    for i in range(5):
        forged = f"198.51.100.{i + 1}"
        log_in(attacker, "ann", "guess", ip=ATTACKER, HTTP_X_FORWARDED_FOR=forged)
    # Axes's pair lock saw one address (the real one), so the sixth guess is refused.
    assert log_in(attacker, "ann", password, ip=ATTACKER).status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {ATTACKER}
    # Through the trusted proxy, the address it wrote is the client's.
    through_proxy = Client()
    response = log_in(through_proxy, "ann", password, ip=PROXY, HTTP_X_FORWARDED_FOR="192.0.2.9")
    assert response.status_code == 302
    assert through_proxy.session["_auth_user_id"] == str(ann.pk)


def test_the_client_address_is_read_only_as_far_as_trusted_proxies_wrote_it(
    rf: Any, settings: Any
) -> None:
    from accounts.throttling import client_ip

    settings.TRUSTED_PROXIES = ("10.0.0.0/8",)
    forged_chain = "6.6.6.6, 192.0.2.9, 10.1.1.1"
    direct = rf.get("/", HTTP_X_FORWARDED_FOR=forged_chain, REMOTE_ADDR=ATTACKER)
    assert client_ip(direct) == ATTACKER
    two_proxies = rf.get("/", HTTP_X_FORWARDED_FOR=forged_chain, REMOTE_ADDR="10.0.0.2")
    assert client_ip(two_proxies) == "192.0.2.9"
    garbage = rf.get("/", HTTP_X_FORWARDED_FOR="not-an-address", REMOTE_ADDR="10.0.0.2")
    assert client_ip(garbage) == "10.0.0.2"


def test_guest_accounts_from_one_address_are_throttled(limits: Any) -> None:
    from accounts.models import User

    def new_visitor(ip: str) -> int:
        visitor = Client()
        fields = start_fields(visitor, tier="beginner")
        response = visitor.post(reverse("games:start"), fields, REMOTE_ADDR=ip)
        return int(response.status_code)

    assert [new_visitor(ATTACKER) for _ in range(3)] == [302, 302, 302]
    visitor = Client()
    fields = start_fields(visitor, tier="beginner")
    held = visitor.post(reverse("games:start"), fields, REMOTE_ADDR=ATTACKER)
    assert held.status_code == 429
    assert "新建的游客账户太多" in held.content.decode()
    assert User.objects.filter(is_guest=True).count() == 3
    assert new_visitor("198.51.100.20") == 302


def test_password_reset_mail_from_one_address_is_throttled(limits: Any, make_user: Any) -> None:
    ann = make_user("ann")
    client = Client()
    url = reverse("accounts:password_reset")
    answers = [client.post(url, {"email": ann.email}, REMOTE_ADDR=ATTACKER) for _ in range(3)]
    assert [a.status_code for a in answers] == [302, 302, 429]
    assert len(mail.outbox) == 2
    assert client.post(url, {"email": ann.email}, REMOTE_ADDR="198.51.100.30").status_code == 302
    assert len(mail.outbox) == 3


def test_a_ten_thousand_character_username_is_a_form_error(client: Client) -> None:
    response = log_in(client, "x" * 10_000, "guess")
    assert response.status_code == 200
    errors = response.context["form"].errors["username"]
    assert any("150" in e for e in errors), errors
    assert not AccessAttempt.objects.exists()


@pytest.mark.parametrize(
    ("url_name", "fields"),
    [
        ("accounts:login", {"username": "ann", "password": "p" * 2000}),
        ("accounts:signup", {"username": "u" * 200, "password1": "p", "password2": "p"}),
        ("accounts:signup", {"username": "ann2", "email": "e" * 300 + "@example.com"}),
        ("accounts:password_reset", {"email": "e" * 300 + "@example.com"}),
    ],
)
def test_every_form_field_has_a_length_limit_with_a_clear_message(
    client: Client, url_name: str, fields: dict[str, str]
) -> None:
    response = client.post(reverse(url_name), fields, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    form = response.context["form"]
    messages = [m for errors in form.errors.values() for m in errors]
    assert any("at most" in m for m in messages), messages


def test_the_password_change_form_limits_its_fields(client_logged_in: Client) -> None:
    long = "p" * 2000
    response = client_logged_in.post(
        reverse("accounts:password_change"),
        {"old_password": long, "new_password1": long, "new_password2": long},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) >= {"old_password", "new_password1"}
    assert all("at most 1024" in errors[name][0] for name in ("old_password", "new_password1"))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "A command id is at most 64 characters long."),
        ("zh-hans", "指令的 id 最多64个字符。"),
    ],
)
def test_a_command_id_over_the_limit_is_told_so_not_that_it_is_missing(
    language: str, words: str
) -> None:
    from django.utils import translation

    from games.live.commands import MAX_ID_LENGTH, CommandError, parse_command

    def refusal(command_id: object) -> CommandError:
        frame = json.dumps({"type": "undo", "id": command_id, "version": 1})
        with translation.override(language), pytest.raises(CommandError) as caught:
            parse_command(frame)
        return caught.value

    too_long = refusal("c" * (MAX_ID_LENGTH + 1))
    assert (too_long.code, too_long.message) == ("bad_command", words)
    assert refusal(10**MAX_ID_LENGTH).message == words  # a number's digits count too
    missing = [refusal(value).message for value in ("", None, True, [1])]
    assert len(set(missing)) == 1 and missing[0] != words
    assert parse_command(json.dumps({"type": "undo", "id": "c" * MAX_ID_LENGTH, "version": 1}))
