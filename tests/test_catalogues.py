"""Every zh_Hans catalogue of the site: complete, compiled, in step with the
code, the site's words winning over Django's, and Chinese written natively."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import polib
import pytest
from django.utils import translation

from tests.chinese import chinese_mistakes
from tests.conftest import require_service

ROOT = Path(__file__).resolve().parents[1]
PO = "zh_Hans/LC_MESSAGES/django.po"
CATALOGUES = sorted([ROOT / "locale" / PO, *ROOT.glob(f"*/locale/{PO}")])


def sources() -> list[str]:
    """What makemessages reads: the site's apps, config/, templates/, locale/
    (and runtime/, which the apps import: it has no words of its own)."""
    from django.conf import settings

    apps = [name for name in settings.INSTALLED_APPS if (ROOT / name / "apps.py").is_file()]
    return [*apps, "config", "runtime", "templates", "locale"]


def catalogue_id(path: Path) -> str:
    return path.relative_to(ROOT).parts[0]


per_catalogue = pytest.mark.parametrize("po_path", CATALOGUES, ids=catalogue_id)


def test_every_catalogue_is_found() -> None:
    assert {catalogue_id(p) for p in CATALOGUES} >= {
        "locale",
        "accounts",
        "games",
        "ai_worker",
        "learning",
    }


def texts(entry: polib.POEntry) -> list[str]:
    return list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]


@per_catalogue
def test_every_message_is_translated(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    assert [e.msgid for e in po if not e.obsolete and not all(texts(e))] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []


# --- Chinese as a Chinese reader writes it --------------------------------


@per_catalogue
def test_chinese_punctuation_and_spacing(po_path: Path) -> None:
    found = [
        (entry.msgid, text, mistakes)
        for entry in polib.pofile(str(po_path))
        for text in texts(entry)
        if (mistakes := chinese_mistakes(text))
    ]
    assert found == []


CHINESE_TEMPLATES = sorted((ROOT / "templates").glob("**/*.zh-hans.html"))


def test_the_chinese_templates_are_found() -> None:
    assert {p.name for p in CHINESE_TEMPLATES} >= {
        "help_rules.zh-hans.html",
        "help_faq.zh-hans.html",
    }


@pytest.mark.parametrize("path", CHINESE_TEMPLATES, ids=lambda p: p.name)
def test_chinese_templates_punctuation_and_spacing(path: Path) -> None:
    """The prose written in Chinese (per-language templates), text between tags."""
    text = re.sub(r"{%.*?%}|{{.*?}}", "", path.read_text(encoding="utf-8"), flags=re.S)
    chunks = (" ".join(chunk.split()) for chunk in re.split(r"<[^>]+>", text))
    assert [(c, m) for c in chunks if (m := chinese_mistakes(c))] == []


# --- compiled, and in step with the code ----------------------------------


def _msgfmt() -> str:
    path = shutil.which("msgfmt")
    require_service("gettext (msgfmt)", lambda: path is not None)
    assert path is not None
    return path


@per_catalogue
def test_the_compiled_catalogue_is_the_po_compiled(po_path: Path, tmp_path: Path) -> None:
    """compilemessages runs ``msgfmt --check-format``; the committed .mo is its output."""
    fresh = tmp_path / "django.mo"
    subprocess.run([_msgfmt(), "--check-format", "-o", fresh, po_path], check=True)
    assert po_path.with_suffix(".mo").read_bytes() == fresh.read_bytes(), (
        "stale .mo: run ./dev messages"
    )


def keys(po_path: Path) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in polib.pofile(str(po_path)) if not e.obsolete}


@pytest.mark.slow
def test_makemessages_finds_nothing_new_or_stale(tmp_path: Path) -> None:
    """Every translatable string in the code is in its catalogue, and every
    entry of a catalogue is still used (run ./dev messages to see the change)."""
    _msgfmt()
    for name in sources():
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "-v", "0"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    changes = {}
    for po_path in CATALOGUES:
        before = keys(po_path)
        after = keys(tmp_path / po_path.relative_to(ROOT))
        if before != after:
            changes[catalogue_id(po_path)] = {"new": after - before, "stale": before - after}
    assert changes == {}


# --- the site's words --------------------------------------------------------


def test_one_message_has_one_translation_across_the_site() -> None:
    seen: dict[tuple[str | None, str], set[str]] = defaultdict(set)
    for po_path in CATALOGUES:
        for entry in polib.pofile(str(po_path)):
            seen[entry.msgctxt, entry.msgid].update(texts(entry))
    assert {key: found for key, found in seen.items() if len(found) > 1} == {}


def shown(entry: polib.POEntry) -> str:
    """What the running site shows for ``entry`` in the active language."""
    if entry.msgid_plural:
        if entry.msgctxt:
            return translation.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, 1)
        return translation.ngettext(entry.msgid, entry.msgid_plural, 1)
    if entry.msgctxt:
        return translation.pgettext(entry.msgctxt, entry.msgid)
    return translation.gettext(entry.msgid)


@per_catalogue
def test_the_sites_words_win_over_djangos(po_path: Path) -> None:
    """Our translation is the one shown, not a bundled catalogue's
    (admin's 过滤器 for our 筛选, auth's 电子邮件 for our 电子邮箱)."""
    with translation.override("zh-hans"):
        overridden = {
            entry.msgid: (shown(entry), texts(entry)[0])
            for entry in polib.pofile(str(po_path))
            if shown(entry) != texts(entry)[0]
        }
        assert translation.gettext("Filter") == "筛选"
    assert overridden == {}
