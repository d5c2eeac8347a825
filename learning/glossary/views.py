"""The glossary page and its entries as JSON (for the pop-up a linked term
opens on any page). Thin: the entries are ``terms``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from learning.glossary.marks import glossary_url, marked
from learning.glossary.terms import TERMS


def entries() -> list[dict[str, Any]]:
    """Every entry in the language of the moment."""
    return [
        {
            "key": term.key,
            "name": str(term.name),
            "sentence": marked(term.sentence),
            "diagram": term.board.to_json(),
            "url": glossary_url(term.key),
        }
        for term in TERMS
    ]


@require_GET
def glossary_page(request: HttpRequest) -> HttpResponse:
    rows = entries()
    diagrams = {row["key"]: row["diagram"] for row in rows}
    context = {"page": "glossary", "terms": rows, "diagrams": diagrams}
    return render(request, "learning/help_glossary.html", context)


@require_GET
def glossary_terms(request: HttpRequest) -> JsonResponse:
    words = {"all": _("All terms"), "close": _("Close")}
    response = JsonResponse({"terms": {row["key"]: row for row in entries()}, "words": words})
    response["Cache-Control"] = "max-age=3600"
    response["Vary"] = "Cookie, Accept-Language"
    return response
