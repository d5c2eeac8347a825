"""Django's own messages that the site's pages show, worded the site's way.

Never imported: makemessages reads these ``gettext_noop`` calls, so the
project catalogue (``locale/``, first in ``LOCALE_PATHS``) carries our Chinese
for them and it wins over Django's bundled catalogues (its 电子邮件 and
"Email 地址" for our 电子邮箱, a half-width colon after every form label).
Each msgid is exactly Django's.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

DJANGO_MESSAGES = [
    # django.forms: the suffix after every label ("用户名：").
    gettext_noop(":"),
    # django.core.validators and model fields.
    gettext_noop("Enter a valid email address."),
    gettext_noop("Email address"),
    gettext_noop("email address"),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Select a valid choice. That choice is not one of the available choices."),
    # django.contrib.auth forms.
    gettext_noop("This account is inactive."),
    # django.views.csrf: the page a refused form post shows.
    gettext_noop("CSRF verification failed. Request aborted."),
]
