"""Load on the table server: many websocket players on loopback, moves per second and move latency.

Starts the server (``obelisk serve``, ``--processes`` workers, a fresh SQLite file or ``--db URL``),
creates tables whose seats are all people, and runs ``--clients`` websocket clients, one per seat.
Each client plays its seat: when a frame gives it legal actions it picks one (seeded) and sends the
move; the move's latency is the time from sending it to the first frame with a newer version. Without
``--rate`` a client moves the moment its frame allows it, so the server is saturated and, with one
move in flight per table, latency is tables / throughput (Little's law). With ``--rate R`` the players
think: each table moves at most every tables / R seconds (its first move at a random moment of that
interval), which is how the load R moves/s of people playing reaches a server. A
finished table is replaced by a new one, so the load holds for the whole run. The run stops by itself
after ``--seconds`` (plus a short warm-up that is not measured) and prints moves/s and p50/p99.

Each client connects from its own loopback address (127.0.1.2, 127.0.1.3, ...), as separate players
would, so the server's per-address rate limit applies to each client, not to the whole benchmark.

    .venv/bin/python benchmarks/server_load.py                              # 200 clients, SQLite
    .venv/bin/python benchmarks/server_load.py --clients 50 --seconds 10
    .venv/bin/python benchmarks/server_load.py --rate 500                   # 500 moves/s offered
    .venv/bin/python benchmarks/server_load.py --processes 2 --db postgresql+psycopg://u:p@127.0.0.1/obelisk
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from server_http import free_port, request, serve, wait_until_up


@dataclass
class Tally:
    """What the clients measured; only moves acknowledged inside the measured window count."""

    start: float = 0.0
    stop: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    tables: int = 0
    server_cpu: float | None = None
    database_cpu: float | None = None
    client_cpu: float = 0.0

    def measuring(self, moment: float) -> bool:
        return self.start <= moment < self.stop


def process_cpu(root: int) -> float | None:
    """CPU seconds used so far by process ``root`` and its descendants (Linux /proc; None elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return None
    for entry in entries:
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    family, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        grew = bool(more)
        family |= more
    return sum(used.get(pid, 0.0) for pid in family) if root in used else None


async def measure_cpu(server: int | None, database: int | None, tally: Tally) -> None:
    """The server's and the database server's CPU time (when given) and this process's, over the measured window."""
    await asyncio.sleep(max(0.0, tally.start - time.monotonic()))
    server_before = process_cpu(server) if server is not None else None
    client_before = time.process_time()
    database_before = process_cpu(database) if database is not None else None
    await asyncio.sleep(max(0.0, tally.stop - time.monotonic()))
    server_after = process_cpu(server) if server is not None else None
    tally.client_cpu = time.process_time() - client_before
    database_after = process_cpu(database) if database is not None else None
    if server_before is not None and server_after is not None:
        tally.server_cpu = server_after - server_before
    if database_before is not None and database_after is not None:
        tally.database_cpu = database_after - database_before


def start_server(port: int, db_url: str, processes: int) -> subprocess.Popen[bytes]:
    """``obelisk serve`` as people run it, with bots off (every seat here is a client)."""
    return serve(port, db_url, "--workers", str(processes), "--bot-workers", "0")


async def new_table(port: int, address: str, game: str, players: int) -> tuple[str, list[str]]:
    """A table with every seat a person's, each seat claimed; its id and the seats' tokens."""
    body = {"game": game, "players": players, "seats": [{"kind": "human", "name": f"p{i}"} for i in range(players)],
            "public": False}
    created = await asyncio.to_thread(request, port, address, "POST", "/api/tables", body)
    table_id = created["table"]["id"]
    tokens = []
    for seat in range(players):
        claimed = await asyncio.to_thread(request, port, address, "POST", f"/api/tables/{table_id}/claim",
                                          {"token": created["tokens"][str(seat)], "name": f"p{seat}"})
        tokens.append(claimed["token"])
    return table_id, tokens


@dataclass
class Pace:
    """When a table's next move may be sent (``interval`` 0: at once)."""

    interval: float
    due: float = 0.0

    async def wait(self) -> None:
        delay = self.due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        self.due = time.monotonic() + self.interval


async def play_seat(port: int, address: str, table_id: str, token: str, seed: str, tally: Tally,
                    deadline: float, pace: Pace) -> None:
    """Plays one seat until the game ends or the run does; records each acknowledged move's latency."""
    rng = random.Random(seed)
    origin = f"http://127.0.0.1:{port}"
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", origin=origin,  # type: ignore[arg-type]
                       local_addr=(address, 0), max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_version: int | None = None
        sent_at = 0.0
        legal: list[Any] = []
        version = 0

        async def move() -> None:
            nonlocal sent_version, sent_at
            await pace.wait()
            sent_version, sent_at = version, time.monotonic()
            await ws.send(json.dumps({"type": "move", "version": version, "action": rng.choice(legal)[0]}))

        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                return
            message = json.loads(raw)
            now = time.monotonic()
            if message["type"] == "error":
                tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
                if message["code"] == "rate_limited":
                    await asyncio.sleep(0.2)
                sent_version = None
                if legal:
                    await move()  # the refused move's frame brings no new one: choose again from the last
                continue
            if message["type"] != "frame":
                continue
            if sent_version is not None and message["version"] > sent_version:
                if tally.measuring(sent_at):
                    tally.latencies.append(now - sent_at)
                sent_version = None
            if message["status"] == "finished":
                if message["seat"] == 0:
                    tally.games += 1
                return
            legal, version = message["legal"], message["version"]
            if legal and sent_version is None:
                await move()


async def run_table(port: int, index: int, game: str, players: int, tally: Tally, deadline: float,
                    interval: float) -> None:
    """One table after another for ``players`` clients, each from its own loopback address."""
    addresses = [f"127.0.{(index * players + seat) // 250 + 1}.{(index * players + seat) % 250 + 2}"
                 for seat in range(players)]
    round_number = 0
    while time.monotonic() < deadline:
        table_id, tokens = await new_table(port, addresses[0], game, players)
        tally.tables += 1
        pace = Pace(interval, time.monotonic() + random.Random(f"{index}:{round_number}").uniform(0, interval))
        await asyncio.gather(*(play_seat(port, addresses[seat], table_id, tokens[seat],
                                         f"{index}:{round_number}:{seat}", tally, deadline, pace)
                               for seat in range(players)))
        round_number += 1


async def load(port: int, server: int | None, database: int | None, clients: int, game: str, players: int,
               start: float, seconds: float, rate: float | None, part: int, parts: int) -> Tally:
    """The tables ``part``, ``part + parts``, ... of the run (all of them with one part), measured from ``start``."""
    tally = Tally(start=start, stop=start + seconds)
    tables = clients // players
    interval = tables / rate if rate else 0.0
    await asyncio.gather(measure_cpu(server, database, tally),
                         *(run_table(port, i, game, players, tally, tally.stop, interval)
                           for i in range(part, tables, parts)))
    return tally


def run_part(port: int, server: int | None, database: int | None, clients: int, game: str, players: int,
             start: float, seconds: float, rate: float | None, part: int, parts: int) -> Tally:
    """One process's share of the clients.

    Its own collector is kept off the measured latencies: what start-up allocated is frozen and the
    young generation is collected rarely (otherwise a full collection of this process delays the
    frames it is reading by up to 170 ms on a busy 2-core machine).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)
    return asyncio.run(load(port, server, database, clients, game, players, start, seconds, rate, part, parts))


def merged(parts: list[Tally]) -> Tally:
    """The tallies of the client processes as one (the first one measured the servers' CPU)."""
    tally = replace(parts[0], latencies=[], errors={})
    tally.games = tally.tables = 0
    tally.client_cpu = 0.0
    for part in parts:
        tally.latencies += part.latencies
        for code, count in part.errors.items():
            tally.errors[code] = tally.errors.get(code, 0) + count
        tally.games += part.games
        tally.tables += part.tables
        tally.client_cpu += part.client_cpu
    return tally


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=200, help="websocket clients, one per seat (default 200)")
    parser.add_argument("--game", default="valley")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured time first (default 3)")
    parser.add_argument("--processes", type=int, default=1, help="server worker processes (default 1)")
    parser.add_argument("--client-processes", type=int, default=1,
                        help="processes the clients are spread over (default 1); with 2 or more their event "
                             "loops are less likely to read a frame late on a busy machine")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--db-pid", type=int, help="process id of the database server (PostgreSQL's postmaster): "
                                                    "its CPU in the window is reported too")
    parser.add_argument("--rate", type=float, help="moves/s the players offer in all (default: as fast as "
                                                   "the server answers)")
    args = parser.parse_args()
    if not 1 <= args.clients <= 2000 or args.clients % args.players:
        parser.error(f"--clients must be 1 to 2000 and a multiple of --players ({args.players})")
    if not 0 < args.seconds <= 600 or not 0 <= args.warmup <= 60:
        parser.error("--seconds must be in (0, 600] and --warmup in [0, 60]")
    if not 1 <= args.processes <= 16:
        parser.error("--processes must be 1 to 16")
    if not 1 <= args.client_processes <= 16 or args.client_processes > args.clients // args.players:
        parser.error("--client-processes must be 1 to 16 and at most the number of tables")
    if args.rate is not None and not 0 < args.rate <= 100_000:
        parser.error("--rate must be in (0, 100000]")
    if args.processes > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("several --processes share tables through PostgreSQL only; give --db postgresql+psycopg://...")

    with tempfile.TemporaryDirectory() as folder:
        db_url = args.db or f"sqlite:///{folder}/load.db"
        port = free_port()
        server = start_server(port, db_url, args.processes)
        try:
            wait_until_up(port, server)
            start = time.monotonic() + args.warmup
            shares = [(port, server.pid if part == 0 else None, args.db_pid if part == 0 else None, args.clients,
                       args.game, args.players, start, args.seconds, args.rate, part, args.client_processes)
                      for part in range(args.client_processes)]
            if args.client_processes == 1:
                tally = run_part(*shares[0])
            else:
                with ProcessPoolExecutor(args.client_processes) as pool:
                    tally = merged(list(pool.map(run_part, *zip(*shares))))
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    moves = len(tally.latencies)
    database = "SQLite" if args.db is None else args.db.split(":", 1)[0]
    print(f"{args.clients} clients, {args.clients // args.players} {args.game} tables at a time, "
          f"{args.processes} server process(es), {database}, "
          f"{'moves as fast as answered' if args.rate is None else f'{args.rate:g} moves/s offered'}; "
          f"{tally.tables} tables, {tally.games} games finished")
    if not moves:
        print("no move was acknowledged in the measured window")
        raise SystemExit(1)
    print(f"{moves / args.seconds:.0f} moves/s over {args.seconds:g} s; latency p50 "
          f"{statistics.median(tally.latencies) * 1000:.1f} ms, p99 {percentile(tally.latencies, 0.99) * 1000:.1f} ms, "
          f"max {max(tally.latencies) * 1000:.1f} ms")
    if tally.server_cpu is not None:
        print(f"CPU in the measured window: server {tally.server_cpu:.1f} s ({tally.server_cpu / moves * 1000:.2f} ms "
              f"a move), load clients {tally.client_cpu:.1f} s, of {args.seconds * (os.cpu_count() or 1):g} s on "
              f"{os.cpu_count()} cores")
    if tally.database_cpu is not None:
        print(f"CPU of the database server in the window: {tally.database_cpu:.1f} s "
              f"({tally.database_cpu / moves * 1000:.2f} ms a move)")
    if tally.errors:
        print("errors: " + ", ".join(f"{code} {count}" for code, count in sorted(tally.errors.items())))


if __name__ == "__main__":
    main()
