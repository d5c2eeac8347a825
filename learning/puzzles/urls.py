"""练习题's addresses, at /puzzles/."""

from __future__ import annotations

from django.urls import URLPattern, path

from learning.puzzles import views

app_name = "puzzles"
urlpatterns: list[URLPattern] = [
    path("", views.puzzles_page, name="next"),
    path("daily/", views.daily_page, name="daily"),
    path("themes/", views.dashboard_page, name="dashboard"),
    path("<int:puzzle_id>/", views.puzzle_page, name="puzzle"),
    path("<int:puzzle_id>/answer", views.answer, name="answer"),
    path("retry/<int:game_id>/", views.retry_page, name="retry"),
    path("retry/<int:game_id>/<int:row_id>/answer", views.retry_answer, name="retry_answer"),
]
