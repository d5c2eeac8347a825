from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

from accounts.context_processors import request_preferences
from accounts.throttling import ThrottledError
from accounts.views import throttled_response

log = logging.getLogger(__name__)


class PreferredLanguageMiddleware:
    """Use the language a signed-in player chose in the preferences.

    Runs after LocaleMiddleware (cookie, then Accept-Language) and the
    authentication middleware; a player who never chose keeps that choice.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            signed_in = request.user.is_authenticated  # the first database query
        except Exception as exc:
            # Raised in a middleware, it never reaches process_exception.
            if not is_database_unavailable(exc):
                raise
            return unavailable_response(request, exc)
        if signed_in:
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


class DatabaseUnavailableMiddleware:
    """A page during a database outage: 503 in words, not a 500.

    Rendered without the site's context processors, which would ask the
    database again. Once the database is back, the pool's checked
    connections serve the next request without a restart.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_database_unavailable(exception):
            return None
        return unavailable_response(request, exception)


def unavailable_response(request: HttpRequest, exception: BaseException) -> HttpResponse:
    log.warning("database unavailable for %s: %s", request.path, exception)
    page = render_to_string("unavailable.html", {"LANGUAGE_CODE": translation.get_language()})
    return HttpResponse(page, status=503, headers={"Retry-After": "30"})


def is_database_unavailable(exception: BaseException) -> bool:
    """Whether ``exception`` means the database cannot be reached right now."""
    unavailable: tuple[type[BaseException], ...] = (OperationalError, InterfaceError)
    try:
        import psycopg

        unavailable += (psycopg.OperationalError,)  # psycopg_pool's PoolTimeout too
    except ImportError:  # SQLite only
        pass
    return isinstance(exception, unavailable)
