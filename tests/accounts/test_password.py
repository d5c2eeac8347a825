"""Password change and reset through real URLs; mail lands in the outbox."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Another-Shuanglu-2027"


def test_changing_the_password_needs_the_old_one(
    client_logged_in: Client, user: Any, password: str
) -> None:
    url = reverse("accounts:password_change")
    wrong = client_logged_in.post(
        url, {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert wrong.status_code == 200
    right = client_logged_in.post(
        url,
        {"old_password": password, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert right["Location"] == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # The session that changed it stays signed in.
    assert client_logged_in.session["_auth_user_id"] == str(user.pk)


def test_a_guest_is_sent_to_sign_up_instead_of_changing_a_password(guest_client: Client) -> None:
    response = guest_client.get(reverse("accounts:password_change"))
    assert response["Location"] == reverse("accounts:signup")


def test_a_password_reset_mails_a_link_that_sets_a_new_password(client: Client, user: Any) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": user.email})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [user.email]
    link = re.search(r"http://testserver(/account/password/reset/\S+/\S+/)", message.body)
    assert link, message.body

    form_page = client.get(link.group(1), follow=True)
    assert form_page.context["validlink"]
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == reverse("accounts:password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client: Client) -> None:
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


def test_the_reset_mail_is_in_the_language_of_the_page(client: Client, user: Any) -> None:
    client.post(
        reverse("accounts:password_reset"), {"email": user.email}, HTTP_ACCEPT_LANGUAGE="zh-CN"
    )
    assert "密码" in mail.outbox[0].subject
