"""A real nginx in front of bench/live.py's daphne processes, from the site's example.

The upstream, the ``map`` and the ``location /ws/`` block are taken from
``site/nginx.conf.example`` as they are; only what a bench on one machine
must change is written here: the upstream's ports, a plain-HTTP listener on
a free port, paths under the run's temporary directory.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = "site/nginx.conf.example"


def example_blocks() -> tuple[str, str]:
    """The example's ``map`` block and its ``location /ws/`` block, verbatim."""
    text = (ROOT / SOURCE).read_text()
    mapping = re.search(r"^map .*?^}\n", text, re.S | re.M)
    location = re.search(r"^    location /ws/ \{.*?^    }\n", text, re.S | re.M)
    if mapping is None or location is None:
        raise RuntimeError(f"{SOURCE}: no map or location /ws/ block")
    return mapping.group(0), location.group(0)


def config(ports: list[int], listen: int, var_dir: Path) -> str:
    mapping, location = example_blocks()
    upstream = "".join(f"    server 127.0.0.1:{p};\n" for p in ports)
    temp = "".join(
        f"    {name}_temp_path {var_dir}/nginx-{name};\n"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # The example says Host $host (port 443 in production); here the page's
    # origin has a port, which $http_host keeps.
    location = location.replace("proxy_set_header Host $host;", "proxy_set_header Host $http_host;")
    return (
        f"daemon off;\nworker_processes 1;\nworker_rlimit_nofile 20000;\n"
        f"pid {var_dir}/nginx.pid;\nerror_log {var_dir}/nginx-error.log warn;\n"
        f"events {{\n    worker_connections 10000;\n}}\n"
        f"http {{\n    access_log off;\n{temp}"
        f"upstream shuanglu {{\n{upstream}}}\n\n{mapping}\n"
        f"server {{\n    listen 127.0.0.1:{listen};\n{location}}}\n}}\n"
    )


class Nginx:
    def __init__(self, ports: list[int], listen: int, var_dir: Path) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        path = var_dir / "nginx.conf"
        path.write_text(config(ports, listen, var_dir))
        self.log = open(var_dir / "nginx.log", "wb")  # noqa: SIM115 - closed in stop
        self.process = subprocess.Popen(
            [binary, "-p", str(var_dir), "-c", str(path)], stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((var_dir / "nginx-error.log").read_text(errors="replace"))
            try:
                socket.create_connection(("127.0.0.1", listen), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()
