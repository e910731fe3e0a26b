"""Any path string: a typed answer, and nothing created or changed outside the workspace."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from editengine._errors import EditError
from editengine.engine import EditEngine

PARTS = st.sampled_from(
    ["..", ".", "", "a", "b.txt", "ws", "outside", "link", "f.txt", "é", "n" * 256, "\x00", "\\"]
)
PATHS = st.lists(PARTS, min_size=1, max_size=6).flatmap(
    lambda parts: st.sampled_from(["", "/"]).map(lambda lead: lead + "/".join(parts))
)


def snapshot(folder: Path) -> list[tuple[str, bytes | None]]:
    found = []
    for directory, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(directory, name)
            data = path.read_bytes() if path.is_file() and not path.is_symlink() else None
            found.append((os.path.relpath(path, folder), data))
    return sorted(found)


@settings(max_examples=80, deadline=None)
@given(PATHS, st.sampled_from(["create", "edit"]))
def test_any_path_is_answered_and_stays_inside(path, operation):
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        workspace, outside = base / "ws", base / "outside"
        workspace.mkdir()
        outside.mkdir()
        (outside / "f.txt").write_text("secret\n")
        (workspace / "f.txt").write_text("secret\n")
        os.symlink(outside, workspace / "link")
        before = snapshot(outside)
        engine = EditEngine(workspace, lock_dir=base / "locks")
        old = "" if operation == "create" else "secret"
        with contextlib.suppress(EditError):  # any other exception fails the test
            engine.edit(path, old, "changed\n")
        assert snapshot(outside) == before
        assert set(os.listdir(base)) <= {"locks", "outside", "ws"}  # nothing made beside it
