"""Issue 30, item 7: login locks that hold attackers without locking owners out.

Through real URLs with Django's test client and the cache the settings name
(Redis when REDIS_URL is set). Loopback addresses stand for the clients: the
sprayer at 127.0.0.1, owners elsewhere at 127.0.0.2 and up. The locks' clock
is the ``clock`` fixture's (tests/faults/conftest.py), moved on, not waited for.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SPRAYER = "127.0.0.1"


def log_in(client: Client, username: str, password: str, ip: str) -> Any:
    data = {"username": username, "password": password}
    return client.post(reverse("accounts:login"), data, REMOTE_ADDR=ip)


def signed_in_before(username: str, password: str, ip: str) -> Client:
    """A browser that signed in as ``username`` and signed out again."""
    browser = Client()
    assert log_in(browser, username, password, ip).status_code == 302
    browser.post(reverse("accounts:logout"))
    return browser


def test_a_lock_grows_with_repetition_and_the_page_says_how_long(
    make_user: Any, password: str, clock: Any, settings: Any
) -> None:
    make_user("ann")
    steps = settings.LOCKOUT_STEPS
    # A browser that never signed in as ann: each attempt from a new one.
    for _ in range(settings.THROTTLES["login-pair"][0]):
        assert log_in(Client(), "ann", "wrong", "127.0.0.5").status_code == 200
    locked = log_in(Client(), "ann", password, "127.0.0.5")
    assert locked.status_code == 429
    assert "请在 1 分钟后再试" in locked.content.decode()
    assert locked["Retry-After"] == str(steps[0])
    clock.advance(steps[0] + 1)  # the first lock is short
    assert log_in(Client(), "ann", password, "127.0.0.5").status_code == 302
    for _ in range(settings.THROTTLES["login-pair"][0]):
        log_in(Client(), "ann", "wrong", "127.0.0.5")
    again = log_in(Client(), "ann", password, "127.0.0.5")
    assert "请在 5 分钟后再试" in again.content.decode()  # the second is longer
    clock.advance(steps[0] + 1)
    still = log_in(Client(), "ann", password, "127.0.0.5")
    assert still.status_code == 429 and "请在 4 分钟后再试" in still.content.decode()
    clock.advance(steps[1])
    assert log_in(Client(), "ann", password, "127.0.0.5").status_code == 302


def test_an_owner_signs_in_during_a_spray_of_20_usernames_by_4_guesses(
    make_user: Any, password: str
) -> None:
    owners = [make_user(f"owner{i}") for i in range(20)]
    known = signed_in_before("owner0", password, SPRAYER)  # this owner shares the address
    sprayer = Client()
    held = 0
    for guess in range(4):
        for owner in owners:
            held += log_in(sprayer, owner.username, f"guess{guess}", SPRAYER).status_code == 429
    assert held > 0  # the address lock holds the sprayer
    # A new browser at the sprayer's address is held too...
    assert log_in(Client(), "owner1", password, SPRAYER).status_code == 429
    # ...but owners elsewhere are not, whether or not they signed in there before,
    for i, owner in enumerate(owners[1:6], start=2):
        elsewhere = Client()
        assert log_in(elsewhere, owner.username, password, f"127.0.0.{i}").status_code == 302
    # and neither is the browser the owner signed in from before, at the same address.
    assert log_in(known, "owner0", password, SPRAYER).status_code == 302


def test_a_known_browser_is_held_only_by_its_own_wrong_passwords(
    make_user: Any, password: str, settings: Any
) -> None:
    make_user("bob")
    settings.THROTTLES = {**settings.THROTTLES, "login-username": (6, 600)}
    owner = signed_in_before("bob", password, "127.0.0.7")
    for i in range(10):  # one username from many addresses: the username lock
        log_in(Client(), "bob", "guess", f"127.0.1.{i + 1}")
    assert log_in(Client(), "bob", password, "127.0.0.8").status_code == 429
    for _ in range(settings.THROTTLES["login-device"][0]):
        assert log_in(owner, "bob", "typo", "127.0.0.7").status_code == 200
    assert log_in(owner, "bob", password, "127.0.0.7").status_code == 429
