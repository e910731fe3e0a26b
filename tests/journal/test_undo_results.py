"""What undo and redo answer: the summary, one line per step, the diffs, the JSON shape."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from editengine import StaleFile
from editengine.engine import EditEngine


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def edited_and_created(engine: EditEngine, write: Callable[..., Path]) -> EditEngine:
    """a.txt edited ("one" -> "two"), then b.txt created by an edit."""
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("b.txt", "", "new\n")
    return engine


def test_undoing_two_writes_reads_as_a_summary_a_line_per_step_then_the_diffs(
    edited_and_created: EditEngine,
) -> None:
    result = edited_and_created.undo(steps=2)

    assert result.summary == "Undid 2 writes: a.txt, b.txt"
    assert result.files == ("b.txt", "a.txt")  # newest reversed write first
    assert result.text() == (
        "Undid 2 writes: a.txt, b.txt.\n\n"
        "Deleted b.txt, which the undone write had created (Created b.txt (1 line)).\n\n"
        "Restored a.txt to its content before: Replaced 1 occurrence in a.txt (exact match).\n\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -1 +0,0 @@\n-new\n\n"
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n+one"
    )


def test_one_write_is_counted_in_the_singular_and_redo_says_what_it_redid(
    edited_and_created: EditEngine,
) -> None:
    engine = edited_and_created
    undone = engine.undo("a.txt")
    assert undone.summary == "Undid 1 write: a.txt"

    redone = engine.redo()

    assert redone.operation == "redo"
    assert redone.summary == "Redid 1 write: a.txt"
    assert redone.text() == (
        "Redid 1 write: a.txt.\n\n"
        "Redid in a.txt: undo of: Replaced 1 occurrence in a.txt (exact match).\n\n"
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two"
    )


def test_redoing_the_deletion_of_a_created_file_shows_it_created_again(
    edited_and_created: EditEngine, workspace: Path
) -> None:
    engine = edited_and_created
    engine.undo()  # b.txt deleted

    redone = engine.redo()

    assert (workspace / "b.txt").read_bytes() == b"new\n"
    step = redone.restored[0]
    assert step.created and not step.deleted
    assert step.diff == "--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+new\n"


def test_the_json_of_an_undo_holds_each_step_its_hashes_and_the_entry_it_reversed(
    edited_and_created: EditEngine,
) -> None:
    engine = edited_and_created
    entries = engine.journal_entries()

    result = engine.undo(steps=2)

    assert result.to_dict() == {
        "operation": "undo",
        "summary": "Undid 2 writes: a.txt, b.txt",
        "restored": [
            {
                "file_path": "b.txt",
                "reversed": entries[1].to_dict(),
                "hash_before": sha(b"new\n"),
                "hash_after": None,
                "deleted": True,
                "created": False,
                "diff": "--- a/b.txt\n+++ b/b.txt\n@@ -1 +0,0 @@\n-new\n",
            },
            {
                "file_path": "a.txt",
                "reversed": entries[0].to_dict(),
                "hash_before": sha(b"two\n"),
                "hash_after": sha(b"one\n"),
                "deleted": False,
                "created": False,
                "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n+one\n",
            },
        ],
        "notes": [],
    }


def test_a_step_whose_entry_has_no_summary_is_described_by_its_operation_and_path(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    target = engine.workspace.resolve("a.txt")
    (workspace / "a.txt").write_bytes(b"two\n")
    engine._writer.record(target, b"one\n", b"two\n", strategy=None, operation="edit", summary="")

    undone = engine.undo()

    assert "Restored a.txt to its content before: edit of a.txt." in undone.text()
    assert engine.journal_entries()[-1].summary == "undo of: edit a.txt"


def test_undoing_a_write_whose_old_bytes_were_not_utf8_restores_them_and_still_shows_a_diff(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    # Code that writes files journals them through the engine's one recording call; the old
    # bytes need not be text the engine could have edited.
    latin1 = "caf\u00e9\n".encode("latin-1")
    write("a.txt", latin1)
    target = engine.workspace.resolve("a.txt")
    (workspace / "a.txt").write_bytes(b"cafe\n")
    engine._writer.record(
        target, latin1, b"cafe\n", strategy=None, operation="write", summary="Wrote a.txt"
    )

    result = engine.undo()

    assert (workspace / "a.txt").read_bytes() == latin1
    assert result.restored[0].diff.endswith("-cafe\n+caf\ufffd\n")


def test_a_journal_that_cannot_take_the_undo_leaves_a_note_and_the_file_restored(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    caplog: pytest.LogCaptureFixture,
) -> None:
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    assert engine.journal is not None
    journal = engine.journal

    def refuse(*args: object, **kwargs: object) -> None:
        from editengine._errors import JournalError

        raise JournalError("the disk is full")

    entries = journal.entries()
    journal.record = refuse  # type: ignore[method-assign]  # a test double put in place
    journal.begin = refuse  # type: ignore[method-assign,assignment]  # a test double put in place

    result = engine.undo()

    assert (workspace / "a.txt").read_bytes() == b"one\n"
    note = (
        "The write of a.txt succeeded but could not be recorded in the undo journal "
        "(the disk is full); it cannot be undone with editengine."
    )
    assert result.notes == (note,)
    assert result.to_dict()["notes"] == [note]
    assert result.text().split("\n\n")[2] == note
    assert journal.entries() == entries
    assert "could not journal the write of a.txt: the disk is full" in caplog.messages


def test_the_entries_of_one_file_are_listed_alone_oldest_first(
    engine: EditEngine, write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    write("b.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("b.txt", "one", "two")
    engine.edit("a.txt", "two", "three")

    listed = engine.journal_entries("a.txt")

    assert [(entry.path, entry.seq) for entry in listed] == [("a.txt", 1), ("a.txt", 3)]
    assert len(engine.journal_entries()) == 3


def test_an_undo_is_journaled_as_an_entry_naming_the_write_it_reversed(
    edited_and_created: EditEngine,
) -> None:
    engine = edited_and_created
    created = engine.journal_entries()[-1]

    engine.undo()
    undone = engine.journal_entries()[-1]
    engine.redo()
    redone = engine.journal_entries()[-1]

    assert (undone.operation, undone.strategy, undone.target) == ("undo", "undo", created.id)
    assert undone.summary == "undo of: Created b.txt (1 line)"
    assert (undone.before_sha256, undone.after_sha256) == (sha(b"new\n"), None)
    assert (redone.operation, redone.strategy, redone.target) == ("redo", "redo", undone.id)
    assert redone.summary == "redo of: undo of: Created b.txt (1 line)"


def test_redo_twice_after_undoing_two_writes_of_one_file_reapplies_both_in_order(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("a.txt", "two", "three")
    engine.undo(steps=2)
    assert path.read_bytes() == b"one\n"

    engine.redo()
    assert path.read_bytes() == b"two\n"
    engine.redo()  # the redo just journaled does not hide the older undo
    assert path.read_bytes() == b"three\n"


def test_the_journal_listing_marks_only_the_writes_still_in_effect_as_undoable(
    engine: EditEngine, write: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from editengine.cli import main

    write("a.txt", "one\n")
    write("b.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("b.txt", "one", "two")
    engine.undo()  # b.txt's edit
    assert engine.journal is not None

    status = main(["undo", "--list", "--json", "--root", str(engine.root),
                   "--journal-dir", str(engine.journal.base)])  # fmt: skip

    assert status == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(row["path"], row["operation"], row["undoable"]) for row in rows] == [
        ("a.txt", "edit", True),
        ("b.txt", "edit", False),
        ("b.txt", "undo", False),
    ]


def test_two_patches_undone_at_once_stay_two_steps_for_redo(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    for name in ("a", "b", "c", "d"):
        write(f"{name}.txt", f"{name}1\n")

    def patch(first: str, second: str) -> str:
        return (
            f"*** Begin Patch\n*** Update File: {first}.txt\n@@\n-{first}1\n+{first}2\n"
            f"*** Update File: {second}.txt\n@@\n-{second}1\n+{second}2\n*** End Patch"
        )

    engine.apply_patch(patch("a", "b"))
    engine.apply_patch(patch("c", "d"))
    engine.undo(steps=2)

    redone = engine.redo()  # the newest undo: the first patch's

    assert sorted(redone.files) == ["a.txt", "b.txt"]
    assert [(workspace / f"{n}.txt").read_bytes() for n in "abcd"] == [
        b"a2\n",
        b"b2\n",
        b"c1\n",
        b"d1\n",
    ]


def test_the_text_keeps_each_diff_whole_but_its_last_newline(
    engine: EditEngine, write: Callable[..., Path]
) -> None:
    # Trailing spaces and a last character that happens to be an X are part of the diff.
    write("pad.py", "pad = 1  \n")
    write("flag.py", "FLAG = X\n")
    engine.edit("pad.py", "pad = 1", "pad = 2")
    engine.edit("flag.py", "FLAG = X", "FLAG = Y")

    text = engine.undo(steps=2).text()

    assert text.endswith(
        "-FLAG = Y\n+FLAG = X\n\n--- a/pad.py\n+++ b/pad.py\n@@ -1 +1 @@\n-pad = 2  \n+pad = 1  "
    )


def _listed(engine: EditEngine, capsys: pytest.CaptureFixture[str]) -> list[str]:
    from editengine.cli import main

    assert engine.journal is not None
    # A terminal wide enough for each entry to stand on one row (the table wraps to fit).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "250")
        status = main(["undo", "--list", "--root", str(engine.root),
                       "--journal-dir", str(engine.journal.base)])  # fmt: skip
    assert status == 0
    return capsys.readouterr().out.splitlines()[1:]  # the rows under the header


def test_the_listing_marks_only_what_undo_would_accept(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    write("a.txt", "one\n")
    write("b.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    engine.edit("a.txt", "two", "three")
    engine.edit("b.txt", "one", "two")
    (workspace / "b.txt").write_text("changed by hand\n")  # undo of b.txt would be refused

    rows = _listed(engine, capsys)

    marks = [(row[0], row[1:].split()[4]) for row in rows[:-1]]
    assert marks == [("*", "a.txt"), ("*", "a.txt"), (" ", "b.txt")]
    with pytest.raises(StaleFile):
        engine.undo("b.txt")
    engine.undo("a.txt", steps=2)  # both marked writes are indeed undone
    assert (workspace / "a.txt").read_text() == "one\n"


def test_the_listing_escapes_names_that_would_forge_rows_or_send_escape_codes(
    engine: EditEngine, write: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    name = "a\x1b[31m.txt"
    write(name, "one\n")
    engine.edit(name, "one", "two")
    assert engine.journal is not None
    forged = "x.txt  summary\n*     9  2026-01-01 00:00:00  edit       forged.txt"
    engine.journal.record("b.txt", None, b"x\n", summary=forged)

    rows = _listed(engine, capsys)

    assert len(rows) == 3  # two entries and the legend: no forged row
    assert "\x1b" not in "".join(rows) and "a\\x1b[31m.txt" in rows[0]
    assert "\\n*     9" in rows[1]


def test_undoing_an_added_file_removes_the_folders_it_created(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("keep/old.txt", "x\n")
    engine.apply_patch(
        "*** Begin Patch\n*** Add File: keep/new/deeper/a.txt\n+a\n"
        "*** Add File: fresh/b.txt\n+b\n*** End Patch\n"
    )
    engine.edit("solo/dir/c.txt", "", "c\n")  # an edit creating folders is not journaled so
    engine.undo(steps=2)
    assert sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*")) == [
        "keep",
        "keep/old.txt",
        "solo",
        "solo/dir",
    ]
    engine.redo()  # the folders come back with the file
    assert (workspace / "keep/new/deeper/a.txt").read_text() == "a\n"
