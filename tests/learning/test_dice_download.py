"""A game's dice proof away from the site (issue 46, item 3; docs/dice.md,
"After the game").

The download holds the commitment, both seeds and every roll in order as it
was shown, the last roll drawn and never played too. docs/dice.md's check
is taken out of the document as it stands and run as a separate Python
process that cannot import the site: it passes a real game's download and
names the roll changed in a tampered copy. The share link shows the check
to anyone, and nothing else of the owner's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from games import services
from games.engine import Dice, Side, fairdice, legal_plays
from games.models import Game, Turn
from games.reading import position_of
from tests.learning.conftest import RACE, computer_plays, person_plays, play_out

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
MARK = "<!-- standalone-check"


def documented_check() -> str:
    """The Python block after the standalone-check mark in docs/dice.md, as written."""
    text = DOC.read_text(encoding="utf-8")
    after = text[text.index(MARK) :]
    block = re.search(r"```python\n(.*?)```", after, re.S)
    assert block is not None
    return block.group(1)


def run_check(tmp_path: Path, proof: dict[str, Any], *noted: str) -> subprocess.CompletedProcess:
    """The documented check on ``proof``, in a Python that sees only the standard library."""
    script, data = tmp_path / "check_dice.py", tmp_path / "proof.json"
    script.write_text(documented_check(), encoding="utf-8")
    data.write_text(json.dumps(proof), encoding="utf-8")
    command = [sys.executable, "-I", "-S", str(script), str(data), *noted]
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)


def resigned_with_dice_shown(user: Any) -> Game:
    """A game opened by its opening roll, some turns played from its seeds, then
    resigned with the person's roll shown and not played."""
    game = services.start_game(user, "casual")  # its dice from its seeds
    while Turn.objects.filter(game=game).count() < 4 or game.turn == Side.DARK.value:
        assert not game.is_over
        if game.turn == Side.DARK.value:
            game = computer_plays(game)
        else:
            game = person_plays(game, legal_plays(position_of(game), Dice(*game.dice))[0])
    assert game.dice is not None and not game.is_over
    shown = list(game.dice)
    game = services.resign(game.pk, user, game.version)
    assert game.unplayed_dice == shown and game.dice is None
    return game


def download(client: Client, game: Game) -> dict[str, Any]:
    answer = client.get(f"/learn/verify/{game.pk}/proof.json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == f'attachment; filename="shuanglu-dice-{game.pk}.json"'
    return dict(answer.json())


def test_the_download_holds_every_roll_in_order_the_unplayed_last_one_too(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = resigned_with_dice_shown(user)
    proof = download(client_logged_in, game)
    assert (proof["commitment"], proof["server_seed"], proof["person_seed"]) == (
        game.dice_commitment,
        game.server_seed,
        game.person_seed,
    )
    assert proof["proven"] is False and proof["person_seed_from"] == "server"
    assert "no seed from your browser" in proof["unproven_why"]
    numbers = [r["roll"] for r in proof["rolls"]]
    assert numbers == sorted(numbers) and set(numbers) == set(range(game.rolls_drawn))
    last = proof["rolls"][-1]
    assert last == {
        "roll": game.rolls_drawn - 1,
        "dice": game.unplayed_dice,
        "what": "unplayed",
        "side": "light",
    }
    turns = Turn.objects.filter(game=game).exclude(roll=None).count()
    assert len(proof["rolls"]) == len(game.opening_rolls) + turns + 1
    assert proof["not_kept"] == []
    seed = bytes.fromhex(game.server_seed)
    for roll in proof["rolls"]:
        assert list(fairdice.roll_of(seed, game.person_seed, roll["roll"])) == roll["dice"]


def test_the_documented_check_passes_a_real_download_and_names_a_changed_roll(
    client_logged_in: Client,
    user: Any,
    held_computer_turns: list[tuple[int, int]],
    tmp_path: Path,
) -> None:
    lines = [line for line in documented_check().splitlines() if line.strip()]
    assert len(lines) <= 16  # "about ten lines": what a skeptic reads before running it
    walled = [sys.executable, "-I", "-S", "-c", "import games"]
    assert subprocess.run(walled, cwd=tmp_path, capture_output=True).returncode != 0
    game = resigned_with_dice_shown(user)
    proof = download(client_logged_in, game)
    honest = run_check(tmp_path, proof, game.dice_commitment, game.person_seed)
    assert honest.returncode == 0, honest.stdout + honest.stderr
    assert honest.stdout.count("matches") == len(proof["rolls"]) + 1
    assert f"roll {game.rolls_drawn - 1} unplayed" in honest.stdout

    tampered = json.loads(json.dumps(proof))
    changed = tampered["rolls"][3]
    real = list(changed["dice"])
    changed["dice"] = [real[0] % 6 + 1, real[1]]
    caught = run_check(tmp_path, tampered, game.dice_commitment, game.person_seed)
    assert caught.returncode == 1
    wrong = [line for line in caught.stdout.splitlines() if "DOES NOT MATCH" in line]
    assert wrong == [
        f"roll {changed['roll']} {changed['what']} {changed['dice']} "
        f"DOES NOT MATCH: the seeds give {real}"
    ]
    last = json.loads(json.dumps(proof))
    last["rolls"][-1]["dice"] = [last["rolls"][-1]["dice"][0] % 6 + 1, last["rolls"][-1]["dice"][1]]
    assert run_check(tmp_path, last).returncode == 1  # the unplayed roll is checked too

    noted_elsewhere = run_check(tmp_path, proof, "0" * 64, game.person_seed)
    assert noted_elsewhere.returncode == 1
    assert "DOES NOT MATCH the commitment" in noted_elsewhere.stdout
    other_seed = run_check(tmp_path, proof, game.dice_commitment, "not-my-seed")
    assert other_seed.returncode == 1  # the dice are derived from the seed you noted


@pytest.mark.slow
def test_the_documented_check_passes_a_game_played_to_its_end(
    client_logged_in: Client, user: Any, tmp_path: Path
) -> None:
    game = play_out(user, RACE, committed=True)
    assert game.status == "finished" and not game.resigned
    proof = download(client_logged_in, game)
    assert all(r["what"] != "unplayed" for r in proof["rolls"])
    checked = run_check(tmp_path, proof, game.dice_commitment, game.person_seed)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_unplayed_roll_is_checked_by_the_verify_page_and_both_commands(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = resigned_with_dice_shown(user)
    number, shown = game.rolls_drawn - 1, game.unplayed_dice
    page = client_logged_in.get(f"/learn/verify/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert 'data-what="unplayed"' in text and "Drawn and never played" in text
    data = json.loads(re.search(r'id="verify-data"[^>]*>(.*?)</script>', text).group(1))
    assert data["rolls"][-1]["roll"] == number and data["rolls"][-1]["dice"] == shown
    command = page.context["command"]
    assert f" {number}={shown[0]}{shown[1]}" in command
    engine = subprocess.run(
        [sys.executable, "-m", *command.split()[2:]], capture_output=True, text=True, timeout=60
    )
    assert engine.returncode == 0, engine.stdout + engine.stderr
    assert f"roll {number}: {shown[0]}-{shown[1]} matches" in engine.stdout
    out = call_verify(game)
    assert f"roll {number}: {shown[0]}-{shown[1]} matches" in out
    assert f"roll {number} was drawn and never played" in out
    Game.objects.filter(pk=game.pk).update(unplayed_dice=[shown[0] % 6 + 1, shown[1]])
    with pytest.raises(CommandError, match="not every roll"):
        call_verify(game)


def test_a_game_the_computer_abandoned_shows_its_unplayed_roll_too(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "casual", person_seed="abandoned")
    while game.turn != Side.DARK.value or Turn.objects.filter(game=game).count() < 2:
        assert not game.is_over
        if game.turn == Side.DARK.value:
            game = computer_plays(game)
        else:
            game = person_plays(game, legal_plays(position_of(game), Dice(*game.dice))[0])
    rolled = list(game.dice)  # the computer's, drawn as the turn passed to it
    assert services.fail_computer_turn(game.pk, game.version)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "failed" and game.dice == rolled
    last = download(client_logged_in, game)["rolls"][-1]
    assert last == {
        "roll": game.rolls_drawn - 1,
        "dice": rolled,
        "what": "unplayed",
        "side": "dark",
    }
    out = call_verify(game)
    assert f"roll {game.rolls_drawn - 1}: {rolled[0]}-{rolled[1]} matches" in out
    assert f"roll {game.rolls_drawn - 1} was drawn and never played" in out


def call_verify(game: Game) -> str:
    out = StringIO()
    call_command("verify_dice", game.pk, stdout=out)
    return out.getvalue()


def test_a_share_link_shows_the_check_to_anyone_and_nothing_else_of_the_owners(
    client_logged_in: Client,
    user: Any,
    make_user: Any,
    held_computer_turns: list[tuple[int, int]],
) -> None:
    game = resigned_with_dice_shown(user)
    other = services.start_game(user, "beginner", person_seed="other-game")
    made = client_logged_in.post(f"/learn/verify/{game.pk}/share")
    assert made.status_code == 302
    game.refresh_from_db()
    token = game.share_token
    assert len(token) == 43 and re.fullmatch(r"[A-Za-z0-9_-]{43}", token)
    client_logged_in.post(f"/learn/verify/{game.pk}/share")
    game.refresh_from_db()
    assert game.share_token == token  # made once
    owner_page = client_logged_in.get(f"/learn/verify/{game.pk}/").content.decode()
    assert f"/learn/verify/shared/{token}/" in owner_page

    for friend in (Client(), _signed_in(make_user("bob"))):
        page = friend.get(f"/learn/verify/shared/{token}/", HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 200
        text = page.content.decode()
        assert game.server_seed in text and game.person_seed in text
        assert re.search(rf"\b{user.username}\b", text) is None  # the owner's name nowhere
        assert user.email not in text
        assert f"/games/{game.pk}/" not in text and f"/learn/games/{game.pk}/" not in text
        assert str(other.dice_commitment) not in text and f"/verify/{game.pk}/share" not in text
        assert "no seed from the player&#x27;s browser" in text
        proof = friend.get(f"/learn/verify/shared/{token}/proof.json").json()
        assert proof["rolls"] == download(client_logged_in, game)["rolls"]
        assert friend.get(f"/learn/verify/{game.pk}/").status_code == 404  # the owner's page
        assert friend.get(f"/learn/verify/{game.pk}/proof.json").status_code == 404
        assert friend.post(f"/learn/verify/{other.pk}/share").status_code == 404
    guessed = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert Client().get(f"/learn/verify/shared/{guessed}/").status_code == 404
    assert Client().get("/learn/verify/shared//").status_code == 404
    assert Game.objects.get(pk=other.pk).share_token == ""


def test_the_history_links_each_over_games_proof(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    over = resigned_with_dice_shown(user)
    going = services.start_game(user, "beginner", person_seed="x")
    history = client_logged_in.get("/learn/history/").content.decode()
    assert f'href="/learn/verify/{over.pk}/proof.json" download' in history
    assert f"/learn/verify/{going.pk}/proof.json" not in history


def test_a_game_in_progress_has_no_share_link(
    client_logged_in: Client, user: Any, held_computer_turns: list[tuple[int, int]]
) -> None:
    game = services.start_game(user, "beginner", person_seed="x")
    client_logged_in.post(f"/learn/verify/{game.pk}/share")
    assert Game.objects.get(pk=game.pk).share_token == ""
    proof = download(client_logged_in, game)
    assert proof["server_seed"] is None and proof["rolls"] == []
    assert proof["commitment"] == game.dice_commitment and proof["proven"] is True


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client
