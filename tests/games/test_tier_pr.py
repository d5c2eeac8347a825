"""The lobby's tier PRs come from bench/strength.py --pr's file (games/tier_pr.json)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games import tiers


@pytest.fixture
def measured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "tier_pr.json"
    monkeypatch.setattr(tiers, "TIER_PR_FILE", path)
    tiers.tier_pr.cache_clear()
    yield path
    tiers.tier_pr.cache_clear()


def _write(path: Path, figures: dict[str, Any]) -> None:
    path.write_text(json.dumps({"tiers": figures}), encoding="utf-8")


@pytest.mark.django_db
def test_the_lobby_shows_each_measured_tier_with_its_pr(measured: Path) -> None:
    noise = tiers.TIERS[tiers.Tier.INTERMEDIATE].noise
    _write(
        measured,
        {
            "intermediate": {"pr": 12.4, "noise": noise},
            "beginner": {"pr": 31.0, "noise": "ply 1, sigma 0.5"},  # another noise: not shown
        },
    )
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "进阶 · 约 PR 12" in page
    assert "约 PR 31" not in page
    english = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Intermediate · about PR 12" in english
    assert tiers.closest_tier(13.0) is tiers.Tier.INTERMEDIATE


def test_without_a_measurement_no_pr_is_claimed(measured: Path) -> None:
    assert tiers.tier_pr() == {}
    assert tiers.closest_tier(10.0) is None
