"""Run manage.py in a clean environment with given settings: shared by the
settings, channel layer and origin tests."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from tests.conftest import ROOT

PRODUCTION = {
    "DEBUG": "False",
    "SECRET_KEY": secrets.token_urlsafe(60),
    "ALLOWED_HOSTS": "shuanglu.example.com",
}


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "DATABASE_URL",
            "REDIS_URL",
            "CELERY_BROKER_URL",
            "DEBUG",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            # Set while Playwright runs in this process (tests/conftest.py);
            # the deploy check rightly warns about it.
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        )
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )
