"""config/settings.py read from the environment, checked in fresh processes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.settings_runs import PRODUCTION, run

PROBE = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print("PROBE" + json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]),
    "channels": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "broker": settings.CELERY_BROKER_URL, "debug": settings.DEBUG,
    "hasher": settings.PASSWORD_HASHERS[0], "language": settings.LANGUAGE_CODE,
}))
"""


def probe(**env: str) -> dict[str, Any]:
    result = run(["-c", PROBE], **env)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("PROBE"))
    return json.loads(line.removeprefix("PROBE"))


def test_zero_setup_gives_sqlite_in_memory_layers_and_no_broker() -> None:
    found = probe()
    assert found["engine"] == "runtime.sqlite"  # Django's, its writers queued (runtime/sqlite)
    assert found["name"].endswith("var/shuanglu.sqlite3")
    assert found["channels"] == "runtime.layers.InMemoryChannelLayer"
    assert found["cache"].endswith("LocMemCache")
    assert found["broker"] == ""
    assert found["debug"] is True
    assert found["hasher"].endswith("Argon2PasswordHasher")
    assert found["language"] == "zh-hans"


@pytest.mark.slow
def test_database_url_and_redis_url_switch_to_postgresql_and_redis() -> None:
    found = probe(
        DATABASE_URL="postgres://u:p@db.internal:5432/shuanglu",
        REDIS_URL="redis://cache.internal:6379/0",
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["name"] == "shuanglu"
    assert found["channels"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert found["cache"].endswith("RedisCache")
    assert found["broker"] == "redis://cache.internal:6379/0"


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS"])
def test_production_refuses_to_start_without(missing: str) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != missing}
    result = run(["manage.py", "check"], **env)
    assert result.returncode != 0
    assert f"{missing} must be set when DEBUG is off" in result.stderr


@pytest.mark.slow
def test_the_deploy_check_is_clean_with_production_settings() -> None:
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_malformed_boolean_is_an_error_not_a_guess() -> None:
    result = run(["manage.py", "check"], DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr
