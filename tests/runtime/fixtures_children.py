"""What the lanes' child processes run in the tests: module-level functions
of a module that imports only the standard library, so a child that
unpickles one loads nothing else."""

from __future__ import annotations

import os
import time
from pathlib import Path


def pid_then_sleep(path: str, seconds: float) -> str:
    """Write this process's pid to ``path``, sleep, say where it ran."""
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)
    return "slept"


def sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def refuse(why: str) -> None:
    raise ValueError(why)
