"""The start form's dice (docs/dice.md, "Before the game"): the commitment a
page shows, which its New game sends back, and a refused start's choices kept
for the page it returns to.

A visitor with no account yet keeps their next server seed in the
server-side session; the start that makes their guest account hands it over
(``services.keep_next_seed``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games import services
from games.engine.fairdice import commitment

# The session key of a visitor's next server seed.
VISITOR_SEED = "next_dice_seed"
# The session key of a refused start's fields, shown again by the next form.
KEPT_FORM = "start_form_kept"
KEPT_FIELDS = ("tier", "kind", "length", "dice_seed")


def next_commitment_for(request: HttpRequest) -> str:
    """The commitment of the next game a page of ``request`` starts, drawn now
    if there is none: the account's (one at a time) or the visitor's session's."""
    if request.user.is_authenticated:
        return services.next_commitment(request.user)
    seed = request.session.get(VISITOR_SEED)
    if not seed:
        seed = request.session[VISITOR_SEED] = services.new_server_seed()
    return commitment(bytes.fromhex(seed))


def keep_form(request: HttpRequest) -> None:
    """A refused start: its choices, the person's seed included, wait for the form."""
    request.session[KEPT_FORM] = {
        name: str(request.POST.get(name, ""))[:64] for name in KEPT_FIELDS
    }


def kept_form(request: HttpRequest) -> dict[str, Any]:
    """The refused start's choices (once), or {}."""
    kept = request.session.pop(KEPT_FORM, None)
    return kept if isinstance(kept, dict) else {}
