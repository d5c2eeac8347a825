"""Import a match file (.mat) as a user's match or games, reviewed like any other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import Side
from games.engine.matfile import MAX_FILE_BYTES, MatFileError, MatProblem
from games.matfiles import describe_mat_error
from games.services import decode_upload, import_match_file


class Command(BaseCommand):
    help = "Import FILE (.mat) as the games of --user NAME; nothing is stored on any error."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--user", required=True, help="the username who owns the games")
        parser.add_argument(
            "--side",
            choices=["left", "right", "neither"],
            default="neither",
            help="the user's column in the file: its games then count as theirs "
            "(default: neither, a study kept out of their counts)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        owner = get_user_model().objects.filter(username=options["user"]).first()
        if owner is None:
            raise CommandError(f"no user {options['user']!r}")
        side = {"left": Side.LIGHT, "right": Side.DARK}.get(options["side"])
        path: Path = options["file"]
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror}") from error
        try:
            if len(data) > MAX_FILE_BYTES:
                raise MatFileError(MatProblem.TOO_LARGE, params={"limit": MAX_FILE_BYTES})
            imported = import_match_file(owner, decode_upload(data), side)
        except MatFileError as error:
            raise CommandError(f"{path}: {describe_mat_error(error)}") from error
        where = f"match {imported.match.pk}" if imported.match else "money games"
        ids = ", ".join(str(game.pk) for game in imported.games)
        self.stdout.write(f"imported {len(imported.games)} games as {where}: {ids}")
        if imported.left_out:
            self.stdout.write(f"left out {imported.left_out} unfinished game")
