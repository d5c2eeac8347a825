from __future__ import annotations

from django.urls import URLPattern, path

from games import views

app_name = "games"
urlpatterns: list[URLPattern] = [
    path("", views.lobby, name="lobby"),
    path("games/new/", views.start, name="start"),
    path("games/next-commitment", views.next_commitment, name="next_commitment"),
    path("games/<int:game_id>/", views.play, name="play"),
    path("games/<int:game_id>/state", views.state, name="state"),
    path("games/<int:game_id>/give-up", views.give_up, name="give_up"),
]
