"""Entry point for ``python -m games.engine``."""

from __future__ import annotations

import sys

from games.engine.cli import main

sys.exit(main())
