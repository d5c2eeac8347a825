"""bench/live.py's site under test: the daphne processes, the worker, the
players, their sessions and games."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from bench import _procs
from bench._wsclient import HOST


def site_env(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=str(var_dir),
        # As in production: DEBUG off (with it on, Django keeps and formats
        # every query, a third of a command's database time).
        DEBUG="false",
        SECRET_KEY="bench-live-not-secret",
        SECURE_SSL_REDIRECT="false",
        ALLOWED_HOSTS=HOST,
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    return env


class Site:
    """The daphne processes, the worker, and how to reach and measure them."""

    def __init__(self, env: dict[str, str], ports: list[int], var_dir: Path) -> None:
        self.env, self.ports, self.var_dir = env, ports, var_dir
        self.daphnes = _procs.start_daphnes(env, ports, var_dir)
        self.worker = None
        if env.get("REDIS_URL"):
            # The computer's turns go through the broker: the moves worker as site/Procfile.
            self.worker = _procs.start_worker(env, var_dir / "celery.log")
        self.redis = _procs.redis_pid(env["REDIS_URL"]) if env.get("REDIS_URL") else None
        from django.db import connection

        self.postgres = connection.vendor == "postgresql"
        self.proxy: Any = None
        self.client_ports = ports

    def groups(self) -> dict[str, list[int]]:
        groups = {"daphne": [p.pid for p in self.daphnes]}
        if self.worker is not None:
            groups["worker"] = [self.worker.pid]
        if self.postgres:
            groups["postgres"] = _procs.postgres_backends()
        if self.redis:
            groups["redis"] = [self.redis]
        if self.proxy is not None:
            groups["nginx"] = [self.proxy.process.pid]
        return groups

    def restart_daphnes(self) -> float:
        """Stop every daphne (SIGTERM, as a deploy does), start them again; the
        perf_counter when the last had stopped."""
        _procs.stop(self.daphnes)
        stopped = time.perf_counter()
        self.daphnes = _procs.start_daphnes(self.env, self.ports, self.var_dir)
        return stopped

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        _procs.stop([*self.daphnes, *([self.worker] if self.worker else [])])


def make_players(count: int) -> list[tuple[Any, str]]:
    """Users with a session each: (user, Cookie header value)."""
    from django.conf import settings
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import Preferences, User

    # A database given by DATABASE_URL may hold an earlier run's players.
    User.objects.filter(username__startswith="bench").delete()
    users = User.objects.bulk_create(
        [User(username=f"bench{i}", password="!") for i in range(count)]
    )
    Preferences.objects.bulk_create([Preferences(user=u, auto_end_turn=False) for u in users])
    players = []
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        players.append((user, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"))
    return players


def make_step_games(owners: list[Any]) -> list[int]:
    """The start position, LIGHT on roll with 5-2 (the opening), no step made yet."""
    from games.models import Game, Status

    games = [
        Game(
            owner=owner,
            tier="casual",
            status=Status.OPENING,
            turn="light",
            dice=[5, 2],
            opening_rolls=[[5, 2]],
        )
        for owner in owners
    ]
    return [g.pk for g in Game.objects.bulk_create(games)]


def make_reply_game(owner: Any, tier: str) -> int:
    """LIGHT has played 13/8 13/11 (5-2) and only has to end the turn."""
    from games.models import Game, Status

    return Game.objects.create(
        owner=owner,
        tier=tier,
        status=Status.PLAYING,
        turn="light",
        dice=[5, 2],
        steps=[[13, 8, 5, 0], [13, 11, 2, 0]],
        opening_rolls=[[5, 2]],
    ).pk
