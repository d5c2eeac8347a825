"""A game starts only under the commitment its page showed (issue 46, item 1;
docs/dice.md, "Before the game").

Two tabs of one person show the same commitment; the first starts a game
with it; the second's start is refused in words that give the new one, and
starts nothing. A start that sends none is refused the same way. A match's
Next game over the socket is held to the same rule. A start with no seed
of the person's is labelled as proving nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from games import services
from games.live.commands import parse_command, run_command
from games.models import Game, NextDiceSeed, SeedFrom
from games.words.dice import commitment_words, unproven_words
from tests.conftest import start_fields

pytestmark = pytest.mark.django_db

HEX64 = re.compile(r"[0-9a-f]{64}")


def _signed_in(user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _shown(page: str) -> str:
    """The commitment a page's start form shows and sends (one, however often written)."""
    found = set(re.findall(r'name="commitment"[^>]* value="([0-9a-f]{64})"', page))
    assert len(found) == 1, found
    return found.pop()


def test_the_second_tabs_stale_start_is_refused_in_words_with_the_new_commitment(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    client = _signed_in(user)
    first_tab, second_tab = client.get("/").content.decode(), client.get("/").content.decode()
    shown = _shown(first_tab)
    assert _shown(second_tab) == shown
    assert f'<code class="dice-commitment" data-commitment>{shown}</code>' in first_tab
    form = {"tier": "beginner", "commitment": shown, "dice_seed": "tab-one"}
    started = client.post("/games/new/", form)
    game = Game.objects.get(owner=user)
    assert started.url == f"/games/{game.pk}/" and game.dice_commitment == shown

    stale = {"tier": "casual", "commitment": shown, "dice_seed": "tab-two", "back": "/"}
    refused = client.post("/games/new/", stale, follow=True)
    assert refused.redirect_chain == [("/", 302)]
    page = refused.content.decode()
    new = services.next_commitment(user)
    assert new != shown
    with translation.override("zh-hans"):
        words = commitment_words("commitment_used", new)
    assert words.startswith("这个承诺已被另一局用掉了。下一局的承诺是 ") and words.endswith(
        "，请确认后再开始。"
    )
    assert words in page
    assert _shown(page) == new  # the form shows the new one, and sends it
    assert 'value="tab-two"' in page  # the seed the person gave is kept
    assert 'name="tier" value="casual" checked' in page  # and their choices
    assert Game.objects.filter(owner=user).count() == 1  # nothing started


def test_a_start_without_a_commitment_starts_nothing_and_says_which_is_next(
    client: Client,
) -> None:
    client.get("/")
    refused = client.post("/games/new/", {"tier": "beginner"}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 302 and refused.url == "/"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = _shown(page)
    assert (
        "A new game starts only under the dice commitment its page showed. "
        f"The next game&#x27;s commitment is {shown}; check it and start again."
    ) in page
    assert not Game.objects.exists() and not User.objects.exists()  # no guest either


@pytest.mark.parametrize("garbage", ["0" * 64, "not-hex", "A" * 64])
def test_a_made_up_commitment_starts_nothing(user: Any, garbage: str) -> None:
    client = _signed_in(user)
    client.get("/")
    pending = NextDiceSeed.objects.get(owner=user).seed
    answer = client.post("/games/new/", {"tier": "beginner", "commitment": garbage})
    assert answer.status_code == 302 and answer.url == "/"
    assert not Game.objects.exists()
    assert NextDiceSeed.objects.get(owner=user).seed == pending  # still the next one


def test_two_tabs_of_a_visitor_the_second_is_refused_after_the_first_made_the_guest(
    client: Client, held_computer_turns: list[tuple[int, int]]
) -> None:
    shown = _shown(client.get("/").content.decode())
    assert client.get("/games/next-commitment").json() == {"commitment": shown}
    client.post("/games/new/", {"tier": "beginner", "commitment": shown, "dice_seed": "a"})
    game = Game.objects.get()
    assert game.dice_commitment == shown and game.owner.is_guest
    again = client.post("/games/new/", {"tier": "beginner", "commitment": shown})
    assert again.status_code == 302 and again.url == "/"
    assert Game.objects.count() == 1
    fresh = client.get("/games/next-commitment")
    assert "no-store" in fresh["Cache-Control"]
    assert HEX64.fullmatch(fresh.json()["commitment"]) and fresh.json()["commitment"] != shown


def test_a_refused_start_goes_back_only_to_a_page_of_this_site(user: Any) -> None:
    client = _signed_in(user)
    fields = {"tier": "beginner", "commitment": "1" * 64}
    away = client.post("/games/new/", {**fields, "back": "https://evil.example/"})
    assert away.url == "/"
    home = client.post("/games/new/", {**fields, "back": "/learn/"})
    assert home.url == "/learn/"


def test_one_next_commitment_a_person_and_the_end_panel_shows_it(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    client = _signed_in(user)
    shown = services.next_commitment(user)
    assert services.next_commitment(user) == shown  # asked again: the same
    game = services.start_game(user, "beginner", person_seed="x")
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert _shown(page) == services.next_commitment(user) != shown
    assert NextDiceSeed.objects.filter(owner=user).count() == 1


def test_a_start_without_a_seed_is_labelled_as_proving_nothing(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    client = _signed_in(user)
    client.post("/games/new/", start_fields(client, tier="beginner"))
    game = Game.objects.get(owner=user)
    assert game.person_seed_from == SeedFrom.SERVER and game.person_seed
    with translation.override("zh-hans"):
        words = unproven_words(game)
    assert words == "这局没有来自你浏览器的种子，骰子不能向你证明公平。"
    assert words in client.get(f"/games/{game.pk}/").content.decode()
    client.post("/games/new/", start_fields(client, tier="beginner", dice_seed="mine"))
    mine = Game.objects.filter(owner=user).latest("pk")
    assert mine.person_seed_from == SeedFrom.PERSON and unproven_words(mine) is None
    assert "骰子不能向你证明公平" not in client.get(f"/games/{mine.pk}/").content.decode()


def _next_game(game: Game, user: Any, **fields: Any) -> tuple[dict[str, Any], Any]:
    """The page's Next game as the socket reads and runs it."""
    game = Game.objects.get(pk=game.pk)
    frame = {"type": "next_game", "id": "n1", "version": game.version, **fields}
    with translation.override("en"):
        return run_command(game.pk, user, parse_command(json.dumps(frame)))


def test_a_matchs_next_game_is_held_to_the_commitment_its_panel_showed(
    user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    first = services.start_match(user, "beginner", 3, person_seed="m1")
    offered = services.resign(first.pk, user, Game.objects.get(pk=first.pk).version)
    assert services.answer_resignation(first.pk, offered.version, True)  # the computer accepts
    shown = services.next_commitment(user)
    services.start_game(user, "beginner")  # another tab uses it
    reply, state = _next_game(first, user, commitment=shown, seed="m2")
    new = services.next_commitment(user)
    assert (reply["type"], reply["code"], reply["params"]) == (
        "refused",
        "commitment_used",
        {"commitment": new},
    )
    assert reply["message"] == (
        f"This commitment was used by another game. The next game's commitment is {new}; "
        "check it and start again."
    )
    assert state is None and first.match.games.count() == 1
    reply, _ = _next_game(first, user, seed="m2")  # none sent
    assert (
        reply["code"] == "commitment_used" and "only under the dice commitment" in reply["message"]
    )
    reply, _ = _next_game(first, user, commitment=new, seed="m2")
    assert reply["type"] == "ack"
    second = first.match.games.get(match_game=2)
    assert (second.dice_commitment, second.person_seed) == (new, "m2")
