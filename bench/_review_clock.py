"""One imported game reviewed by the site's own code, timed: the child process
``bench/match_truth.py --speed`` runs once for each tree it compares.

    python bench/_review_clock.py --root TREE --mat FILE --game N

``TREE`` is a checkout of the site (this one, or another commit's worktree):
its packages are imported, its settings in zero set-up (SQLite under a
temporary ``VAR_DIR``, the in-memory cache, no broker, every search on this
process: ``ENGINE_PROCESSES=0``). The file is imported as a study through
``games.services.import_match_file`` (the history page's service) and its
game ``N`` (from 1) reviewed by ``learning.review.game.run_analysis``; the
migration and the networks' loading come before the clock starts. Prints one
JSON line: the seconds, the game's turns and cube decisions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--mat", type=Path, required=True)
    parser.add_argument("--game", type=int, required=True)
    args = parser.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root))
    var = tempfile.mkdtemp(prefix="review-clock-")
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=var, ENGINE_PROCESSES="0")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from ai_worker import evaluator
    from ai_worker.analysis import review_ply
    from games.models import Game
    from games.services import import_match_file
    from games.signals import game_finished
    from learning.review.game import run_analysis

    game_finished.disconnect(dispatch_uid="learning.queue_review")  # reviewed here, timed
    evaluator.warm_up(review_ply())
    owner = User.objects.create_user(username="clock")
    imported = import_match_file(owner, args.mat.read_text())
    game: Game = imported.games[args.game - 1]
    started = time.perf_counter()
    run_analysis(game.pk)
    seconds = time.perf_counter() - started
    found = {
        "root": str(root),
        "seconds": round(seconds, 2),
        "turns": game.turns.count(),
        "cube_actions": game.cube_actions.count(),
    }
    print(json.dumps(found))


if __name__ == "__main__":
    main()
