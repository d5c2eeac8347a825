from __future__ import annotations

from django import forms

from accounts.models import Preferences


class PreferencesForm(forms.ModelForm):
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
