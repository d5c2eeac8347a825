from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views

urlpatterns = [
    # Django's set_language, wrapped to also save a signed-in user's choice.
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("account/", include("accounts.urls")),
    path("", include("games.urls")),
    path("learn/", include("learning.urls")),
    # 练习题: rated puzzles (learning.puzzles).
    path("puzzles/", include("learning.puzzles.urls")),
    # The study side (analysis board, practice) at /analysis/ and /practice/.
    path("", include("learning.study.urls")),
]
