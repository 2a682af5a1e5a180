"""What spectators coming and going cost the table server: its CPU while N sockets join one table and leave.

Starts ``obelisk serve`` (bots off, a fresh SQLite file), seats two people at a table and then opens
``--sockets`` spectator websockets to it, one at a time, each from its own loopback address (so the
per-address socket cap does not stop them), each waiting for its first frame; then closes them one at a
time. It prints the server's CPU time over the joining and over the leaving (until the server is idle
again), and how many frames the spectators were sent beyond each one's first while they joined: none
when a spectator's arrival changes nothing anyone else sees, one for every socket already open at each
arrival (n(n-1)/2 in all) when every change is told to everyone.

    .venv/bin/python benchmarks/spectators.py                 # 400 spectators
    .venv/bin/python benchmarks/spectators.py --sockets 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_http import free_port, request, wait_until_up  # noqa: E402
from server_load import process_cpu, start_server  # noqa: E402


async def seated_table(port: int) -> str:
    """A two-person table with both seats claimed (so nothing moves while the spectators come and go)."""
    created = await asyncio.to_thread(request, port, "127.0.0.1", "POST", "/api/tables",
                                      {"game": "valley", "players": 2, "seats": [{"kind": "human"}] * 2})
    table_id = str(created["table"]["id"])
    for seat, invite in created["tokens"].items():
        await asyncio.to_thread(request, port, "127.0.0.1", "POST", f"/api/tables/{table_id}/claim",
                                {"token": invite, "name": f"P{seat}"})
    return table_id


async def watch(port: int, table_id: str, index: int) -> ClientConnection:
    """A spectator's socket from loopback address number ``index``, once its first frame came."""
    address = f"127.0.{index // 250 + 2}.{index % 250 + 2}"
    origin: Any = f"http://127.0.0.1:{port}"
    ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", origin=origin, local_addr=(address, 0),
                       max_size=None, max_queue=None, compression=None,
                       ping_interval=None)
    await ws.send(json.dumps({"type": "hello", "token": None}))
    while json.loads(await ws.recv())["type"] != "frame":
        pass
    return ws


async def frames_waiting(ws: ClientConnection) -> int:
    """How many frames ``ws`` has been sent and not read yet (read until a ping is answered)."""
    await ws.send(json.dumps({"type": "ping"}))
    count = 0
    while True:
        message: Any = json.loads(await ws.recv())
        if message["type"] == "pong":
            return count
        count += message["type"] == "frame"


async def settled(server: int) -> float:
    """The server's CPU time once it has stopped working (under 0.05 s more in a second): it takes the
    closings in after the clients are done."""
    used = process_cpu(server) or 0.0
    while True:
        await asyncio.sleep(1.0)
        now = process_cpu(server) or 0.0
        if now - used < 0.05:
            return now
        used = now


async def run(sockets: int, port: int, server: int) -> None:
    table_id = await seated_table(port)
    before = process_cpu(server) or 0.0
    started = time.monotonic()
    opened = [await watch(port, table_id, index) for index in range(sockets)]
    joined = process_cpu(server) or 0.0
    extra = sum([await frames_waiting(ws) for ws in opened])
    joining = time.monotonic() - started
    measured = process_cpu(server) or 0.0
    for ws in opened:
        await ws.close()
    left = await settled(server)
    print(f"{sockets} spectators: joining {joined - before:.2f} s of server CPU ({joining:.1f} s wall), "
          f"leaving {left - measured:.2f} s; frames beyond each socket's first while they joined: {extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=400)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        process = start_server(port, f"sqlite:///{Path(folder) / 'tables.db'}", 1)
        try:
            wait_until_up(port, process)
            asyncio.run(run(args.sockets, port, process.pid))
        finally:
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    main()
