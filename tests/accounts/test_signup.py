"""Sign-up through the real URL: a guest becomes the named account."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import Preferences, User

pytestmark = pytest.mark.django_db


def signup_data(username: str = "bella", password: str = "Shuang-lu-2026!") -> dict[str, str]:
    return {
        "username": username,
        "email": f"{username}@example.com",
        "password1": password,
        "password2": password,
    }


def become_guest(client: Any) -> None:
    """Save the default preferences: the first thing that needs an account."""
    client.post(
        reverse("accounts:preferences"),
        {
            "default_tier": "casual",
            "board_direction": "right",
            "animation_speed": "normal",
            "language": "",
            "auto_end_turn": "on",
        },
    )


def test_a_guest_who_signs_up_keeps_the_same_row_with_games_and_preferences(client: Any) -> None:
    from games import services
    from games.models import Game

    client.post(
        reverse("accounts:preferences"),
        {
            "default_tier": "expert",
            "board_direction": "left",
            "animation_speed": "fast",
            "language": "",
        },
    )
    guest = User.objects.get()
    assert guest.is_guest
    services.start_game(guest, "expert")

    response = client.post(reverse("accounts:signup"), signup_data())

    assert response.status_code == 302
    named = User.objects.get()
    assert named.pk == guest.pk
    assert (named.username, named.is_guest) == ("bella", False)
    assert named.check_password("Shuang-lu-2026!")
    assert Game.objects.filter(owner=named).count() == 1
    prefs = Preferences.objects.get(user=named)
    assert (prefs.default_tier, prefs.board_direction, prefs.auto_end_turn) == (
        "expert",
        "left",
        False,
    )
    assert client.get(reverse("accounts:profile")).context["user"].pk == named.pk


def test_signing_up_rotates_the_session_key(client: Any) -> None:
    become_guest(client)
    before = client.session.session_key
    client.post(reverse("accounts:signup"), signup_data())
    assert client.session.session_key != before
    assert client.session["_auth_user_id"] == str(User.objects.get().pk)


def test_a_visitor_without_a_guest_account_gets_a_new_named_account(client: Any) -> None:
    response = client.post(reverse("accounts:signup"), signup_data("carl"))
    assert response.status_code == 302
    carl = User.objects.get()
    assert (carl.username, carl.is_guest) == ("carl", False)


def test_sign_up_refuses_a_taken_username_and_leaves_the_guest_a_guest(
    client: Any, user: Any
) -> None:
    become_guest(client)
    response = client.post(reverse("accounts:signup"), signup_data(user.username))
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert User.objects.filter(is_guest=True).count() == 1


def test_sign_up_refuses_mismatched_passwords(client: Any) -> None:
    data = signup_data() | {"password2": "something-else-2026"}
    response = client.post(reverse("accounts:signup"), data)
    assert response.status_code == 200
    assert not User.objects.filter(username="bella").exists()


def test_a_named_user_is_sent_from_sign_up_to_the_profile(client_logged_in: Any) -> None:
    response = client_logged_in.get(reverse("accounts:signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")


def test_the_sign_up_form_does_not_suggest_the_guest_name(guest_client: Any, guest: Any) -> None:
    page = guest_client.get(reverse("accounts:signup")).content.decode()
    assert guest.username not in page
