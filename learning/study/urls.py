"""The study side's addresses: the analysis board and practice."""

from __future__ import annotations

from django.urls import URLPattern, path

from learning.study import views as study_views

app_name = "study"
urlpatterns: list[URLPattern] = [
    path("analysis/", study_views.analysis_page, name="analysis"),
    path("analysis/position", study_views.analysis_position, name="analysis_position"),
    path("analysis/step", study_views.analysis_step, name="analysis_step"),
    path("analysis/run", study_views.analysis_run, name="analysis_run"),
    path("practice/", study_views.practice_page, name="practice"),
    path("practice/<int:item_id>/answer", study_views.practice_answer, name="practice_answer"),
]
