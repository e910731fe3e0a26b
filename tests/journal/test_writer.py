"""The engine's one write transaction: what a front end sets on the engine after it was
built (a read tracker, an approval callback, the journal) is what every write path uses."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from editengine import EditRejected, ReadTracker, StaleFile
from editengine._edits import ConfirmRequest
from editengine.engine import EditEngine

PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n"


def test_a_read_tracker_set_after_construction_guards_and_records_edits_and_patches(
    engine: EditEngine, write: Callable[[str, bytes | str], Path]
) -> None:
    path = write("a.txt", "one\n")
    tracker = ReadTracker(require_read=True)
    engine.read_tracker = tracker
    with pytest.raises(StaleFile):
        engine.edit("a.txt", "one", "two")
    with pytest.raises(StaleFile):
        engine.apply_patch(PATCH)
    assert path.read_text() == "one\n"
    engine.read_file("a.txt")
    engine.edit("a.txt", "one", "two")
    key = os.fspath(path.resolve())
    assert tracker.last_read(key) == hashlib.sha256(b"two\n").hexdigest()


def test_an_approval_callback_set_after_construction_is_asked_for_a_patch(
    engine: EditEngine, write: Callable[[str, bytes | str], Path]
) -> None:
    path = write("a.txt", "one\n")
    asked: list[ConfirmRequest] = []

    def refuse(request: ConfirmRequest) -> bool:
        asked.append(request)
        return False

    engine.confirm = refuse
    with pytest.raises(EditRejected):
        engine.apply_patch(PATCH)
    assert [request.file_path for request in asked] == ["a.txt"]
    assert path.read_text() == "one\n"


def test_a_journal_turned_off_after_construction_records_no_write(
    engine: EditEngine, write: Callable[[str, bytes | str], Path]
) -> None:
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    journal = engine.journal
    assert journal is not None and len(journal.entries()) == 1
    engine.journal = None
    engine.edit("a.txt", "two", "three")
    assert len(journal.entries()) == 1
