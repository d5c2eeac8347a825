from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts.models import BoardTheme, Preferences, Tutor, User

# Longer than any real password, short enough to hash cheaply.
PASSWORD_MAX_LENGTH = 1024
# Any other text field without a limit of its own (an email address's).
TEXT_MAX_LENGTH = 254


class LengthLimitsMixin:
    """Every text field gets a length limit, checked with Django's own message.

    Django's AuthenticationForm sets the username's ``max_length`` after the
    field is built, so no validator checks it and a 10,000-character name
    reached the database; here each limit is also a validator.
    """

    fields: dict[str, forms.Field]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                limit_length(field)


def limit_length(field: forms.CharField) -> None:
    if field.max_length is None:
        is_password = isinstance(field.widget, forms.PasswordInput)
        field.max_length = PASSWORD_MAX_LENGTH if is_password else TEXT_MAX_LENGTH
    if not any(isinstance(v, MaxLengthValidator) for v in field.validators):
        field.validators.append(MaxLengthValidator(field.max_length))
    field.widget.attrs["maxlength"] = str(field.max_length)


class LoginForm(LengthLimitsMixin, auth_forms.AuthenticationForm):
    pass


class PasswordChangeForm(LengthLimitsMixin, auth_forms.PasswordChangeForm):
    pass


class PasswordResetForm(LengthLimitsMixin, auth_forms.PasswordResetForm):
    pass


class SetPasswordForm(LengthLimitsMixin, auth_forms.SetPasswordForm):  # type: ignore[type-arg]
    pass


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # "Show the pip count" next to its checkbox reads better without a colon.
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        # A form from before the themes existed (an open tab) keeps the board.
        self.fields["board_theme"].required = False
        self.fields["tutor"].required = False

    def clean_board_theme(self) -> str:
        return str(self.cleaned_data.get("board_theme") or BoardTheme.WOOD)

    def clean_tutor(self) -> str:
        # A form from before 教练模式 (an open tab) leaves the tutor as it was.
        kept = self.instance.tutor if self.instance else Tutor.OFF
        return str(self.cleaned_data.get("tutor") or kept or Tutor.OFF)

    class Meta:
        model = Preferences
        fields = [
            "auto_end_turn",
            "show_pips",
            "default_tier",
            "board_direction",
            "animation_speed",
            "highlight_legal",
            "auto_forced",
            "auto_bear_off",
            "sound",
            "board_theme",
            "language",
            "jacoby",
            "tutor",
            "last_move_arrows",
        ]


class SignUpForm(LengthLimitsMixin, UserCreationForm):  # type: ignore[type-arg]
    """Names an account. Given a guest as ``instance`` it names that same row."""

    email = forms.EmailField(
        label=_("Email"),
        max_length=TEXT_MAX_LENGTH,
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
