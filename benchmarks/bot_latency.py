"""How long a greedy bot's reply waits while other tables keep the bot workers busy with slow searches.

Starts ``obelisk serve`` (a fresh SQLite file, ``--bot-workers`` lanes, no bot delay), then, for each
count of slow tables in ``--slow`` (in turn, adding tables), measures ``--replies`` decisions of a
greedy bot at a table of its own: the time from the moment its seat is to act (seen by polling the
table every 10 ms) to the moment its move is written. A slow table is a Solomon table whose person's
seat is handed to the strongest search a table allows (``ismcts:2s``) facing the same: its two bots
search one after the other for the whole game. The scheduler serves the tables in turn, so a reply
should wait for at most one slow decision per slow table and lane (docs/server.md, "Bots at tables");
the decisions the workers finished meanwhile (``GET /api/health``) are printed with each phase: the
greedy ones (a few too quick for the polling to see are not measured) and the slow ones.

    .venv/bin/python benchmarks/bot_latency.py                       # 0, 1 and 3 slow tables, 1 lane
    .venv/bin/python benchmarks/bot_latency.py --slow 0,2 --bot-workers 2 --replies 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from server_http import free_port, request, serve, wait_until_up

SLOW = "ismcts:2s"


class Api:
    """The server's JSON API over one loopback connection per call."""

    def __init__(self, port: int) -> None:
        self.port = port

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        return request(self.port, "127.0.0.1", method, path, body, token, timeout=60, refused_ok=path == "/api/health")

    def table(self, game: str, seats: list[dict[str, Any]]) -> tuple[str, dict[str, str]]:
        made = self.call("POST", "/api/tables", {"game": game, "players": 2, "seats": seats})
        table = made["table"]["id"]
        return table, {seat: self.call("POST", f"/api/tables/{table}/claim", {"token": invite, "name": f"P{seat}"})["token"]
                       for seat, invite in made["tokens"].items()}


def start(port: int, db_url: str, workers: int) -> subprocess.Popen[bytes]:
    server = serve(port, db_url, "--bot-workers", str(workers), "--bot-delay", "0")
    wait_until_up(port, server, limit=120)
    return server


def slow_table(api: Api) -> str:
    table, tokens = api.table("solomon", [{"kind": "human"}, {"kind": "bot", "bot": SLOW}])
    api.call("POST", f"/api/tables/{table}/seats/0/bot", {"bot": SLOW}, tokens["0"])
    return table


def replies(api: Api, count: int) -> list[float]:
    """Seconds each of ``count`` greedy decisions waited and took, at a table of a person and greedy."""
    table, tokens = api.table("valley", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    waited: list[float] = []
    asked: tuple[int, float] | None = None
    while len(waited) < count:
        summary = api.call("GET", f"/api/tables/{table}")
        if summary["status"] == "finished":
            table, tokens = api.table("valley", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
            asked = None
            continue
        if asked is not None and summary["version"] > asked[0]:
            waited.append(time.monotonic() - asked[1])
            asked = None
        if summary["to_act"] == 1:
            asked = asked or (summary["version"], time.monotonic())
        elif summary["to_act"] == 0:
            mine = api.call("GET", f"/api/tables/{table}/frame", token=tokens["0"])
            if mine["legal"]:
                api.call("POST", f"/api/tables/{table}/moves", {"version": mine["version"],
                                                               "action": mine["legal"][0][0]}, tokens["0"])
                continue
        time.sleep(0.01)
    return waited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", default="0,1,3", help="slow tables in each phase, growing (default 0,1,3)")
    parser.add_argument("--replies", type=int, default=10, help="greedy decisions measured per phase (default 10)")
    parser.add_argument("--bot-workers", type=int, default=1, help="the server's bot worker processes (default 1)")
    args = parser.parse_args()
    phases = [int(n) for n in args.slow.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start(port, f"sqlite:///{Path(folder) / 'tables.db'}", args.bot_workers)
        api = Api(port)
        slow: list[str] = []
        try:
            print(f"bot workers {args.bot_workers}; slow tables: two {SLOW} bots each; load average "
                  f"{os.getloadavg()[0]:.1f}")
            replies(api, 1)  # the worker process starts with the first decision: not measured
            for wanted in phases:
                while len(slow) < wanted:
                    slow.append(slow_table(api))
                before = api.call("GET", "/api/health")["bots"]
                waited = replies(api, args.replies)
                after = api.call("GET", "/api/health")["bots"]
                decided = after["decisions"] - before["decisions"]
                print(f"{wanted} slow table(s): greedy reply p50 {statistics.median(waited) * 1000:.0f} ms, "
                      f"max {max(waited) * 1000:.0f} ms over {len(waited)} replies; meanwhile the workers "
                      f"finished {decided} decisions ({after['interrupted'] - before['interrupted']} cut at the "
                      f"limit)")
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
