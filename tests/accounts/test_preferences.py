"""Preferences: stored per user (guests too) and shown on every page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Preferences, User
from accounts.preferences import board_prefs, preferences_for
from games import services
from tests.boards import board

pytestmark = pytest.mark.django_db

FORM = {
    "auto_end_turn": "on",
    "show_pips": "on",
    "default_tier": "casual",
    "board_direction": "right",
    "animation_speed": "normal",
    "highlight_legal": "on",
    "board_theme": "wood",
    "language": "",
}


def page_board_prefs(client: Client, url: str = "/account/preferences/") -> dict[str, Any]:
    html = client.get(url).content.decode()
    start = html.index('<script id="board-prefs" type="application/json">')
    body = html[start:].split(">", 1)[1].split("</script>", 1)[0]
    return json.loads(body)


def test_a_visitor_sees_the_defaults_and_no_account_is_made(client: Client) -> None:
    prefs = page_board_prefs(client)
    assert prefs == {
        "auto_end_turn": True,
        "show_pips": True,
        "default_tier": "casual",
        "board_direction": "right",
        "animation_speed": "normal",
        "animation_ms": 300,
        "highlight_legal": True,
        "auto_forced": False,
        "auto_bear_off": False,
        "sound": False,
        "board_theme": "wood",
        "language": "",
        "game_kind": "single",
        "match_length": 5,
        "jacoby": True,
        "tutor": "off",
        "last_move_arrows": True,
    }
    assert not User.objects.exists()


def test_saving_preferences_as_a_visitor_makes_a_guest_account_that_keeps_them(
    client: Client,
) -> None:
    data = FORM | {"show_pips": "", "board_direction": "left", "default_tier": "advanced"}
    response = client.post(reverse("accounts:preferences"), data)
    assert response.status_code == 302
    guest = User.objects.get()
    assert guest.is_guest
    stored = Preferences.objects.get(user=guest)
    assert (stored.show_pips, stored.board_direction, stored.default_tier) == (
        False,
        "left",
        "advanced",
    )


def test_saved_preferences_change_what_pages_show(client_logged_in: Client, user: Any) -> None:
    data = FORM | {"auto_end_turn": "", "board_direction": "left", "animation_speed": "fast"}
    client_logged_in.post(reverse("accounts:preferences"), data)
    html = client_logged_in.get(reverse("accounts:profile")).content.decode()
    assert 'data-board-direction="left"' in html
    prefs = page_board_prefs(client_logged_in)
    assert (prefs["auto_end_turn"], prefs["animation_ms"]) == (False, 120)
    assert board_prefs(user) == prefs
    form_html = client_logged_in.get(reverse("accounts:preferences")).content.decode()
    assert 'value="left" checked' in form_html or '<option value="left" selected>' in form_html


def test_the_lobby_default_tier_follows_the_preference(client_logged_in: Client) -> None:
    client_logged_in.post(reverse("accounts:preferences"), FORM | {"default_tier": "expert"})
    html = client_logged_in.get(reverse("games:lobby")).content.decode()
    assert 'value="expert" checked' in html


def test_saving_from_the_lobby_returns_to_the_lobby(client_logged_in: Client) -> None:
    response = client_logged_in.post(reverse("accounts:preferences"), FORM | {"next": "/"})
    assert response["Location"] == "/"


def test_next_may_not_leave_the_site(client_logged_in: Client) -> None:
    data = FORM | {"next": "https://evil.example/"}
    response = client_logged_in.post(reverse("accounts:preferences"), data)
    assert response["Location"] == reverse("accounts:preferences")


def test_an_unknown_choice_is_refused_and_nothing_is_stored(client_logged_in: Client) -> None:
    response = client_logged_in.post(
        reverse("accounts:preferences"), FORM | {"default_tier": "god"}
    )
    assert response.status_code == 200
    assert "default_tier" in response.context["preferences_form"].errors
    assert not Preferences.objects.exists()


def test_the_lobby_includes_the_preferences_form(client: Client) -> None:
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'action="{reverse("accounts:preferences")}"' in html
    assert 'name="auto_end_turn"' in html


def test_the_comforts_are_off_until_chosen_and_then_kept(
    client_logged_in: Client, user: Any
) -> None:
    """Forced moves, automatic bear-off and sound start off; the wood board."""
    prefs = page_board_prefs(client_logged_in)
    assert (prefs["auto_forced"], prefs["auto_bear_off"], prefs["sound"]) == (False, False, False)
    assert prefs["board_theme"] == "wood"
    data = FORM | {"auto_forced": "on", "auto_bear_off": "on", "sound": "on"}
    data["board_theme"] = "contrast"
    response = client_logged_in.post(reverse("accounts:preferences"), data)
    assert response.status_code == 302
    stored = Preferences.objects.get(user=user)
    assert (stored.auto_forced, stored.auto_bear_off, stored.sound, stored.board_theme) == (
        True,
        True,
        True,
        "contrast",
    )
    page = client_logged_in.get("/").content.decode()
    assert 'data-board-theme="contrast"' in page
    assert page_board_prefs(client_logged_in)["sound"] is True


def test_an_unknown_board_theme_is_refused(client_logged_in: Client, user: Any) -> None:
    data = FORM | {"board_theme": "neon"}
    response = client_logged_in.post(reverse("accounts:preferences"), data)
    assert response.status_code == 200
    assert not Preferences.objects.filter(user=user, board_theme="neon").exists()


# LIGHT's last checker on its 2 point: every roll bears it off, one way only.
LAST_CHECKER = board(light={2: 1}, dark={6: 15})


@pytest.mark.parametrize(
    ("fields", "played"),
    [({}, False), ({"auto_forced": True}, True), ({"auto_bear_off": True}, True)],
)
def test_a_forced_bear_off_is_played_for_the_person_who_asked(
    user: User, fields: dict[str, bool], played: bool
) -> None:
    Preferences.objects.create(user=user, **fields)
    game = services.start_game_from(user, "beginner", LAST_CHECKER)  # its roll begins the turn
    game.refresh_from_db()
    automatic = bool((game.last_turn or {}).get("automatic"))
    expected = ("finished", "light", True) if played else ("playing", "", False)
    assert (game.status, game.winner, automatic) == expected
    assert game.turn == "light"


def test_preferences_are_the_users_read_with_it_or_after_and_the_defaults_without_a_row(
    user: Any, make_user: Any
) -> None:
    # The game socket reads its owner with select_related("owner__preferences").
    Preferences.objects.update_or_create(user=user, defaults={"language": "en"})
    without = make_user("no-row")
    Preferences.objects.filter(user=without).delete()
    mine, theirs = (
        User.objects.select_related("preferences").get(pk=u.pk) for u in (user, without)
    )
    assert preferences_for(mine).language == "en"
    assert preferences_for(theirs).language == Preferences().language  # the defaults
    assert preferences_for(User.objects.get(pk=user.pk)).language == "en"  # read without them
