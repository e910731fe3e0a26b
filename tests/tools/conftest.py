"""An engine on a temp workspace with its own journal, for the tool front ends, and a writer of
that workspace's files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from editengine.engine import EditEngine
from editengine.journal import Journal


@pytest.fixture
def engine(tmp_path: Path, workspace: Path) -> EditEngine:
    root = workspace
    return EditEngine(
        root, lock_dir=tmp_path / "locks", journal=Journal(root, directory=tmp_path / "journal")
    )


@pytest.fixture
def write(workspace: Path) -> Callable[[str, bytes | str], Path]:
    """Create ``workspace/relative`` with exactly these bytes (str is UTF-8 encoded as is)."""

    def write(relative: str, content: bytes | str) -> Path:
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    return write
