"""Where a daphne process's CPU goes during bench/live.py's load (``--profile S``).

py-spy (``pip install py-spy``) samples the first daphne for S seconds once
every socket is open, only the thread holding the GIL (``--gil``: CPU, not
waits). Each sample is put in the first part of a command whose function is
on its stack, innermost first, so "session check" inside "command" counts
as the session check.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# (part, a frame's function and file as py-spy writes them), innermost first.
PARTS = [
    ("session check", "session_expiry (games/live/sessions.py"),
    ("state built", "build_state (games/live/state.py"),
    ("row read (SELECT, FOR UPDATE when locked)", "game (games/services/store.py"),
    ("row write (UPDATE)", "save (games/services/rows.py"),
    ("row write (UPDATE)", "save_at (games/services/rows.py"),
    ("broadcast sent (Redis PUBLISH)", "group_send (channels_redis"),
    ("broadcast received", "_do_receiving (channels_redis"),
    ("broadcast received", "game_state (games/live/consumers.py"),
    ("command, the rest (transaction, engine)", "run_command (games/live/commands.py"),
    ("socket opening, the rest (game row, language)", "_opening_sync (games/live/consumers.py"),
    ("groups joined (Redis SUBSCRIBE)", "group_add (channels_redis"),
    ("groups joined (Redis SUBSCRIBE)", "new_channel (channels_redis"),
    ("handshake (autobahn, daphne)", "processHandshake (autobahn"),
    ("handshake (autobahn, daphne)", "onConnect (daphne"),
    ("pool connection, thread", "_call (runtime/dbthreads.py"),
    ("socket send", "_send_json (games/live/consumers.py"),
    ("thread hop", "run (runtime/dbthreads.py"),
    ("command parsed, checked", "receive (games/live/consumers.py"),
    ("echo socket", "EchoConsumer"),
    ("socket frames in (autobahn)", "dataReceived (autobahn"),
    ("socket frames out (twisted)", "doWrite (twisted"),
    ("channels' consumer plumbing", "(channels/"),
]


def start(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("  (no py-spy: pip install py-spy for --profile)")
        return None
    command = [spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "100", "--gil"]
    command += ["-f", "raw", "-o", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def parts(path: Path) -> tuple[int, Counter[str]]:
    total, found = 0, Counter[str]()
    for line in path.read_text().splitlines():
        stack, _sep, count = line.rpartition(" ")
        if not stack:
            continue
        n = int(count)
        total += n
        frames = stack.split(";")[::-1]
        found[next((p for f in frames for p, key in PARTS if key in f), "other (event loop)")] += n
    return total, found


def report(path: Path, daphne_ms: float, per: str = "command") -> None:
    """Each part's share of the process's samples, and so its ms ``per`` command
    (or reconnecting socket: ``daphne_ms`` is the daphne's CPU a ``per``)."""
    if not path.exists():
        print("  (no profile written)")
        return
    total, found = parts(path)
    print(f"  profile of one daphne ({total} samples while it held the GIL), per {per}:")
    for part, n in found.most_common():
        share = n / total
        print(f"    {part:<42} {100 * share:5.1f} %  {share * daphne_ms:5.2f} ms")
