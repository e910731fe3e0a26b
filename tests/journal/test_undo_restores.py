"""What undo puts back besides the bytes: folders, permission bits, what the agent has read."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from editengine._read_tracker import ReadTracker
from editengine.engine import EditEngine


def _delete_as_a_patch_does(engine: EditEngine, name: str) -> None:
    """Delete ``name`` and journal it through the engine's one recording call."""
    target = engine.workspace.resolve(name)
    path = Path(target.real)
    before = path.read_bytes()
    mode = path.stat().st_mode & 0o7777
    path.unlink()
    engine._writer.record(
        target, before, None, strategy="udiff", operation="patch", summary=f"Deleted {name}",
        mode=mode, group="p1",
    )  # fmt: skip


def test_undoing_a_deletion_recreates_the_file_and_its_folder_with_its_permission_bits(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("sub/deep/run.sh", "echo hi\n")
    os.chmod(path, 0o751)
    _delete_as_a_patch_does(engine, "sub/deep/run.sh")
    (workspace / "sub" / "deep").rmdir()
    (workspace / "sub").rmdir()

    engine.undo()

    assert path.read_bytes() == b"echo hi\n"
    assert path.stat().st_mode & 0o777 == 0o751
    assert engine.journal_entries()[-1].mode == 0o751  # the undo records the bits it restored


def test_redoing_the_undo_of_a_created_file_recreates_it_with_the_bits_it_had(
    engine: EditEngine, workspace: Path
) -> None:
    engine.edit("run.sh", "", "echo hi\n")
    path = workspace / "run.sh"
    os.chmod(path, 0o751)
    # chmod changes no byte: the file is still as the edit left it
    engine.undo()
    assert not path.exists()

    engine.redo()

    assert path.read_bytes() == b"echo hi\n"
    assert path.stat().st_mode & 0o777 == 0o751


def test_after_an_undo_deletes_a_file_the_agent_may_create_it_again(
    make_engine: Callable[..., EditEngine], workspace: Path
) -> None:
    # The agent knew the file it created; once the undo deleted it, the engine must not
    # still take it for read (a create would be refused as "deleted after you read it").
    engine = make_engine(read_tracker=ReadTracker())
    engine.edit("new.txt", "", "first\n")
    engine.undo()

    engine.edit("new.txt", "", "second\n")

    assert (workspace / "new.txt").read_bytes() == b"second\n"


def test_after_an_undo_the_agent_may_edit_the_restored_file_without_reading_it_again(
    make_engine: Callable[..., EditEngine], workspace: Path, write: Callable[..., Path]
) -> None:
    engine = make_engine(read_tracker=ReadTracker(require_read=True))
    write("a.txt", "one\n")
    engine.read_file("a.txt")
    engine.edit("a.txt", "one", "two")
    engine.undo()

    engine.edit("a.txt", "one", "three")

    assert (workspace / "a.txt").read_bytes() == b"three\n"


def test_undo_keeps_the_permission_bits_the_file_has_now(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("run.sh", "echo one\n")
    engine.edit("run.sh", "one", "two")
    os.chmod(path, 0o700)  # no byte changed: the undo goes ahead

    engine.undo()

    assert path.read_bytes() == b"echo one\n"
    assert path.stat().st_mode & 0o777 == 0o700
