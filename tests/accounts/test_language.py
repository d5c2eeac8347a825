"""Language: zh-Hans by default, Accept-Language honoured, a chosen language wins."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Preferences

pytestmark = pytest.mark.django_db


def test_chinese_is_the_default(client: Client) -> None:
    html = client.get(reverse("accounts:login")).content.decode()
    assert '<html lang="zh-Hans">' in html
    assert "登录" in html
    assert "大厅" in html


def test_an_english_browser_gets_english(client: Client) -> None:
    html = client.get(reverse("accounts:login"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content
    text = html.decode()
    assert '<html lang="en">' in text
    assert "Log in" in text and "Lobby" in text
    assert "登录" not in text


def test_the_header_switch_saves_the_choice_for_a_signed_in_user(
    client_logged_in: Client, user: Any
) -> None:
    response = client_logged_in.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert Preferences.objects.get(user=user).language == "en"
    # The choice follows the account to a new browser asking for Chinese.
    other = Client()
    other.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    html = other.get(reverse("accounts:profile"), HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert '<html lang="en">' in html


def test_the_header_switch_works_for_a_visitor_without_making_an_account(client: Client) -> None:
    from accounts.models import User

    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get(reverse("accounts:login")).content.decode()
    assert '<html lang="en">' in html
    assert not User.objects.exists()


def test_the_language_preference_beats_the_browser(client_logged_in: Client) -> None:
    form = {
        "default_tier": "casual",
        "board_direction": "right",
        "animation_speed": "normal",
        "language": "zh-hans",
    }
    client_logged_in.post(reverse("accounts:preferences"), form)
    html = client_logged_in.get(
        reverse("accounts:profile"), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert '<html lang="zh-Hans">' in html


def test_djangos_own_messages_use_the_sites_words(client: Client) -> None:
    """Form labels end in a full-width colon; Django's validator says 电子邮箱
    as the site does (config/django_messages.py), not its "Email 地址"."""
    login = client.get(reverse("accounts:login")).content.decode()
    assert "用户名：" in login and "用户名:" not in login
    answer = client.post(reverse("accounts:password_reset"), {"email": "not-an-address"})
    text = answer.content.decode()
    assert "请输入有效的电子邮箱地址。" in text
    assert "Email 地址" not in text
