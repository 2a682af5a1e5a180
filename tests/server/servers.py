"""Running ``obelisk serve`` as a real process on a free local port, for the crash and scale-out tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``obelisk serve`` on 127.0.0.1 with bots moving at once; stopped (or killed) by the test."""

    def __init__(self, db_url: str, port: int | None = None, command: list[str] | None = None,
                 cwd: Path | None = None) -> None:
        """``command`` runs another installation's ``obelisk`` (its own environment, this checkout not on
        the path); by default this checkout's, through this interpreter."""
        self.db_url = db_url
        self.port = port or free_port()
        self.command = command
        self.cwd = cwd
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.output = tempfile.TemporaryFile()

    def log(self) -> str:
        """What the server printed so far."""
        self.output.seek(0)
        return self.output.read().decode(errors="replace")

    def start(self) -> "Server":
        if self.command is None:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
            command = [sys.executable, "-c", "import sys; from obelisk.cli import main; sys.exit(main())"]
        else:
            env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
            command = self.command
        self.process = subprocess.Popen(
            [*command, "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", self.db_url, "--bot-delay", "0", "--bot-workers", "0"],
            cwd=self.cwd or ROOT, env=env, stdout=self.output, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server stopped: {self.log()}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop()
        raise AssertionError("the server did not start in time")

    def kill(self) -> None:
        """``kill -9``: no shutdown of any kind."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
