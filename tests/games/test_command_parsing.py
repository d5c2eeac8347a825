"""games.live.commands.parse_command: numbers are JSON whole numbers (true,
false and 1.5 are not), and a command id is text or a whole number."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from games.live.commands import CommandError, parse_command

STEP = {"type": "step", "id": "s1", "version": 3, "from": 13, "to": 8}
KINDS = ("single", "gammon", "backgammon")


def test_a_step_and_a_numbered_id_are_read() -> None:
    command = parse_command(json.dumps({**STEP, "die": 5}))
    assert (command.type, command.id, command.version) == ("step", "s1", 3)
    assert command.args == {"src": 13, "dst": 8, "die": 5}
    assert parse_command(json.dumps({**STEP, "id": 7})).id == "7"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"version": True}, "A command needs the version it was made on."),
        ({"version": 3.0}, "A command needs the version it was made on."),
        ({"from": True}, "A step needs a from and a to point between 0 and 25."),
        ({"to": 8.0}, "A step needs a from and a to point between 0 and 25."),
        ({"die": False}, "A die is a number from 1 to 6."),
        ({"die": 5.0}, "A die is a number from 1 to 6."),
        ({"id": True}, "A command needs an id."),
        ({"id": 1.5}, "A command needs an id."),
    ],
)
def test_bools_and_fractions_are_not_numbers(change: dict[str, Any], words: str) -> None:
    with translation.override("en"), pytest.raises(CommandError) as refused:
        parse_command(json.dumps({**STEP, **change}))
    assert (refused.value.code, refused.value.message) == ("bad_command", words)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("{not json", "bad_json", "That message is not valid JSON."),
        ('{"a": NaN}', "bad_json", "That message is not valid JSON."),
        ("[1, 2]", "bad_json", "A command is a JSON object."),
        ('{"a": [[1]]}', "bad_json", "The request is nested more than 2 levels deep."),
        ("[" * 5000 + "]" * 5000, "too_large", "Message too large (over 4 KB)."),
    ],
)
def test_a_frame_that_is_no_json_object_is_refused_in_words(
    text: str, code: str, words: str
) -> None:
    with translation.override("en"), pytest.raises(CommandError) as refused:
        parse_command(text)
    assert (refused.value.code, refused.value.message, refused.value.command_id) == (
        code,
        words,
        None,
    )


def test_a_resignation_is_of_one_of_the_three_result_kinds() -> None:
    resign = {"type": "resign", "id": "r1", "version": 2}
    kinds = [parse_command(json.dumps({**resign, "kind": k})).args["kind"] for k in KINDS]
    assert kinds == list(KINDS)
    assert parse_command(json.dumps(resign)).args == {"kind": "single"}
    with translation.override("en"), pytest.raises(CommandError) as refused:
        parse_command(json.dumps({**resign, "kind": "triple"}))
    assert refused.value.message == "A resignation is single, gammon or backgammon."
