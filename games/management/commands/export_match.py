"""Write a match, or one game, as a match file (.mat) to standard output."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.matfiles import export_text, exportable
from games.models import Game


class Command(BaseCommand):
    help = "Write match ID (or, with --game, game ID) as a .mat file to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the match's id (a game's with --game)")
        parser.add_argument("--game", action="store_true", help="ID is a game's id")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.select_related("match", "owner")
        if options["game"]:
            game = games.filter(pk=options["id"]).first()
        else:
            game = games.filter(match_id=options["id"]).order_by("match_game").first()
        if game is None:
            what = "game" if options["game"] else "match"
            raise CommandError(f"no {what} {options['id']}")
        if not exportable(game):
            raise CommandError(f"game {game.pk} was set up from a position: no match file holds it")
        self.stdout.write(export_text(game), ending="")
