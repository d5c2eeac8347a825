from __future__ import annotations

from django.urls import URLPattern, path

from learning import views
from learning.course import views as course_views
from learning.dice import views as dice_views
from learning.glossary import views as glossary_views
from learning.study import file_views

app_name = "learning"
urlpatterns: list[URLPattern] = [
    path("", course_views.course_page, name="course"),
    path("lesson/<slug:slug>/", course_views.lesson_page, name="lesson"),
    path("lesson/<slug:slug>/<int:index>/check", course_views.lesson_check, name="lesson_check"),
    path("first-game/", course_views.first_game, name="first_game"),
    path("history/", views.history_page, name="history"),
    path("reviews/", views.reviews, name="reviews"),
    path("games/<int:game_id>/review/", views.review, name="review"),
    path("games/<int:game_id>/analysis", views.analysis_status, name="analysis_status"),
    path("games/<int:game_id>/export.mat", file_views.export_mat, name="export_mat"),
    path("history/import/", file_views.import_mat, name="import_mat"),
    path("games/<int:game_id>/analysis/again", views.analyse_again, name="analyse_again"),
    path("stats/", views.stats, name="stats"),
    path("verify/<int:game_id>/", dice_views.verify, name="verify"),
    path("verify/<int:game_id>/proof.json", dice_views.proof, name="dice_proof"),
    path("verify/<int:game_id>/share", dice_views.share, name="dice_share"),
    path("verify/shared/<str:token>/", dice_views.verify_shared, name="verify_shared"),
    path("verify/shared/<str:token>/proof.json", dice_views.proof_shared, name="dice_proof_shared"),
    path("help/", views.help_page, name="help"),
    # Before help/<page>/: the glossary is built from learning.glossary's entries.
    path("help/glossary/", glossary_views.glossary_page, name="glossary"),
    path("help/glossary/terms.json", glossary_views.glossary_terms, name="glossary_terms"),
    path("help/<slug:page>/", views.help_page, name="help_page"),
]
