"""The course where other pages send to it: ``{% course_offer unfinished recent %}``
in the lobby says how long the course takes (``learning.course.pace``), as a
first-time visitor's button or a plain link, and nothing once every lesson
has its stars; ``{% lesson_link "habits" %}`` links a lesson by its number
in the course as it stands."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from learning.course import pace, progress
from learning.course.lessons import LESSONS

register = template.Library()


@register.inclusion_tag("learning/_course_offer.html", takes_context=True)
def course_offer(context: Any, unfinished: Any, recent: Any) -> dict[str, Any]:
    user = context["request"].user
    return {
        "done": progress.next_lesson(user) is None,
        "first_visit": not unfinished and not recent,
        "minutes": pace.course_minutes(),
        "course_url": reverse("learning:course"),
    }


@register.simple_tag
def lesson_link(slug: str) -> SafeString:
    number = [lesson.slug for lesson in LESSONS].index(slug) + 1
    url = reverse("learning:lesson", args=[slug])
    return format_html('<a href="{}">{}</a>', url, _("lesson %(n)s") % {"n": number})
