"""Delete guest accounts nobody has used for a while (their games go too)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Q
from django.utils import timezone

from accounts.models import User


def stale_guests(days: int) -> Any:
    """Guests not seen for ``days`` days: their session cookie is long gone
    (SESSION_COOKIE_DAYS), so nobody can reach their games any more."""
    cutoff = timezone.now() - timedelta(days=days)
    seen_before = Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff)
    return User.objects.filter(seen_before, is_guest=True)


class Command(BaseCommand):
    help = "Delete guest accounts (and their games) not used for --days days."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=120)
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        guests = stale_guests(options["days"])
        count = guests.count()
        if not options["dry_run"]:
            guests.delete()
        verb = "would delete" if options["dry_run"] else "deleted"
        self.stdout.write(f"{verb} {count} guest accounts")
