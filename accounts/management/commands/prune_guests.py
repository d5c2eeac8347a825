"""Delete guest accounts nobody has used for a while (their games go too)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from accounts.guests import stale_guests


class Command(BaseCommand):
    help = (
        "Delete guest accounts (and their games) not used for --days days "
        "(default GUEST_RETENTION_DAYS; beat runs accounts.tasks.prune_guests daily)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None)
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        guests = stale_guests(options["days"] or settings.GUEST_RETENTION_DAYS)
        count = guests.count()
        if not options["dry_run"]:
            guests.delete()
        verb = "would delete" if options["dry_run"] else "deleted"
        self.stdout.write(f"{verb} {count} guest accounts")
