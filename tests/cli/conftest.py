"""Every CLI test keeps its default records in its own temporary data folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "obelisk-data"
    monkeypatch.setenv("OBELISK_DATA_DIR", str(folder))
    return folder
