"""Account pages: sign up (a guest becomes the named account), log in/out,
profile, preferences, password change and reset, and the language switch."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from accounts import throttling
from accounts.forms import (
    LoginForm,
    PasswordChangeForm,
    PasswordResetForm,
    PreferencesForm,
    SetPasswordForm,
    SignUpForm,
)
from accounts.guests import GUEST_BACKEND, ensure_player
from accounts.models import Preferences, Tutor
from accounts.preferences import preferences_for
from accounts.throttling import Throttle


def safe_next(request: HttpRequest, fallback: str) -> str:
    """The ``next`` parameter if it points into this site, else ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Name the current guest account, or create a new one for a visitor."""
    current = request.user
    if current.is_authenticated and not getattr(current, "is_guest", False):
        return redirect("accounts:profile")
    instance = current if current.is_authenticated else None
    form = SignUpForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # login() rotates the session key (and drops the guest session data).
        login(request, user, backend=GUEST_BACKEND)
        messages.success(request, _("Welcome, %(name)s. Your games are kept.") % {"name": user})
        return redirect(safe_next(request, reverse("accounts:profile")))
    next_url = safe_next(request, "")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"account": request.user})


@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """Show the preferences; saving them makes a guest account if needed."""
    if request.method == "POST":
        user = ensure_player(request)
        form = PreferencesForm(request.POST, instance=preferences_for(user))
        if form.is_valid():
            saved = form.save()
            messages.success(request, _("Preferences saved."))
            response = redirect(safe_next(request, reverse("accounts:preferences")))
            remember_language(response, saved.language)
            return response
    else:
        form = PreferencesForm(instance=preferences_for(request.user))
    return render(request, "accounts/preferences.html", {"preferences_form": form})


@require_POST
def tutor_on(request: HttpRequest) -> HttpResponse:
    """The course's offer at its end: 教练模式 on, warning of bad plays and worse."""
    user = ensure_player(request)
    Preferences.objects.update_or_create(user=user, defaults={"tutor": Tutor.BAD})
    messages.success(
        request, _("Tutor mode is on: it warns you before a bad play or cube decision.")
    )
    return redirect(safe_next(request, reverse("accounts:preferences")))


def remember_language(response: HttpResponse, language: str) -> None:
    """Keep the chosen language in the cookie too, so it lasts past log-out."""
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            secure=settings.LANGUAGE_COOKIE_SECURE,
        )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language, which also stores a signed-in user's choice."""
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language and check_for_language(language):
        prefs = preferences_for(request.user)
        prefs.language = language
        prefs.save()
    return django_set_language(request)


class GuestsSignUpFirstMixin:
    """Guests have no password to change: send them to sign up instead."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if getattr(request.user, "is_guest", False):
            return HttpResponseRedirect(reverse("accounts:signup"))
        response: HttpResponse = super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        return response


class LoginView(auth_views.LoginView):
    """Django's login, held by the address and username throttles too."""

    form_class = LoginForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = str(request.POST.get("username", ""))
        if wait := throttling.login_wait(request, username):
            return throttled_response(request, throttling.LOGIN_USERNAME, wait)
        response: HttpResponse = super().post(request, *args, **kwargs)
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        throttling.remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form: Any) -> HttpResponse:
        if form.has_error("__all__", "invalid_login"):
            throttling.login_failed(self.request, str(form.cleaned_data.get("username", "")))
        return super().form_invalid(form)


class PasswordChangeView(GuestsSignUpFirstMixin, LoginRequiredMixin, auth_views.PasswordChangeView):
    form_class = PasswordChangeForm
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm
    success_url = reverse_lazy("accounts:password_reset_done")
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_valid(self, form: Any) -> HttpResponse:
        throttling.PASSWORD_RESET.check(throttling.client_ip(self.request) or "")
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_complete")
    post_reset_login = False

    def form_valid(self, form: Any) -> HttpResponse:
        # The owner proved the mailbox: lift the locks on the username.
        throttling.clear_username_locks(self.request, form.user.get_username())
        return super().form_valid(form)


def throttle_reason(throttle: Throttle, wait: int) -> str:
    if throttle is throttling.GUEST:
        return _(
            "Too many new guest accounts from your address. "
            "Please wait an hour and try again, or log in."
        )
    if throttle is throttling.PASSWORD_RESET:
        return _(
            "Too many password-reset emails asked for from your address. "
            "Please wait an hour and try again."
        )
    return _(
        "Too many wrong passwords for this username or from your address. "
        "Please try again in %(wait)s, or reset the password."
    ) % {"wait": wait_words(wait)}


def wait_words(seconds: int) -> str:
    """A lock's remaining time in words: seconds under a minute, else minutes, else hours."""
    if seconds < 60:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}


def throttled_response(request: HttpRequest, throttle: Throttle, wait: int = 0) -> HttpResponse:
    """The 429 page for ``throttle``, saying in words how long and what to do."""
    context = {
        "reason": throttle_reason(throttle, wait),
        "offer_reset": throttle in throttling.LOGIN_THROTTLES,
    }
    response = render(request, "accounts/throttled.html", context, status=429)
    if wait:
        response["Retry-After"] = str(wait)
    return response
