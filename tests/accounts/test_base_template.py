"""templates/base.html: the header every page shares."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def nav_links(html: str) -> list[tuple[str, str]]:
    nav = html.split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]
    return re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)


def test_the_nav_names_the_nine_parts_in_chinese(client: Client) -> None:
    links = nav_links(client.get(reverse("accounts:login")).content.decode())
    assert [name for _, name in links] == [
        "大厅",
        "对局记录",
        "复盘",
        "学棋",
        "分析",
        "练习",
        "练习题",
        "骰子统计",
        "帮助",
    ]
    assert [href for href, _ in links] == [
        reverse("games:lobby"),
        reverse("learning:history"),
        reverse("learning:reviews"),
        reverse("learning:course"),
        reverse("study:analysis"),
        reverse("study:practice"),
        reverse("puzzles:next"),
        reverse("learning:stats"),
        reverse("learning:help"),
    ]


def test_the_current_page_is_marked_in_the_nav(client: Client) -> None:
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'<a href="{reverse("games:lobby")}" aria-current="page">' in html


def test_the_header_has_the_site_name_and_the_language_switch(client: Client) -> None:
    html = client.get(reverse("accounts:login")).content.decode()
    assert "双陆棋" in html and "Shuanglu" in html
    assert f'action="{reverse("set_language")}"' in html
    assert '<option value="en"' in html and '<option value="zh-hans"' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
