from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Guests are real accounts marked ``is_guest`` until they sign up."""

    is_guest = models.BooleanField(default=False)
