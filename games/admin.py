from __future__ import annotations

from django.contrib import admin

from games.models import CubeAction, Game, Match, Turn


class TurnInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Turn
    extra = 0
    readonly_fields = [f.name for f in Turn._meta.fields]
    can_delete = False


class CubeActionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = CubeAction
    extra = 0
    readonly_fields = [f.name for f in CubeAction._meta.fields]
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "pk",
        "owner",
        "kind",
        "tier",
        "status",
        "turn",
        "version",
        "winner",
        "points",
        "updated_at",
    )
    list_filter = ("kind", "status", "tier", "winner")
    search_fields = ("owner__username",)
    # Games and their rows change only through games.services; the admin is for looking.
    readonly_fields = [f.name for f in Game._meta.fields]
    inlines = [TurnInline, CubeActionInline]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "owner", "tier", "length", "score_light", "score_dark", "winner")
    search_fields = ("owner__username",)
    # Matches change only through games.services; the admin is for looking.
    readonly_fields = [f.name for f in Match._meta.fields]
