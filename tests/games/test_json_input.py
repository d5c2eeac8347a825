"""games.json_input.check_fields: a field is one of its kinds by the type
json.loads gives it, and a wrong one is refused in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.json_input import JsonInputError, check_fields

FIELDS = {"n": ("number",), "on": ("flag", "null"), "text": ("text",), "rows": ("list", "object")}


@pytest.mark.parametrize(
    "body", [{}, {"n": 3}, {"on": True}, {"on": None}, {"text": ""}, {"rows": []}, {"rows": {}}]
)
def test_each_field_of_one_of_its_kinds_passes(body: dict[str, Any]) -> None:
    check_fields(body, FIELDS)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"n": True}, "“n” should be a whole number."),
        ({"n": 1.5}, "“n” should be a whole number."),
        ({"on": 1}, "“on” should be true or false / null."),
        ({"text": 7}, "“text” should be text."),
        ({"rows": "x"}, "“rows” should be a list / an object."),
    ],
)
def test_a_field_of_another_kind_is_refused_in_words(body: dict[str, Any], words: str) -> None:
    with pytest.raises(JsonInputError) as refused, translation.override("en"):
        check_fields(body, FIELDS)
    with translation.override("en"):
        assert (refused.value.code, refused.value.message) == ("bad_field", words)
