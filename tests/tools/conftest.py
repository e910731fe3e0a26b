"""An engine on a temp workspace with its own journal, for the tool front ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from editengine._journal import Journal
from editengine.engine import EditEngine


@pytest.fixture
def engine(tmp_path: Path) -> EditEngine:
    root = tmp_path / "ws"
    root.mkdir()
    return EditEngine(
        root, lock_dir=tmp_path / "locks", journal=Journal(root, directory=tmp_path / "journal")
    )
