from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("account/", include("accounts.urls")),
    path("", include("games.urls")),
    path("learn/", include("learning.urls")),
]
