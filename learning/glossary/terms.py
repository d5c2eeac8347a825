"""Every term of the glossary, in the order the glossary page lists them."""

from __future__ import annotations

from learning.glossary.shapes import Term
from learning.glossary.terms_cube import CUBE
from learning.glossary.terms_moving import MOVING
from learning.glossary.terms_play import PLAY

TERMS: tuple[Term, ...] = (*MOVING, *PLAY, *CUBE)
BY_KEY: dict[str, Term] = {term.key: term for term in TERMS}
