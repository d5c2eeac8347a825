from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.utils.translation import gettext_lazy as _

from accounts.models import Preferences, User


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # "Show the pip count" next to its checkbox reads better without a colon.
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    class Meta:
        model = Preferences
        fields = [
            "auto_end_turn",
            "show_pips",
            "default_tier",
            "board_direction",
            "animation_speed",
            "highlight_legal",
            "language",
        ]


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    """Names an account. Given a guest as ``instance`` it names that same row."""

    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional; needed only to reset a forgotten password."),
    )

    class Meta:
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A guest's generated name is not a suggestion for the real one.
        if self.instance.pk and self.instance.is_guest:
            self.initial["username"] = ""

    def save(self, commit: bool = True) -> User:
        user: User = super().save(commit=False)
        user.is_guest = False
        if commit:
            user.save()
        return user
