"""Signals the account pages send; higher floors (games) connect to them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent with ``user=<User>`` after a password change or reset has been saved:
# every other session of that user no longer holds.
password_changed = Signal()
