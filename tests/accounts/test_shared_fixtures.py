"""The shared fixtures in tests/conftest.py do what their docstrings say."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.parse
import urllib.request
from typing import Any

import pytest

from tests.conftest import require_service


def failing_check() -> bool:
    raise ConnectionRefusedError("nothing listens")


def test_an_unreachable_service_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_service("nothing", failing_check)
    with pytest.raises(pytest.skip.Exception):
        require_service("nothing", lambda: False)


def test_an_unreachable_service_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="nothing is unreachable"):
        require_service("nothing", failing_check)


def test_a_reachable_service_lets_the_test_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    require_service("something", lambda: True)


def test_daphne_serves_the_test_database(daphne_server: str, user: Any, password: str) -> None:
    """A user made in the test logs in through the real server."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login_url = f"{daphne_server}/account/login/"
    page = opener.open(login_url).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token.group(1), "username": user.username, "password": password}
    ).encode()
    request = urllib.request.Request(login_url, data=data, headers={"Referer": login_url})
    with opener.open(request) as response:
        landed = response.geturl()
    assert not landed.endswith("/account/login/")
    profile = opener.open(f"{daphne_server}/account/").read().decode()
    assert user.username in profile
