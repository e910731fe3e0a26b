"""A folder on the path swapped for a link after the guard's check redirects nothing.

The attack: the guard accepts ``sub/f.txt``; then ``sub`` is moved away and a symbolic link
to a folder outside the workspace takes its place, holding a file with the same bytes (so
a hash check alone would pass). Every later read and write must stay in the workspace.
"""

from __future__ import annotations

import itertools
import os
import random
import threading
from pathlib import Path

import pytest

from editengine._edits import ConfirmRequest
from editengine._errors import EditError, PathOutsideWorkspace, StaleFile

CONTENT = b"A\nSECRET-OUTSIDE\n"
INSIDE = b"A\nkept inside\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    (folder / "evil").mkdir(parents=True)
    (folder / "evil" / "f.txt").write_bytes(CONTENT)
    return folder


def outside_state(outside: Path) -> list[tuple[str, bytes]]:
    found = []
    for folder, _, files in os.walk(outside):
        for name in files:
            path = Path(folder) / name
            found.append((os.path.relpath(path, outside), path.read_bytes()))
    return sorted(found)


def swap_to_link(workspace: Path, outside: Path) -> None:
    """``sub`` moves out of the workspace; a link to ``outside/evil`` replaces it."""
    os.rename(workspace / "sub", outside / "moved-sub")
    os.symlink(outside / "evil", workspace / "sub")


def test_swap_while_waiting_for_approval_writes_nothing_outside(make_engine, workspace, outside):
    (workspace / "sub").mkdir()
    (workspace / "sub" / "f.txt").write_bytes(CONTENT)  # same bytes as the outside file
    before = outside_state(outside)

    def approve_after_swap(request: ConfirmRequest) -> bool:
        swap_to_link(workspace, outside)
        return True

    engine = make_engine(confirm=approve_after_swap)
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("sub/f.txt", "A", "B")
    after = outside_state(outside)
    # The outside folder holds exactly what it held, plus the moved (untouched) folder.
    assert [entry for entry in after if not entry[0].startswith("moved-sub")] == before
    assert (outside / "moved-sub" / "f.txt").read_bytes() == CONTENT
    assert os.listdir(outside / "moved-sub") == ["f.txt"]


def test_swap_while_waiting_for_approval_creates_nothing_outside(make_engine, workspace, outside):
    (workspace / "sub").mkdir()
    before = outside_state(outside)

    def approve_after_swap(request: ConfirmRequest) -> bool:
        swap_to_link(workspace, outside)
        return True

    engine = make_engine(confirm=approve_after_swap)
    with pytest.raises((PathOutsideWorkspace, StaleFile)):
        engine.edit("sub/new.txt", "", "created\n")
    assert outside_state(outside) == before
    assert os.listdir(outside / "evil") == ["f.txt"]


def test_folder_moved_out_between_read_and_rename_is_stale(make_engine, workspace, outside):
    """The folder itself moves out (no link left behind): the rename must not follow it."""
    (workspace / "sub").mkdir()
    (workspace / "sub" / "f.txt").write_bytes(INSIDE)
    real_replace = os.replace
    moved = []

    def move_then_replace(src, dst, **dir_fds):
        if str(src).endswith(".editengine.tmp") and not moved:
            moved.append(True)
            os.rename(workspace / "sub", outside / "moved-sub")
            (workspace / "sub").mkdir()  # a fresh, empty folder of the same name
        return real_replace(src, dst, **dir_fds)

    engine = make_engine()
    os.replace = move_then_replace  # type: ignore[assignment]  # a test double put in place
    try:
        with pytest.raises((StaleFile, PathOutsideWorkspace)):
            engine.edit("sub/f.txt", "A", "B")
    finally:
        os.replace = real_replace  # type: ignore[assignment]  # a test double put in place
    # The folder that moved out keeps its original bytes and no temp file.
    assert (outside / "moved-sub" / "f.txt").read_bytes() == INSIDE
    assert os.listdir(outside / "moved-sub") == ["f.txt"]


def test_racing_swaps_never_reach_outside(make_engine, workspace, outside):
    """A thread swaps ``sub`` and a link back and forth during 1,000 edits and creations."""
    (workspace / "sub").mkdir()
    (workspace / "sub" / "f.txt").write_bytes(INSIDE)
    hidden = workspace / "hidden-sub"
    before = outside_state(outside)
    stop = threading.Event()
    racer_errors: list[BaseException] = []
    counter = itertools.count()

    def repair() -> None:
        """The engine made a fresh ``sub`` for a file it created: move it aside."""
        sub = workspace / "sub"
        if os.path.islink(sub):
            os.unlink(sub)
        elif sub.exists():
            os.rename(sub, workspace / f"made-{next(counter)}")
        if hidden.exists():
            os.rename(hidden, sub)

    pauses = random.Random(7)

    def racer() -> None:
        failures = 0
        while not stop.is_set():
            try:
                os.rename(workspace / "sub", hidden)
                os.symlink(outside / "evil", workspace / "sub")
                os.unlink(workspace / "sub")
                os.rename(hidden, workspace / "sub")
                # A pause of up to a millisecond with the folder in place, some of the time:
                # a racer that never pauses can refuse every edit, and then the test would
                # not show that edits between the swaps still land.
                stop.wait(pauses.choice((0.0, 0.0, 0.0005, 0.001)))
            except OSError:
                try:
                    repair()
                except OSError as error:
                    failures += 1
                    if failures > 100:  # pragma: no cover - the test set-up is broken
                        racer_errors.append(error)
                        return

    engine = make_engine(lock_timeout=5)
    untyped: list[BaseException] = []
    leaks: list[str] = []
    outcomes: dict[str, int] = {}
    thread = threading.Thread(target=racer, daemon=True)
    thread.start()
    try:
        for attempt in range(1000):
            old, new = ("A", "B") if attempt % 2 == 0 else ("B", "A")
            try:
                if attempt % 10 == 9:
                    engine.edit(f"sub/new{attempt}.txt", "", "created\n")
                else:
                    engine.edit("sub/f.txt", old, new)
                outcomes["ok"] = outcomes.get("ok", 0) + 1
            except EditError as error:
                outcomes[error.code] = outcomes.get(error.code, 0) + 1
                if "SECRET" in str(error) or "SECRET" in repr(error.__dict__):
                    leaks.append(str(error))
            except Exception as error:  # the point is to count them
                untyped.append(error)
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not racer_errors
    assert untyped == []
    assert leaks == []
    assert outside_state(outside) == before
    assert outcomes.get("ok", 0) > 0  # the race did not just refuse everything
