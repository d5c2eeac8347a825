"""The zh_Hans catalogues of the project and of accounts are complete and
their compiled .mo files match the .po sources."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = [
    ROOT / "locale/zh_Hans/LC_MESSAGES/django.po",
    ROOT / "accounts/locale/zh_Hans/LC_MESSAGES/django.po",
]


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda p: p.parts[-4])
def test_every_message_is_translated(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    assert po.untranslated_entries() == []
    assert po.fuzzy_entries() == []


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda p: p.parts[-4])
def test_the_compiled_catalogue_matches_its_source(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    mo = polib.mofile(str(po_path.with_suffix(".mo")))
    compiled = {entry.msgid: entry.msgstr for entry in mo}
    for entry in po.translated_entries():
        assert compiled.get(entry.msgid) == entry.msgstr, entry.msgid
