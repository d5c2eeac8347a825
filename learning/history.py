"""The match history: the user's games, filtered, with totals.

The user's own record is their games played on the site and the imported
ones whose side they named (``GameQuerySet.own_record``); an imported file
with no side named is a study object, listed apart (``studies_of``, the
filter's "Imported for study") and in no total or graph of theirs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Count, F, FloatField, Q, QuerySet, Sum
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from ai_worker.grading import PR_BANDS, PR_WORST_BAND
from games.models import Game, Status
from games.tiers import tier_choices
from learning.words.labels import PR_LABELS

MINE, IMPORTED = "", "imported"


class HistoryFilter(forms.Form):
    """The filters of the history page (all optional, read from GET)."""

    source = forms.ChoiceField(
        label=_("Games"),
        required=False,
        choices=[(MINE, _("My games")), (IMPORTED, _("Imported for study"))],
    )

    result = forms.ChoiceField(
        label=_("Result"),
        required=False,
        choices=[("", _("Any")), ("won", _("Won")), ("lost", _("Lost"))],
    )
    tier = forms.ChoiceField(
        label=_("Tier"), required=False, choices=[("", _("Any")), *tier_choices()]
    )
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("Any")), ("finished", _("Finished")), ("unfinished", _("Unfinished"))],
    )
    band = forms.ChoiceField(
        label=_("PR band"),
        required=False,
        choices=[("", _("Any")), *((key, PR_LABELS[key]) for key in PR_LABELS)],
    )
    sort = forms.ChoiceField(
        label=_("Order"),
        required=False,
        choices=[("", _("Newest first")), ("pr", _("Best PR first")), ("-pr", _("Worst PR first"))],
    )
    tutor = forms.ChoiceField(
        label=_("Tutor mode"),
        required=False,
        choices=[("", _("Any")), ("on", _("Played with the tutor")), ("off", _("Without"))],
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def studies(self) -> bool:
        """The filter asks for the imported studies, not the user's own games."""
        return self.is_valid() and self.cleaned_data["source"] == IMPORTED

    def apply(self, games: QuerySet[Game]) -> QuerySet[Game]:
        if not self.is_valid():
            return games
        data = self.cleaned_data
        if data["result"] == "won":
            games = games.filter(status=Status.FINISHED, winner="light")
        elif data["result"] == "lost":
            games = games.filter(status=Status.FINISHED, winner="dark")
        if data["tier"]:
            games = games.filter(tier=data["tier"])
        if data["status"] == "finished":
            games = games.filter(status=Status.FINISHED)
        elif data["status"] == "unfinished":
            games = games.filter(status__in=(Status.OPENING, Status.PLAYING))
        if data["tutor"]:
            games = games.filter(tutored=data["tutor"] == "on")
        if data["date_from"]:
            games = games.filter(created_at__date__gte=data["date_from"])
        if data["date_to"]:
            games = games.filter(created_at__date__lte=data["date_to"])
        if data["band"]:
            low, high = band_range(data["band"])
            within = {"pr__gt": low, **({} if high is None else {"pr__lte": high})}
            games = with_pr(games).filter(**within)
        if data["sort"]:
            order = (
                F("pr").asc(nulls_last=True)
                if data["sort"] == "pr"
                else F("pr").desc(nulls_last=True)
            )
            games = with_pr(games).order_by(order, "-created_at", "-pk")
        return games


def band_range(band: str) -> tuple[float, float | None]:
    """The PRs (low, high] a band covers (``ai_worker.grading.PR_BANDS``); high None: no end."""
    low = -1.0
    for bound, name in PR_BANDS:
        if name == band:
            return low, bound
        low = bound
    if band == PR_WORST_BAND:
        return low, None
    raise ValueError(band)


def with_pr(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` with ``pr``: the person's overall PR its review stored (null: none)."""
    stored = KeyTextTransform(
        "overall", KeyTransform("pr", KeyTransform("light", "analysis__summary"))
    )
    return games.annotate(pr=Cast(stored, FloatField()))


def games_of(user: Any) -> QuerySet[Game]:
    """The user's own games, newest first, with turn counts and analysis joined."""
    return _listed(Game.objects.filter(owner=user).own_record())


def studies_of(user: Any) -> QuerySet[Game]:
    """The user's imported games with no side named, newest first, as ``games_of``."""
    return _listed(Game.objects.filter(owner=user).studies())


def _listed(games: QuerySet[Game]) -> QuerySet[Game]:
    return (
        games.select_related("analysis", "match", "imported_from")
        .annotate(turn_count=Count("turns"))
        .order_by("-created_at", "-pk")
    )


def totals(games: QuerySet[Game]) -> dict[str, int]:
    """Games, wins, losses, points won and lost over ``games``."""
    finished = Q(status=Status.FINISHED)
    row = games.order_by().aggregate(
        games=Count("pk", distinct=True),
        wins=Count("pk", filter=finished & Q(winner="light"), distinct=True),
        losses=Count("pk", filter=finished & Q(winner="dark"), distinct=True),
    )
    points = {
        winner: Game.objects.filter(
            pk__in=games.values("pk"), status=Status.FINISHED, winner=winner
        ).aggregate(n=Sum("points"))["n"]
        or 0
        for winner in ("light", "dark")
    }
    return {
        **{k: v or 0 for k, v in row.items()},
        "points_won": points["light"],
        "points_lost": points["dark"],
    }
