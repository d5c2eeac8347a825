from __future__ import annotations

from django.apps import AppConfig


class AiWorkerConfig(AppConfig):
    name = "ai_worker"
