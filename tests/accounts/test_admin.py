"""The admin lists accounts with their guest flag and preferences."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_staff_can_filter_guests_and_open_an_account_with_its_preferences(
    client: Client, make_user: Any, guest: Any
) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    client.force_login(admin, backend="django.contrib.auth.backends.ModelBackend")
    listing = client.get("/admin/accounts/user/?is_guest__exact=1").content.decode()
    assert guest.username in listing and "root" not in listing.split("result_list", 1)[1]
    change = client.get(f"/admin/accounts/user/{guest.pk}/change/")
    assert change.status_code == 200
    assert 'name="is_guest"' in change.content.decode()
    assert 'name="preferences-0-default_tier"' in change.content.decode()
