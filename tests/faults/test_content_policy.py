"""Issue 13, "also found": every answer of the site carries its
Content-Security-Policy, error pages too (DEBUG off, as in production).
The browser test (tests/browser/test_csp.py) checks that no page breaks it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db

POLICY = ("default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'")


@pytest.mark.parametrize(("url", "status"), [("/", 200), ("/account/login/", 200), ("/no/", 404)])
def test_every_answer_has_the_policy(client: Any, settings: Any, url: str, status: int) -> None:
    settings.DEBUG = False
    response = client.get(url)
    assert response.status_code == status
    policy = response.headers["Content-Security-Policy"]
    assert all(part in policy for part in POLICY), policy
    assert "unsafe-eval" not in policy
