"""Undo refusals: each says what stands in the way and what to do, and changes nothing."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from editengine._errors import BadRequest, EditError, JournalError, NothingToUndo, StaleFile
from editengine.engine import EditEngine
from editengine.journal import JournalEntry

STALE_HINT = (
    "Undo only restores a file still exactly as editengine left it. Someone edited it since: "
    "read it and edit it back by hand, or restore it from version control."
)
NOTHING_HINT = (
    "Only writes made through editengine (edit, multi_edit, patch, undo) are journaled; an undo "
    "can be redone until its file is edited again."
)


def short_sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (``None``) under ``root``."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes() if path.is_file() else None
        for path in sorted(root.rglob("*"))
    }


# ---------------------------------------------------------------- the file changed since


def after_each_journal_read(
    engine: EditEngine, action: Callable[[int], object]
) -> Callable[[], list[JournalEntry]]:
    """Run ``action(n)`` right after the engine's journal is read for the n-th time, as
    another writer would between the undo's reads; the journal's own reader is returned."""
    journal = engine.journal
    assert journal is not None
    read_entries = journal.entries
    reads = 0

    def entries() -> list[JournalEntry]:
        nonlocal reads
        reads += 1
        found = read_entries()
        action(reads)
        return found

    journal.entries = entries  # type: ignore[method-assign]  # a test double put in place
    return read_entries


def test_a_file_changed_since_is_refused_naming_both_hashes_and_the_write(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    path.write_bytes(b"by hand\n")
    now, left = short_sha(b"by hand\n"), short_sha(b"two\n")

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message == (
        f"a.txt has changed (sha256 {now}…) since the write being undone — "
        f'"Replaced 1 occurrence in a.txt (exact match)" left sha256 {left}…. '
        "Nothing was restored."
    )
    assert caught.value.hint == STALE_HINT
    assert caught.value.path == "a.txt"
    assert path.read_bytes() == b"by hand\n"


def test_a_step_reached_after_undoing_newer_ones_says_so_when_it_is_refused(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    path.write_bytes(b"three\n")  # by hand: the first edit's result is gone
    engine.edit("a.txt", "three", "four")
    now, left = short_sha(b"three\n"), short_sha(b"two\n")

    with pytest.raises(StaleFile) as caught:
        engine.undo(steps=2)

    assert caught.value.message == (
        f"a.txt has changed (sha256 {now}…) since the write being undone (reached after "
        f'undoing the newer steps) — "Replaced 1 occurrence in a.txt (exact match)" left '
        f"sha256 {left}…. Nothing was restored."
    )
    assert path.read_bytes() == b"four\n"


def test_a_file_deleted_since_is_refused_as_deleted(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    path.unlink()

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message.startswith("a.txt has been deleted since the write being undone")
    assert not path.exists()


def test_redoing_a_deletion_when_the_file_exists_again_is_refused_and_keeps_the_file(
    engine: EditEngine, workspace: Path
) -> None:
    engine.edit("b.txt", "", "new\n")
    engine.undo()  # deletes b.txt
    (workspace / "b.txt").write_bytes(b"made by hand\n")

    with pytest.raises(StaleFile) as caught:
        engine.redo()

    assert caught.value.message == (
        "b.txt exists again (the write being undone had deleted it) since the write being "
        'undone — "undo of: Created b.txt (1 line)" left sha256 no file. Nothing was restored.'
    )
    assert (workspace / "b.txt").read_bytes() == b"made by hand\n"


def test_a_file_that_is_no_longer_utf8_is_refused_with_what_to_do(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    path.write_bytes("caf\u00e9\n".encode("latin-1"))

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message == (
        "a.txt is no longer UTF-8 text, so it changed since editengine wrote it; nothing was "
        "restored."
    )
    assert caught.value.hint == "Restore the file from version control, or fix it by hand."
    assert caught.value.path == "a.txt"


def test_a_link_that_now_leads_to_another_file_is_refused_naming_both(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("x.txt", "one\n")
    write("y.txt", "one\n")
    (workspace / "link.txt").symlink_to("x.txt")
    engine.edit("link.txt", "one", "two")
    (workspace / "link.txt").unlink()
    (workspace / "link.txt").symlink_to("y.txt")
    before = tree(workspace)

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message == (
        "link.txt now leads to another file (y.txt) than the one written (x.txt); nothing was "
        "restored."
    )
    assert caught.value.hint == "A symbolic link on that path changed. Restore the file by hand."
    assert caught.value.path == "link.txt"
    assert tree(workspace) == before


def test_a_folder_moved_away_during_the_undo_is_refused_and_nothing_is_written(
    engine: EditEngine, workspace: Path, write: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from editengine.journal import _undo as undo_module

    write("sub/a.txt", "one\n")
    engine.edit("sub/a.txt", "one", "two")
    read_under_lock = undo_module._snapshot
    reads: list[object] = []

    def read_then_move(*args: object, **kwargs: object) -> object:
        snapshot = read_under_lock(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given
        reads.append(snapshot)
        if len(reads) == 1:  # right after the plan's read under the lock
            os.rename(workspace / "sub", workspace / "moved")
        return snapshot

    monkeypatch.setattr(undo_module, "_snapshot", read_then_move)

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message == (
        "The folder of sub/a.txt was moved or deleted during the undo; nothing was restored."
    )
    assert caught.value.hint == "Check the folder layout and run undo again."
    assert caught.value.path == "sub/a.txt"
    assert tree(workspace) == {"moved": None, "moved/a.txt": b"two\n"}


# ---------------------------------------------------------------- nothing (or not enough) to undo


def test_an_empty_journal_says_there_is_nothing_to_undo_in_the_workspace(
    engine: EditEngine,
) -> None:
    with pytest.raises(NothingToUndo) as caught:
        engine.undo()
    assert caught.value.message == "The journal holds no write to undo in this workspace."
    assert caught.value.hint == NOTHING_HINT

    with pytest.raises(NothingToUndo) as caught:
        engine.redo()
    assert caught.value.message == "The journal holds no undo to redo in this workspace."


def test_nothing_to_undo_of_one_file_names_the_file(
    engine: EditEngine, write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    write("b.txt", "one\n")
    engine.edit("a.txt", "one", "two")

    with pytest.raises(NothingToUndo) as caught:
        engine.undo("b.txt")

    assert caught.value.message == "The journal holds no write to undo of b.txt."


def test_more_steps_than_a_file_has_names_the_count_and_the_file(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    write("b.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("b.txt", "one", "two")
    before = tree(workspace)

    with pytest.raises(NothingToUndo) as caught:
        engine.undo("a.txt", steps=2)
    assert caught.value.message == (
        "Asked for 2 steps, but the journal holds only 1 of a.txt; nothing was restored."
    )
    assert caught.value.hint == "Use --steps 1 or fewer."

    with pytest.raises(NothingToUndo) as caught:
        engine.undo(steps=3)
    assert caught.value.message == (
        "Asked for 3 steps, but the journal holds only 2; nothing was restored."
    )
    assert tree(workspace) == before


def test_exactly_as_many_steps_as_the_journal_holds_undoes_them_all(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("a.txt", "two", "three")

    engine.undo(steps=2)

    assert (workspace / "a.txt").read_bytes() == b"one\n"


def test_a_step_count_that_is_not_a_positive_integer_is_named_in_the_refusal(
    engine: EditEngine,
) -> None:
    with pytest.raises(BadRequest) as caught:
        engine.undo(steps=0)
    assert caught.value.message == "steps must be a positive integer, got 0."


def test_without_a_journal_the_refusal_says_how_to_get_one(
    make_engine: Callable[..., EditEngine],
) -> None:
    engine = make_engine(journal=False)
    for ask in (engine.undo, engine.journal_entries):
        with pytest.raises(JournalError) as caught:
            ask()
        assert caught.value.message == (
            "This engine keeps no undo journal (journal=False), so there is nothing to undo."
        )
        assert caught.value.hint == (
            "Create the engine with the default journal to make edits undoable."
        )


# ---------------------------------------------------------------- writes landing meanwhile


def test_a_write_landing_while_the_undo_waits_for_its_locks_is_undone_instead(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    # The undo decides, takes the locks, then decides again: a write that landed meanwhile
    # is now the newest, so the undo plans again and takes that one back.
    write("a.txt", "one\n")
    write("b.txt", "one\n")
    engine.edit("a.txt", "one", "two")

    def write_after_the_first_read(reads: int) -> None:
        if reads == 1:
            engine.edit("b.txt", "one", "two")

    after_each_journal_read(engine, write_after_the_first_read)

    result = engine.undo()

    assert result.files == ("b.txt",)
    assert tree(workspace) == {"a.txt": b"two\n", "b.txt": b"one\n"}


def test_a_journal_that_keeps_changing_is_given_up_after_five_plans_with_nothing_restored(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("a.txt", "0\n")
    engine.edit("a.txt", "0", "1")
    reads: list[int] = []

    def a_new_write_each_time(read: int) -> None:
        reads.append(read)
        engine.edit(f"f{read}.txt", "", "new\n")

    read_entries = after_each_journal_read(engine, a_new_write_each_time)

    with pytest.raises(JournalError) as caught:
        engine.undo()

    assert caught.value.message == (
        "The journal kept changing while the undo was being planned; nothing was restored."
    )
    assert caught.value.hint == "Other processes are editing these files. Retry in a moment."
    assert len(reads) == 10  # five plans, each read twice (before and after taking the locks)
    assert (workspace / "a.txt").read_bytes() == b"1\n"
    assert all(entry.operation == "edit" for entry in read_entries())


def _meddled(
    engine: EditEngine,
    monkeypatch: pytest.MonkeyPatch,
    *,
    after_read: int,
    meddle: Callable[[], object],
) -> None:
    """``meddle`` runs right after the undo's plan read the file under the lock (1), or
    right before the write's last look at it (2)."""
    from editengine.journal import _transaction as transaction
    from editengine.journal import _undo as undo_module

    read_under_lock = undo_module._snapshot
    last_look = transaction.last_look

    def read_then_meddle(*args: object, **kwargs: object) -> object:
        snapshot = read_under_lock(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given
        if after_read == 1:
            meddle()
        return snapshot

    def meddle_then_look(*args: object, **kwargs: object) -> object:
        if after_read == 2:
            meddle()
        return last_look(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(undo_module, "_snapshot", read_then_meddle)
    monkeypatch.setattr(transaction, "last_look", meddle_then_look)


def _history(engine: EditEngine, write: Callable[..., Path], *, created: bool) -> str:
    """a.py edited to "x = 2" (or created so); the summary of that write."""
    if created:
        engine.edit("a.py", "", "x = 2\n")
        return "Created a.py (1 line)"
    write("a.py", "x = 1\n")
    engine.edit("a.py", "x = 1", "x = 2")
    return "Replaced 1 occurrence in a.py (exact match)"


@pytest.mark.parametrize("after_read", [1, 2], ids=["after-the-plan", "during-the-write"])
@pytest.mark.parametrize("created", [False, True], ids=["edited", "created"])
def test_a_program_ignoring_the_lock_is_named_by_the_hash_of_what_it_wrote(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    after_read: int,
    created: bool,
) -> None:
    summary = _history(engine, write, created=created)
    path = workspace / "a.py"
    _meddled(
        engine, monkeypatch, after_read=after_read, meddle=lambda: path.write_bytes(b"theirs\n")
    )

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    now, left = short_sha(b"theirs\n"), short_sha(b"x = 2\n")
    assert caught.value.message == (
        f'a.py has changed (sha256 {now}…) since the write being undone — "{summary}" left '
        f"sha256 {left}…. Nothing was restored."
    )
    assert path.read_bytes() == b"theirs\n"
    assert [entry.operation for entry in engine.journal_entries()] == ["edit"]  # no undo


@pytest.mark.parametrize("after_read", [1, 2], ids=["after-the-plan", "during-the-write"])
def test_a_program_ignoring_the_lock_that_deletes_the_file_is_named_as_deleting_it(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    after_read: int,
) -> None:
    _history(engine, write, created=False)
    path = workspace / "a.py"
    _meddled(engine, monkeypatch, after_read=after_read, meddle=path.unlink)

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message.startswith("a.py has been deleted since the write being undone")
    assert not path.exists()


@pytest.mark.parametrize("after_read", [1, 2], ids=["after-the-plan", "during-the-write"])
def test_a_program_ignoring_the_lock_that_writes_binary_bytes_makes_the_undo_stale(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    after_read: int,
) -> None:
    _history(engine, write, created=False)
    path = workspace / "a.py"
    _meddled(
        engine, monkeypatch, after_read=after_read, meddle=lambda: path.write_bytes(b"\x00bin")
    )

    with pytest.raises(StaleFile) as caught:
        engine.undo()

    assert caught.value.message.startswith("a.py is no longer UTF-8 text")
    assert path.read_bytes() == b"\x00bin"


# ---------------------------------------------------------------- the disk refuses the write


def _edited(engine: EditEngine, write: Callable[..., Path]) -> None:
    write("sub/a.txt", "one\n")
    engine.edit("sub/a.txt", "one", "two")


def _created(engine: EditEngine, write: Callable[..., Path]) -> None:
    engine.edit("sub/a.txt", "", "two\n")


def _deleted_with_its_folder(engine: EditEngine, write: Callable[..., Path]) -> None:
    path = write("sub/a.txt", "one\n")
    target = engine.workspace.resolve("sub/a.txt")
    path.unlink()
    path.parent.rmdir()
    engine._writer.record(
        target, b"one\n", None, strategy="udiff", operation="patch", summary="Deleted sub/a.txt"
    )


@pytest.mark.parametrize(
    ("history", "refused", "message"),
    [
        (_edited, "replace", "Could not write sub/a.txt: No space left on device."),
        (_created, "unlink", "Could not delete sub/a.txt: No space left on device."),
        (
            _deleted_with_its_folder,
            "mkdir",
            "Could not create the folder 'sub' for sub/a.txt: No space left on device.",
        ),
        (
            _deleted_with_its_folder,
            "replace",
            "Could not write sub/a.txt: No space left on device.",
        ),
    ],
    ids=["rewrite", "delete", "recreate-folder", "recreate-in-new-folder"],
)
def test_a_write_the_disk_refuses_names_the_file_and_journals_no_undo(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    history: Callable[[EditEngine, Callable[..., Path]], None],
    refused: str,
    message: str,
) -> None:
    import errno

    history(engine, write)
    before = tree(workspace)
    entries = len(engine.journal_entries())

    real = getattr(os, refused)

    def full(*args: object, **kwargs: object) -> object:
        if not any(key.endswith("dir_fd") for key in kwargs):  # the lock files: left alone
            return real(*args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, refused, full)
    with pytest.raises(EditError) as caught:
        engine.undo()
    monkeypatch.undo()

    assert caught.value.message.startswith(message)
    assert caught.value.path == "sub/a.txt"
    assert tree(workspace) == before
    assert len(engine.journal_entries()) == entries


def test_a_file_replaced_by_a_folder_is_refused_naming_it(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    from editengine._errors import NotAFile

    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    path.unlink()
    path.mkdir()

    with pytest.raises(NotAFile) as caught:
        engine.undo()

    assert caught.value.path == "a.txt"
    assert caught.value.message.startswith("a.txt is a directory")
    assert path.is_dir()


def test_a_file_replaced_by_a_folder_right_before_the_rename_is_refused_naming_it(
    engine: EditEngine, workspace: Path, write: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from editengine._errors import NotAFile

    _history(engine, write, created=False)
    path = workspace / "a.py"

    def folder_in_its_place() -> None:
        path.unlink()
        path.mkdir()

    _meddled(engine, monkeypatch, after_read=2, meddle=folder_in_its_place)

    with pytest.raises(NotAFile) as caught:
        engine.undo()

    assert caught.value.path == "a.py"
    assert caught.value.message.startswith("a.py is a directory")
    assert path.is_dir()


def test_the_write_undone_elsewhere_while_the_undo_of_one_file_plans_names_that_file(
    engine: EditEngine, make_engine: Callable[..., EditEngine], write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")

    def undone_elsewhere_after_the_first_read(reads: int) -> None:
        if reads == 1:
            make_engine().undo("a.txt")  # another engine takes it back first

    after_each_journal_read(engine, undone_elsewhere_after_the_first_read)

    with pytest.raises(NothingToUndo) as caught:
        engine.undo("a.txt")

    assert caught.value.message == "The journal holds no write to undo of a.txt."


def test_a_file_locked_by_another_edit_too_long_is_named(
    make_engine: Callable[..., EditEngine], workspace: Path, write: Callable[..., Path]
) -> None:
    import threading

    from editengine._errors import WriteFailed

    engine = make_engine(lock_timeout=0.2)
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    holder = make_engine()
    target = holder.workspace.resolve("a.txt")
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with holder._locks.hold(target.real, display="a.txt"):
            held.set()
            release.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        held.wait(30)
        with pytest.raises(WriteFailed) as caught:
            engine.undo()
    finally:
        release.set()
        thread.join(30)

    assert caught.value.message.startswith("a.txt stayed locked by another edit")
    assert caught.value.path == "a.txt"
    assert (workspace / "a.txt").read_bytes() == b"two\n"


def test_a_write_failing_after_two_steps_puts_both_back(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from editengine._errors import WriteFailed
    from editengine.files import AnchoredDir

    for name in ("a", "b", "c"):
        write(f"{name}.txt", f"{name}1\n")
        engine.edit(f"{name}.txt", f"{name}1", f"{name}2")
    real_write = AnchoredDir.write
    calls: list[str] = []

    def third_fails(folder: AnchoredDir, name: str, data: bytes, **options: object) -> object:
        calls.append(name)
        if len(calls) == 3:
            raise WriteFailed(f"Could not write {name}: disk full.", path=name)
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", third_fails)
    with pytest.raises(WriteFailed) as caught:
        engine.undo(steps=3)

    assert (
        "The undo was rolled back: the 2 file(s) it had already written were put back, so no "
        "file was changed." in str(caught.value)
    )
    assert [(workspace / f"{n}.txt").read_bytes() for n in "abc"] == [b"a2\n", b"b2\n", b"c2\n"]
