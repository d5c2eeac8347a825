from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from accounts.preferences import board_prefs_from, preferences_for


def request_preferences(request: HttpRequest) -> Any:
    """The current user's preferences, read once per request."""
    cached = getattr(request, "_shuanglu_prefs", None)
    if cached is None:
        cached = preferences_for(getattr(request, "user", None))
        request._shuanglu_prefs = cached  # type: ignore[attr-defined]
    return cached


def preferences(request: HttpRequest) -> dict[str, Any]:
    """``prefs`` (a Preferences row, defaults for anonymous visitors),
    ``board_prefs`` (the board's dict) and ``preferences_form`` (lazy; for the
    lobby's ``{% include "accounts/_preferences_form.html" %}``).

    Reading the row costs no extra query: PreferredLanguageMiddleware already
    read it for signed-in users, and visitors have none.
    """
    from accounts.forms import PreferencesForm

    prefs = request_preferences(request)
    return {
        "prefs": prefs,
        "board_prefs": board_prefs_from(prefs),
        "preferences_form": SimpleLazyObject(
            lambda: PreferencesForm(instance=request_preferences(request))
        ),
    }
