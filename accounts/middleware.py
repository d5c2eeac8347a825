from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.context_processors import request_preferences
from accounts.throttling import ThrottledError
from accounts.views import throttled_response


class PreferredLanguageMiddleware:
    """Use the language a signed-in player chose in the preferences.

    Runs after LocaleMiddleware (cookie, then Accept-Language) and the
    authentication middleware; a player who never chose keeps that choice.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            language = request_preferences(request).language
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class ThrottleMiddleware:
    """Answer a ``ThrottledError`` from any view with a 429 page in words."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, ThrottledError):
            return throttled_response(request, exception.throttle)
        return None
