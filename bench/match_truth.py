"""The site's PR, cube decisions and luck against GNU Backgammon's on its own games.

    nice -n 10 .venv/bin/python bench/match_truth.py [--files a,b] [--reuse-site]
    nice -n 10 .venv/bin/python bench/match_truth.py --speed [--against 8275dea]

GNU Backgammon plays itself (``bench/_gnubg_match.py``: Debian's
``/usr/games/gnubg -t``, a separate program), seeded, each player with its
own noise from 0 (at 2-ply: an error-free player) to 0.12, in money sessions
and matches of 3 to 11 points (``PLANS``), and analyses the files at 2-ply.
The same files are imported through the history page's service
(``games.services.import_match_file``, as studies) and reviewed by the
site's own code (``learning.review.game.run_analysis``, zero set-up:
SQLite in a temporary ``VAR_DIR``, every search in this process). Printed
per side of each game and overall, against the issue's bounds: on sides
whose GNU Backgammon PR is at most 30 the mean |PR difference| (money games
≤ 1.5, matches ≤ 2.0), Pearson's r over all sides (≥ 0.99), the share of
sides whose counted cube decisions are equal (≥ 90%), and whether the luck
has GNU Backgammon's sign on every side where its |luck| ≥ 0.1 (EMG). The
load average is printed before and after.

``--speed``: the review of a 30-turn game (the match game of these files
closest to 30 turns with the cube in play), timed here and in a worktree of ``--against`` (main's
8275dea, made if missing), each in a fresh process (``bench/_review_clock.py``),
alternately, ``--rounds`` times; the ratio of the medians is the figure
(the issue's bound: ≤ 1.3).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._gnubg_match import OUTPUT, Plan, Player, SideFigures, analyse, play  # noqa: E402

G2 = 2  # an error-free player searches at 2-ply
PLANS = [
    Plan("money-a", 0, Player("ann", 0.0, G2), Player("ben", 0.08), seed=101, games=3),
    Plan("money-b", 0, Player("cai", 0.04), Player("dan", 0.12), seed=102, games=3),
    Plan("money-c", 0, Player("eve", 0.02), Player("fay", 0.06), seed=103, games=2),
    Plan("match-3", 3, Player("gus", 0.02), Player("hal", 0.10), seed=203),
    Plan("match-5", 5, Player("ian", 0.0, G2), Player("jon", 0.06), seed=205),
    Plan("match-7", 7, Player("kay", 0.08), Player("lee", 0.12), seed=207),
    Plan("match-9", 9, Player("max", 0.04), Player("ned", 0.0, G2), seed=209),
    Plan("match-11", 11, Player("oli", 0.06), Player("pat", 0.02), seed=211),
]
MONEY_BOUND, MATCH_BOUND, R_BOUND, CUBE_BOUND, LUCK_FLOOR = 1.5, 2.0, 0.99, 0.9, 0.1
PR_CEILING = 30.0


def site_figures(texts: dict[str, str]) -> dict[str, list[list[dict[str, Any]]]]:
    """Each file's games reviewed by the site: per game, (left, right) figures."""
    for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=tempfile.mkdtemp(prefix="match-truth-"),
        ENGINE_PROCESSES="0",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from games.services import import_match_file
    from games.signals import game_finished
    from learning.models import GameAnalysis
    from learning.review.game import run_analysis

    game_finished.disconnect(dispatch_uid="learning.queue_review")  # reviewed here, in order
    owner = User.objects.create_user(username="match-truth")
    found: dict[str, Any] = {"_var": os.environ["VAR_DIR"]}  # the review's database, kept
    for name, text in texts.items():
        games: list[list[dict[str, Any]]] = []
        for game in import_match_file(owner, text).games:
            started = time.perf_counter()
            run_analysis(game.pk)
            summary = GameAnalysis.objects.get(game=game).summary
            print(f"  reviewed {name} game {len(games) + 1}: {time.perf_counter() - started:.0f} s")
            games.append([_side(summary[side]) for side in ("light", "dark")])
        found[name] = games
    return found


def _side(summary: dict[str, Any]) -> dict[str, Any]:
    pr = summary["pr"]
    return {
        "pr": pr["overall"],
        "cube": pr["cube_decisions"],
        "decisions": pr["decisions"],
        "luck": summary["luck"],
        "luck_mwc": summary.get("luck_mwc"),
    }


def pearson(xs: list[float], ys: list[float]) -> float:
    return statistics.correlation(xs, ys) if len(xs) > 2 else float("nan")


def compare(plans: list[Plan], texts: dict[str, str], site: dict[str, Any]) -> bool:
    """Print every side and the overall figures; True when every bound holds."""
    rows = []
    print(
        f"{'file':10} {'g':>2} {'player':6} {'gnubg PR':>8} {'site PR':>8} {'diff':>6} "
        f"{'cube g/s':>8} {'luck g':>7} {'luck s':>7} {'mwc g':>7} {'mwc s':>7}"
    )
    for plan in plans:
        theirs = analyse(plan, texts[plan.name])
        for number, (g_pair, s_pair) in enumerate(zip(theirs, site[plan.name], strict=False), 1):
            for player, g, s in zip((plan.left, plan.right), g_pair, s_pair, strict=True):
                rows.append((plan, g, s))
                print(_row(plan.name, number, player.name, g, s))
    return _overall(rows)


def _fmt(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def _row(file: str, number: int, name: str, g: SideFigures, s: dict[str, Any]) -> str:
    diff = None if g.pr is None or s["pr"] is None else s["pr"] - g.pr
    return (
        f"{file:10} {number:>2} {name:6} {_fmt(g.pr, '8.2f')} {_fmt(s['pr'], '8.2f')} "
        f"{_fmt(diff, '+6.2f')} {g.close_cube:>4}/{s['cube']:<3} {g.luck:+7.3f} "
        f"{s['luck']:+7.3f} {_fmt(g.luck_mwc, '+7.3f')} {_fmt(s['luck_mwc'], '+7.3f')}"
    )


def _overall(rows: list[tuple[Plan, SideFigures, dict[str, Any]]]) -> bool:
    both = [(p, g, s) for p, g, s in rows if g.pr is not None and s["pr"] is not None]
    ok = True
    for label, money, bound in (("money", True, MONEY_BOUND), ("match", False, MATCH_BOUND)):
        mine = [(float(g.pr or 0.0), s["pr"]) for p, g, s in both if (p.length == 0) == money]
        near = [abs(ours - theirs) for theirs, ours in mine if theirs <= PR_CEILING]
        everyone = [abs(ours - theirs) for theirs, ours in mine]
        mean = statistics.mean(near) if near else float("nan")
        ok &= mean <= bound
        print(
            f"{label}: mean |PR difference| on {len(near)} sides with gnubg PR ≤ "
            f"{PR_CEILING:.0f}: {mean:.2f} (bound {bound}); on all {len(everyone)}: "
            f"{statistics.mean(everyone) if everyone else float('nan'):.2f}"
        )
    r = pearson([g.pr for _p, g, _s in both], [s["pr"] for _p, _g, s in both])  # type: ignore[misc]
    equal = sum(g.close_cube == s["cube"] for _p, g, s in rows) / len(rows)
    lucky = [(g, s) for _p, g, s in rows if abs(g.luck) >= LUCK_FLOOR]
    signs = sum((g.luck > 0) == (s["luck"] > 0) for g, s in lucky)
    ok &= r >= R_BOUND and equal >= CUBE_BOUND and signs == len(lucky)
    print(f"Pearson r over {len(both)} sides: {r:.4f} (bound {R_BOUND})")
    print(
        f"cube decisions counted equal: {equal:.1%} of {len(rows)} sides (bound {CUBE_BOUND:.0%})"
    )
    print(f"luck of gnubg's sign: {signs} of {len(lucky)} sides with |gnubg luck| ≥ {LUCK_FLOOR}")
    return ok


def thirty_turns(texts: dict[str, str]) -> tuple[str, int]:
    """(file name, game number) of the match game closest to 30 turns with
    the cube in play (not the Crawford game, nor one after it): its review
    judges cube decisions too."""
    from games.engine.matfile import parse_mat
    from games.engine.matreplay import replay_match

    best: tuple[int, str, int] | None = None
    for name, text in texts.items():
        record = parse_mat(text)
        if not record.length:
            continue
        for number, game in enumerate(replay_match(record).games, 1):
            if game.end is None or game.match.crawford or game.match.post_crawford:
                continue
            turns = len([t for t in game.turns if t.play is not None or t.action.dice])
            if best is None or abs(turns - 30) < abs(best[0] - 30):
                best = (turns, name, number)
    assert best is not None
    return best[1], best[2]


def speed(texts: dict[str, str], against: str, rounds: int, base_dir: Path) -> None:
    """Time the review of one 30-turn game here and at ``against``, alternately."""
    name, number = thirty_turns(texts)
    if not base_dir.exists():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base_dir), against],
            check=True,
            capture_output=True,
        )
    mat = OUTPUT / f"speed-{name}.mat"
    mat.write_text(texts[name])
    clock = [
        sys.executable,
        str(ROOT / "bench" / "_review_clock.py"),
        "--mat",
        str(mat),
        "--game",
        str(number),
    ]
    times: dict[str, list[float]] = {"here": [], against: []}
    print(f"the review of {name} game {number}; load before {os.getloadavg()}")
    for _ in range(rounds):
        for label, tree in (("here", ROOT), (against, base_dir)):
            done = subprocess.run(
                [*clock, "--root", str(tree)], capture_output=True, text=True, check=True
            )
            found = json.loads(done.stdout.strip().splitlines()[-1])
            times[label].append(found["seconds"])
            print(
                f"  {label:8} {found['seconds']:7.1f} s  ({found['turns']} turns, "
                f"{found['cube_actions']} cube actions; load {os.getloadavg()[0]:.1f})"
            )
    ratio = statistics.median(times["here"]) / statistics.median(times[against])
    print(
        f"median here {statistics.median(times['here']):.1f} s, at {against} "
        f"{statistics.median(times[against]):.1f} s: ratio {ratio:.2f} (bound 1.3); "
        f"load after {os.getloadavg()}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default="", help="only these plans, by name")
    parser.add_argument("--reuse-site", action="store_true", help="the last run's site figures")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--against", default="8275dea")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--base-dir", type=Path, default=None)
    parser.add_argument("--disputes", action="store_true", help="roll out item 6's disputes")
    args = parser.parse_args()
    plans = [p for p in PLANS if not args.files or p.name in args.files.split(",")]
    print(f"load average {os.getloadavg()}")
    texts = {plan.name: play(plan) for plan in plans}
    if args.speed:
        base = args.base_dir or Path(tempfile.gettempdir()) / f"shuanglu-{args.against}"
        speed(texts, args.against, args.rounds, base)
        return 0
    stored = OUTPUT / "site.json"
    if args.disputes:  # the last run's review, its error-free players' disputed decisions
        from bench._disputes import disputes, report

        report(disputes(Path(json.loads(stored.read_text())["_var"]), plans))
        return 0
    if args.reuse_site and stored.exists():
        site = json.loads(stored.read_text())
    else:
        site = site_figures(texts)
        stored.write_text(json.dumps(site))
    ok = compare(plans, texts, site)
    print(f"load average {os.getloadavg()}; {'all bounds hold' if ok else 'a bound is missed'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
