"""Recompute every roll of a finished game from its seeds (docs/dice.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.dice_proof import proof_rolls, revealed
from games.engine.cli import verify_lines
from games.models import DiceSource, Game


class Command(BaseCommand):
    help = "Check game ID's dice against its commitment and seeds, roll by roll."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int, help="the game's id")

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(pk=options["id"]).first()
        if game is None:
            raise CommandError(f"no game {options['id']}")
        if game.dice_source == DiceSource.BEFORE:
            raise CommandError(f"game {game.pk} was started before dice commitments")
        if game.dice_source == DiceSource.IMPORTED:
            raise CommandError(f"game {game.pk} was imported: no dice commitment")
        if not revealed(game):
            raise CommandError(f"game {game.pk} is not over: its server seed is still secret")
        # Every roll of the proof, the last one drawn and never played too.
        listed = proof_rolls(game)
        rolls = [f"{r.roll}={r.dice[0]}{r.dice[1]}" for r in listed]
        ok, lines = verify_lines(game.server_seed, game.person_seed, game.dice_commitment, rolls)
        if listed and listed[-1].what == "unplayed":
            lines.append(f"roll {listed[-1].roll} was drawn and never played: the game ended on it")
        self.stdout.write("\n".join(lines))
        if not ok:
            raise CommandError(f"game {game.pk}: not every roll matches its seeds")
