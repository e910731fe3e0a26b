"""An engine whose undo journal lives in the test's temp folder (outside the workspace)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from editengine.engine import EditEngine
from editengine.journal import Journal


@pytest.fixture
def journal_dir(tmp_path: Path) -> Path:
    return tmp_path / "journal"


@pytest.fixture
def make_engine(workspace: Path, journal_dir: Path, tmp_path: Path) -> Callable[..., EditEngine]:
    def make(**options: object) -> EditEngine:
        options.setdefault("lock_dir", tmp_path / "locks")
        options.setdefault("journal", Journal(workspace, directory=journal_dir))
        return EditEngine(workspace, **options)  # type: ignore[arg-type]  # passed on as given

    return make


@pytest.fixture
def engine(make_engine: Callable[..., EditEngine]) -> EditEngine:
    return make_engine()


@pytest.fixture
def write(workspace: Path) -> Callable[[str, bytes | str], Path]:
    def write(relative: str, content: bytes | str) -> Path:
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return path

    return write
