"""JSON from strangers, a request body or a socket frame, checked before anything
reads it (docs/interfaces.md §4, §6): ``read_object``, then ``check_fields``,
so a reader never meets a dict where it expects text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The kinds a field may be, by name: the Python types json.loads gives, in words.
FIELD_KINDS: dict[str, tuple[tuple[type, ...], Promise]] = {
    "text": ((str,), gettext_lazy("text")),
    "number": ((int,), gettext_lazy("a whole number")),
    "list": ((list,), gettext_lazy("a list")),
    "object": ((dict,), gettext_lazy("an object")),
    "flag": ((bool,), gettext_lazy("true or false")),
    "null": ((type(None),), gettext_lazy("null")),
}
Fields = Mapping[str, tuple[str, ...]]


class JsonInputError(ValueError):
    """JSON input refused: ``code`` says why, ``params`` the details."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(f"{code}: {self.params}")

    @property
    def message(self) -> str:
        """The refusal in words, in the active language."""
        p = self.params
        if self.code == "bad_field":
            kinds = " / ".join(str(FIELD_KINDS[kind][1]) for kind in p["kinds"])
            return _("“%(field)s” should be %(kinds)s.") % {"field": p["field"], "kinds": kinds}
        texts = {
            "too_large": _("The request is larger than %(limit)s bytes."),
            "too_deep": _("The request is nested more than %(limit)s levels deep."),
            "not_json": _("The request is not valid JSON."),
            "not_object": _("The request should be a JSON object."),
        }
        return texts.get(self.code, _("The request cannot be read.")) % p


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_object(raw: str | bytes, max_bytes: int, max_depth: int) -> dict[str, Any]:
    """The JSON object in ``raw``; ``JsonInputError`` for anything else."""
    if len(raw) > max_bytes:
        raise JsonInputError("too_large", {"limit": max_bytes})
    try:
        data = json.loads(raw or "{}", parse_constant=_refuse_constant)
    except RecursionError:
        raise JsonInputError("too_deep", {"limit": max_depth}) from None
    except ValueError:  # JSONDecodeError and UnicodeDecodeError both are
        raise JsonInputError("not_json") from None
    if not isinstance(data, dict):
        raise JsonInputError("not_object")
    if _deeper_than(data, max_depth):
        raise JsonInputError("too_deep", {"limit": max_depth})
    return data


def _deeper_than(value: Any, levels: int) -> bool:
    """Whether lists and objects nest in ``value`` more than ``levels`` deep
    (a scalar: 0, ``[]``: 1); the recursion stops at ``levels``."""
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, list):
        return False
    return levels == 0 or any(_deeper_than(child, levels - 1) for child in value)


def check_fields(data: Mapping[str, Any], fields: Fields) -> None:
    """Each named field present in ``data`` is of one of its kinds, by its exact
    type as json.loads gives it (so a bool, an int's subclass, is not a number)."""
    for name, kinds in fields.items():
        if name in data and not any(type(data[name]) in FIELD_KINDS[kind][0] for kind in kinds):
            raise JsonInputError("bad_field", {"field": name, "kinds": kinds})
