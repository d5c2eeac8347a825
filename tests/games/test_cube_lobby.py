"""The lobby's game types: 单局 (the default), 现金局 with Jacoby, 比赛 with its length;
the choice remembered as a preference."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import Preferences
from games.models import Game, Match
from tests.conftest import start_fields

pytestmark = pytest.mark.django_db


def test_the_single_game_stays_the_default(client_logged_in: Any) -> None:
    page = client_logged_in.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    html = page.content.decode()
    assert 'name="kind" value="single" checked' in html
    assert "单局" in html and "现金局" in html and "比赛" in html
    client_logged_in.post(reverse("games:start"), start_fields(client_logged_in, tier="casual"))
    game = Game.objects.get()
    assert (game.kind, game.match, game.jacoby) == ("single", None, False)


def test_a_money_game_has_jacoby_unless_the_player_turned_it_off(
    client_logged_in: Any, user: Any
) -> None:
    client_logged_in.post(
        reverse("games:start"), start_fields(client_logged_in, tier="casual", kind="money")
    )
    Preferences.objects.filter(user=user).update(jacoby=False)
    client_logged_in.post(
        reverse("games:start"), start_fields(client_logged_in, tier="casual", kind="money")
    )
    first, second = Game.objects.order_by("pk")
    assert (first.kind, first.jacoby, second.kind, second.jacoby) == ("money", True, "money", False)
    page = client_logged_in.get(reverse("games:lobby"))
    assert 'name="kind" value="money" checked' in page.content.decode()


def test_a_match_starts_with_its_length_and_the_length_is_remembered(
    client_logged_in: Any, user: Any
) -> None:
    response = client_logged_in.post(
        reverse("games:start"),
        start_fields(client_logged_in, tier="expert", kind="match", length="7"),
    )
    match = Match.objects.get()
    game = match.games.get()
    assert response["Location"] == reverse("games:play", args=[game.pk])
    assert (match.length, match.tier, game.kind, game.match_game) == (7, "expert", "match", 1)
    prefs = Preferences.objects.get(user=user)
    assert (prefs.game_kind, prefs.match_length) == ("match", 7)
    assert (
        '<option value="7" selected>'
        in client_logged_in.get(reverse("games:lobby")).content.decode()
    )


@pytest.mark.parametrize("fields", [{"kind": "match", "length": "4"}, {"kind": "chouette"}])
def test_an_unknown_type_or_length_starts_nothing(client_logged_in: Any, fields: dict) -> None:
    response = client_logged_in.post(reverse("games:start"), {"tier": "casual", **fields})
    assert response.status_code == 302
    assert not Game.objects.exists() and not Match.objects.exists()
