"""Write the Chinese from zh_hans.py into learning's django.po.

    cd learning && ln -s ../templates/learning _tpl \
      && ../.venv/bin/django-admin makemessages -l zh_Hans --symlinks; rm _tpl
    ../.venv/bin/python locale_src/fill_catalogue.py
    ../.venv/bin/django-admin compilemessages -l zh_Hans

Fails listing any message that has no Chinese, so none slips through.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).parent))
from zh_hans import ZH, ZH_PLURAL  # noqa: E402

PO = Path(__file__).resolve().parent.parent / "locale/zh_Hans/LC_MESSAGES/django.po"


def main() -> None:
    po = polib.pofile(str(PO))
    missing = []
    for entry in po:
        if entry.obsolete:
            continue
        entry.flags = [f for f in entry.flags if f != "fuzzy"]
        if entry.msgid_plural:
            text = ZH_PLURAL.get(entry.msgid)
            if text is None:
                missing.append(entry.msgid)
                continue
            entry.msgstr_plural = {0: text}
        elif entry.msgid in ZH:
            entry.msgstr = ZH[entry.msgid]
        else:
            missing.append(entry.msgid)
    po.metadata["Plural-Forms"] = "nplurals=1; plural=0;"
    po.metadata["Language"] = "zh_Hans"
    po.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    po.save()
    if missing:
        sys.exit("no Chinese for:\n" + "\n".join(missing))


if __name__ == "__main__":
    main()
