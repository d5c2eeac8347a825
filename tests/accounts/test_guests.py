"""Guest accounts: ensure_player, and a guest cannot reach other people's pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from accounts.guests import ensure_player
from accounts.models import User
from tests.conftest import start_fields

pytestmark = pytest.mark.django_db


def anonymous_request(rf: Any) -> Any:
    request = rf.get("/")
    request.session = SessionStore()
    request.user = AnonymousUser()
    return request


def test_ensure_player_makes_and_logs_in_one_guest(rf: Any) -> None:
    request = anonymous_request(rf)
    guest = ensure_player(request)
    assert guest.is_guest and not guest.has_usable_password()
    assert request.user == guest
    assert request.session["_auth_user_id"] == str(guest.pk)
    assert ensure_player(request) == guest
    assert User.objects.count() == 1


def test_ensure_player_returns_a_signed_in_user_unchanged(rf: Any, user: Any) -> None:
    request = anonymous_request(rf)
    request.user = user
    assert ensure_player(request) == user
    assert User.objects.count() == 1


def test_two_visitors_get_two_guests(rf: Any) -> None:
    first = ensure_player(anonymous_request(rf))
    second = ensure_player(anonymous_request(rf))
    assert first.pk != second.pk and first.username != second.username


def test_starting_a_game_makes_a_guest_who_owns_it(client: Client) -> None:
    from games.models import Game

    response = client.post(reverse("games:start"), start_fields(client, tier="beginner"))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.owner.is_guest
    assert client.session["_auth_user_id"] == str(game.owner.pk)


def test_a_guest_cannot_open_another_players_game(guest_client: Client, user: Any) -> None:
    from games import services

    game = services.start_game(user, "casual")
    assert guest_client.get(reverse("games:play", args=[game.pk])).status_code == 404
    assert guest_client.get(reverse("games:state", args=[game.pk])).status_code == 404


def test_a_guest_cannot_reach_the_admin(guest_client: Client) -> None:
    response = guest_client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_a_guest_sees_only_its_own_account_page(
    guest_client: Client, guest: Any, user: Any
) -> None:
    html = guest_client.get(reverse("accounts:profile")).content.decode()
    assert user.username not in html
    assert reverse("accounts:signup") in html


def test_the_header_offers_a_guest_sign_up_not_log_out(guest_client: Client) -> None:
    html = guest_client.get(reverse("accounts:preferences")).content.decode()
    assert reverse("accounts:signup") in html
    assert reverse("accounts:logout") not in html
