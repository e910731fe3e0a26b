"""A file saved by another program between a patch's read and its commit: the patch is
prepared again against what the file now holds (as an edit is placed again), and refused with
``stale_file`` only when the file keeps changing. Nothing saved meanwhile is lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from editengine import StaleFile
from editengine.engine import EditEngine, _patching

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-one = 1\n+one = 10\n*** End Patch\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text("one = 1\ntwo = 2\n")
    return tmp_path


def _saving_after_read(monkeypatch: pytest.MonkeyPatch, path: Path, times: int) -> list[int]:
    """After each of the first ``times`` reads of the patch's files, another program saves."""
    read_all = _patching._read_all
    saves: list[int] = []

    def read_then_save(*args: Any) -> Any:
        answer = read_all(*args)
        if len(saves) < times:
            saves.append(1)
            path.write_text(path.read_text().replace("two = ", "two = 2"))
        return answer

    monkeypatch.setattr(_patching, "_read_all", read_then_save)
    return saves


def test_a_save_during_the_patch_is_kept_and_the_patch_applied(workspace, monkeypatch):
    _saving_after_read(monkeypatch, workspace / "a.py", times=1)
    with EditEngine(workspace, journal=False) as engine:
        engine.apply_patch(PATCH)
    assert (workspace / "a.py").read_text() == "one = 10\ntwo = 22\n"


def test_a_file_that_keeps_changing_refuses_the_patch(workspace, monkeypatch):
    saves = _saving_after_read(monkeypatch, workspace / "a.py", times=100)
    with EditEngine(workspace, journal=False) as engine, pytest.raises(StaleFile):
        engine.apply_patch(PATCH)
    assert len(saves) == _patching._PREPARE_ATTEMPTS
    assert (workspace / "a.py").read_text() == "one = 1\ntwo = 2222\n"
