"""Django's makemessages, set up for this site's catalogues.

Run it from the project root (``./dev messages`` does, then compiles)::

    python manage.py makemessages -l zh_Hans

Differences from the stock command, so that plain hand edits of the .po files
and merges between branches stay small:

- a template under ``templates/<app>/`` goes to that app's catalogue
  (``<app>/locale``), as if it lived in ``<app>/templates/``; Django's own
  ``templates/registration/`` belongs to accounts; every other template (and
  ``config/``) goes to the project catalogue in ``locale/``;
- no location comments, no obsolete entries, entries sorted by msgid;
- msgmerge makes no fuzzy guesses: a new message arrives empty;
- no POT-Creation-Date header, which would change on every run and make
  every branch's catalogues conflict;
- the virtualenv, tests, benchmarks, static files and deployment files are
  not scanned.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.management.commands import makemessages

# A folder of the project's templates/ that belongs to an app of another name.
TEMPLATE_FOLDER_APPS = {"registration": "accounts"}
CREATION_DATE = re.compile(r'^"POT-Creation-Date: .*\\n"\n', re.MULTILINE)
NOT_SCANNED = [".venv", "var", "tests", "bench", "static", "site", "docs", "*.egg-info"]


def catalogue_for(dirpath: str, root: Path) -> Path | None:
    """The app catalogue a file in ``templates/<folder>/`` belongs to, if any."""
    parts = Path(dirpath).resolve().relative_to(root).parts
    if len(parts) < 2 or parts[0] != "templates":
        return None
    locale = root / TEMPLATE_FOLDER_APPS.get(parts[1], parts[1]) / "locale"
    return locale if locale.is_dir() else None


class Command(makemessages.Command):
    msgmerge_options = [
        *makemessages.Command.msgmerge_options,
        "--no-fuzzy-matching",
        "--sort-output",
    ]
    msgattrib_options = [*makemessages.Command.msgattrib_options, "--sort-output"]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *NOT_SCANNED]
        options["no_location"] = True
        options["no_obsolete"] = True
        super().handle(*args, **options)

    def find_files(self, root: str) -> list[Any]:
        files = super().find_files(root)
        base = Path(root).resolve()
        for translatable in files:
            locale = catalogue_for(translatable.dirpath, base)
            if locale is not None:
                translatable.locale_dir = str(locale)
        return files

    def write_po_file(self, potfile: str, locale: str) -> None:
        super().write_po_file(potfile, locale)
        pofile = Path(potfile).parent / locale / "LC_MESSAGES" / f"{self.domain}.po"
        pofile.write_text(
            CREATION_DATE.sub("", pofile.read_text(encoding="utf-8")), encoding="utf-8"
        )
