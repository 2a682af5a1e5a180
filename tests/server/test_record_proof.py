"""The record of a finished table is verified: its commitment opens to its seed and every draw is the seed's at its
place in the game, undos or not; ``obelisk replay`` says so."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from obelisk.cli import main
from obelisk.core import CHANCE
from obelisk.core.records import replay_record, verified_commitment
from tests.server.test_api import frame_of, seated
from tests.server.test_undo import HUMANS, play_with_undos


@pytest.mark.one_database  # undone moves kept out of storage on both databases: test_undo.py
def test_a_table_with_undos_has_a_verified_record(client: TestClient, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    table, tokens = seated(client, game="solomon", players=2, seats=HUMANS)
    commitment = frame_of(client, table)["table"]["commitment"]
    undone, _ = play_with_undos(client, table, tokens, random.Random(11), 10_000)
    final = frame_of(client, table)
    assert final["status"] == "finished" and undone > 0
    assert final["version"] > len(final["log"])  # undos took events away: event numbers are no move numbers
    doc = client.get(f"/api/tables/{table}/record").json()
    draws = [n for n, entry in enumerate(doc["actions"]) if entry["player"] == CHANCE]
    assert draws and draws[-1] > len(doc["actions"]) // 2
    replay_record(doc)
    assert verified_commitment(doc) == commitment
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path), "--print"]) == 0
    assert f"verified: the seed opens commitment {commitment} and every chance outcome" in capsys.readouterr().out

