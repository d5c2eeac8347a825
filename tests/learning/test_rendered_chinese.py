"""The site's pages as a Chinese reader sees them: the text between tags, the
labels in attributes and the words handed to the scripts, after templates and
code have put the pieces together ("休闲, 2026年…", "用户名:" were such)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from tests.chinese import chinese_mistakes

pytestmark = pytest.mark.django_db

SCRIPT_DATA = re.compile(r'<script id="[\w-]+" type="application/json">(.*?)</script>', re.S)
ATTRIBUTE = re.compile(r'(?:title|aria-label|placeholder|alt|content)="([^"]*)"')


def strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def words_on(html: str) -> set[str]:
    """Every piece of text a reader meets on the page."""
    found = {s for blob in SCRIPT_DATA.findall(html) for s in strings(json.loads(blob))}
    html = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    found.update(" ".join(chunk.split()) for chunk in re.split(r"<[^>]+>", html))
    found.update(ATTRIBUTE.findall(html))
    return found - {""}


def test_every_page_reads_as_native_chinese(
    client_logged_in: Client, user: Any, finished_game: Game
) -> None:
    playing = services.start_game(user, "beginner")
    pages = [
        reverse("games:lobby"),
        reverse("games:play", args=[playing.pk]),
        reverse("learning:history"),
        reverse("learning:reviews"),
        reverse("learning:review", args=[finished_game.pk]),
        reverse("learning:stats"),
        reverse("study:analysis"),
        reverse("study:practice"),
        reverse("accounts:profile"),
        reverse("accounts:preferences"),
        reverse("accounts:password_change"),
        *(reverse("learning:help_page", args=[page]) for page in ("rules", "glossary", "faq")),
    ]
    mistakes = {}
    for url in pages:
        answer = client_logged_in.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans", follow=True)
        assert answer.status_code == 200, url
        for text in words_on(answer.content.decode()):
            if found := chinese_mistakes(text):
                mistakes[url, text] = found
    assert mistakes == {}


def test_the_signed_out_pages_read_as_native_chinese(client: Client) -> None:
    mistakes = {}
    for name in ("accounts:login", "accounts:signup", "accounts:password_reset"):
        html = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        mistakes.update({(name, t): m for t in words_on(html) if (m := chinese_mistakes(t))})
    assert mistakes == {}
