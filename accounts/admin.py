from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import Preferences, User


class PreferencesInline(admin.StackedInline):  # type: ignore[type-arg]
    model = Preferences
    can_delete = False


@admin.register(User)
class ShuangluUserAdmin(UserAdmin):  # type: ignore[type-arg]
    list_display = ("username", "email", "is_guest", "is_staff", "date_joined", "last_login")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active")
    fieldsets = (*UserAdmin.fieldsets, ("Shuanglu", {"fields": ("is_guest",)}))  # type: ignore[misc]
    inlines = [PreferencesInline]
