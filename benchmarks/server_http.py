"""What the server benchmarks share: a free loopback port, ``obelisk serve`` started as people run it, and
one JSON call to its API.

The benchmarks run as scripts (their folder is on ``sys.path``): ``from server_http import ...``.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(port: int, db_url: str, *options: str) -> subprocess.Popen[bytes]:
    """``obelisk serve`` on ``port`` over ``db_url`` with ``options`` (its command-line flags), from this tree."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [sys.executable, "-c", "from obelisk.cli import main; main()", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", db_url, *options]
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)


def request(port: int, address: str, method: str, path: str, body: Any = None, token: str | None = None, *,
            timeout: float = 30.0, refused_ok: bool = False) -> Any:
    """One JSON call from ``address`` (a loopback address), over a connection of its own; its answer.

    A refusal (4xx, 5xx) raises ``RuntimeError`` with the server's error, unless ``refused_ok``.
    """
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(address, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        answer = json.loads(response.read() or b"null")
    finally:
        connection.close()
    if response.status >= 400 and not refused_ok:
        raise RuntimeError(f"{method} {path}: {response.status} {answer}")
    return answer


def wait_until_up(port: int, server: subprocess.Popen[bytes], limit: float = 60.0) -> None:
    """Wait until the server answers (``SystemExit`` if it exits or stays silent ``limit`` seconds)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            request(port, "127.0.0.1", "GET", "/api/games")
            return
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not answer within {limit:.0f} seconds")
