"""EditEngine.apply_patch refusals: each says what stands in the way and what to do next, and
leaves every file (and folder) as it was."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from editengine import EditEngine, EditRejected, StaleFile, WriteFailed
from editengine._edits import Decision
from editengine._errors import BadRequest
from editengine.engine import _patching as patching
from editengine.files import AnchoredDir

FILES = {
    "src/a.py": "def a():\n    return 1\n",
    "src/b.py": "def b():\n    return 2\n",
}

TWO_FILES = (
    "*** Begin Patch\n"
    "*** Update File: src/a.py\n@@\n-    return 1\n+    return 10\n"
    "*** Update File: src/b.py\n@@\n-    return 2\n+    return 20\n"
    "*** Add File: pkg/new/mod.py\n+X = 1\n"
    "*** End Patch\n"
)

ONE_FILE = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 10\n"
ONE_FILE += "*** End Patch"


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (``None``) under ``root``."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes() if path.is_file() else None
        for path in sorted(root.rglob("*"))
    }


@pytest.fixture
def root(workspace: Path) -> Path:
    for path, content in FILES.items():
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / path).write_bytes(content.encode())
    return workspace


def make(root: Path, tmp_path: Path, **options: object) -> EditEngine:
    return EditEngine(root, lock_dir=tmp_path / "locks", **options)  # type: ignore[arg-type]  # passed on as given


def test_an_instruction_that_is_not_text_is_a_bad_request_naming_its_type(
    root: Path, tmp_path: Path
) -> None:
    before = tree(root)
    with pytest.raises(BadRequest) as caught:
        make(root, tmp_path).apply_patch(ONE_FILE, instruction=3)  # type: ignore[arg-type]  # a wrong type on purpose
    assert caught.value.message == "instruction must be a string, got int."
    assert tree(root) == before


def test_new_content_that_cannot_be_utf8_is_refused_before_any_write(
    root: Path, tmp_path: Path
) -> None:
    before = tree(root)
    patch = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 10\n"
    patch += "*** Add File: n.txt\n+bad \ud800 here\n*** End Patch"

    with pytest.raises(BadRequest) as caught:
        make(root, tmp_path).apply_patch(patch)

    assert caught.value.message == (
        "The new content of n.txt holds characters that cannot be written as UTF-8 "
        "(surrogates not allowed); nothing was written."
    )
    assert caught.value.hint == "Remove lone surrogate escapes (such as \\ud800) from the patch."
    assert tree(root) == before


# ---------------------------------------------------------------- approval


def test_a_rejection_without_a_reason_says_nothing_was_written_and_what_to_do(
    root: Path, tmp_path: Path
) -> None:
    before = tree(root)
    with pytest.raises(EditRejected) as caught:
        make(root, tmp_path, confirm=lambda request: False).apply_patch(TWO_FILES)
    assert caught.value.message == "The patch was rejected; nothing was written."
    assert caught.value.hint == "Ask the user what to change, or propose a different patch."
    assert tree(root) == before


def test_a_rejection_with_a_reason_quotes_it(root: Path, tmp_path: Path) -> None:
    engine = make(root, tmp_path, confirm=lambda request: Decision.reject("too broad"))
    with pytest.raises(EditRejected) as caught:
        engine.apply_patch(ONE_FILE)
    assert caught.value.message == "The patch was rejected (too broad); nothing was written."


@pytest.mark.parametrize(
    "patch",
    [TWO_FILES, "*** Begin Patch\n*** Delete File: src/a.py\n*** End Patch"],
    ids=["several-files", "a-deletion"],
)
def test_new_content_from_approval_is_refused_unless_the_patch_writes_one_file(
    root: Path, tmp_path: Path, patch: str
) -> None:
    before = tree(root)
    engine = make(root, tmp_path, confirm=lambda request: Decision.modify("mine\n"))

    with pytest.raises(EditRejected) as caught:
        engine.apply_patch(patch)

    assert caught.value.message == (
        "The confirm callback answered with new content, which only applies to a patch that "
        "changes one file; nothing was written."
    )
    assert caught.value.hint == "Approve or reject a multi-file patch as a whole."
    assert tree(root) == before


# ---------------------------------------------------------------- files changed meanwhile


def test_a_file_changed_while_the_patch_waited_for_approval_is_named(
    root: Path, tmp_path: Path
) -> None:
    def meddle(request: object) -> bool:
        (root / "src/b.py").write_text("def b():\n    return 99\n")
        return True

    with pytest.raises(StaleFile) as caught:
        make(root, tmp_path, confirm=meddle).apply_patch(TWO_FILES)

    assert caught.value.message == (
        "src/b.py changed on disk while the patch was being prepared; nothing was written."
    )
    assert caught.value.hint == (
        "Read the file again and redo the patch against its current content."
    )
    assert caught.value.path == "src/b.py"
    assert (root / "src/a.py").read_text() == FILES["src/a.py"]


def _after_the_commit_reads(
    monkeypatch: pytest.MonkeyPatch, meddle: Callable[[], object], *, reads: int
) -> None:
    """Run ``meddle`` once the commit has read ``reads`` files under their locks."""
    real_read = patching._read
    seen = {"n": 0}
    in_commit = {"on": False}
    real_commit = patching._commit

    def commit(*args: object, **kwargs: object) -> object:
        in_commit["on"] = True
        return real_commit(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    def read(*args: object, **kwargs: object) -> object:
        snapshot = real_read(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given
        if in_commit["on"]:
            seen["n"] += 1
            if seen["n"] == reads:
                meddle()
        return snapshot

    monkeypatch.setattr(patching, "_commit", commit)
    monkeypatch.setattr(patching, "_read", read)


def test_a_file_written_by_another_program_during_the_commit_is_not_clobbered(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another program, which takes no lock, writes src/b.py once the commit has checked it:
    # the check right before the rename sees it, and every file already written is restored.
    theirs = b"def b():\n    return 'theirs'\n"
    _after_the_commit_reads(monkeypatch, lambda: (root / "src/b.py").write_bytes(theirs), reads=2)

    with pytest.raises(StaleFile) as caught:
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert caught.value.message.startswith(
        "src/b.py was changed by another program during the patch; nothing was written."
    )
    assert caught.value.hint == "Read the file again and redo the patch."
    assert caught.value.path == "src/b.py"
    assert tree(root) == {
        "src": None,
        "src/a.py": FILES["src/a.py"].encode(),
        "src/b.py": theirs,
    }


def test_a_folder_moved_away_during_the_commit_is_named_and_nothing_is_written(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _after_the_commit_reads(monkeypatch, lambda: os.rename(root / "src", root / "gone"), reads=1)

    with pytest.raises(StaleFile) as caught:
        make(root, tmp_path).apply_patch(ONE_FILE + "\n")

    assert caught.value.message.startswith(
        "The folder of src/a.py was moved or deleted during the patch; nothing was written."
    )
    assert caught.value.hint == (
        "Check the folder layout, read the files again and redo the patch."
    )
    assert caught.value.path == "src/a.py"
    assert tree(root) == {"gone": None, "gone/a.py": FILES["src/a.py"].encode(), "gone/b.py":
                          FILES["src/b.py"].encode()}  # fmt: skip


# ---------------------------------------------------------------- a write fails


def test_a_failed_write_rolls_back_and_counts_the_files_it_restored(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = tree(root)
    real_write = AnchoredDir.write
    calls = {"n": 0}

    def third_fails(
        folder: AnchoredDir, name: str, data: bytes, **options: object
    ) -> tuple[str, ...]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise WriteFailed(f"Could not write {name}: disk full.", path=name)
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", third_fails)
    with pytest.raises(WriteFailed) as caught:
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert caught.value.message.startswith("Could not write mod.py: disk full.")
    assert (
        "The patch was rolled back: 2 file(s) already written were restored; no file was "
        "changed." in str(caught.value)
    )
    assert tree(root) == before  # pkg/ and pkg/new/ made for mod.py are gone again


def test_a_failed_write_in_a_new_folder_removes_only_the_folders_it_made(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "keep.txt").write_text("keep\n")
    before = tree(root)
    real_write = AnchoredDir.write

    def fails_in_new(
        folder: AnchoredDir, name: str, data: bytes, **options: object
    ) -> tuple[str, ...]:
        if name == "b.py":
            raise WriteFailed("Could not write src/b.py: disk full.", path="src/b.py")
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", fails_in_new)
    patch = "*** Begin Patch\n*** Add File: pkg/new/deeper/mod.py\n+X = 1\n"
    patch += "*** Update File: src/b.py\n@@\n-    return 2\n+    return 20\n*** End Patch"

    with pytest.raises(WriteFailed):
        make(root, tmp_path).apply_patch(patch)

    assert tree(root) == before


# ---------------------------------------------------------------- the journal and the tracker


def test_a_patch_is_journaled_as_one_group_and_undone_in_one_step(
    root: Path, tmp_path: Path
) -> None:
    engine = make(root, tmp_path)
    before = tree(root)

    engine.apply_patch(TWO_FILES)
    entries = engine.journal_entries()

    assert [(e.path, e.operation, e.summary, e.strategy) for e in entries] == [
        ("src/a.py", "patch", "Patched src/a.py", "exact"),
        ("src/b.py", "patch", "Patched src/b.py", "exact"),
        ("pkg/new/mod.py", "patch", "Patched pkg/new/mod.py", "exact"),
    ]
    assert entries[0].group is not None and {e.group for e in entries} == {entries[0].group}
    assert entries[0].mode == (root / "src/a.py").stat().st_mode & 0o7777
    assert entries[2].before_sha256 is None

    engine.undo()

    assert {k: v for k, v in tree(root).items() if not k.startswith("pkg")} == before


def test_after_a_patch_the_agent_may_edit_its_files_without_reading_them_again(
    root: Path, tmp_path: Path
) -> None:
    from editengine import ReadTracker

    engine = make(root, tmp_path, read_tracker=ReadTracker(require_read=True))
    engine.read_file("src/a.py")
    engine.read_file("src/b.py")

    engine.apply_patch(TWO_FILES)
    engine.edit("src/a.py", "return 10", "return 11")
    engine.edit("pkg/new/mod.py", "X = 1", "X = 2")

    assert (root / "src/a.py").read_text() == "def a():\n    return 11\n"
    assert (root / "pkg/new/mod.py").read_text() == "X = 2\n"


def test_a_patch_on_a_file_changed_since_the_agent_read_it_names_the_file(
    root: Path, tmp_path: Path
) -> None:
    from editengine import ReadTracker

    engine = make(root, tmp_path, read_tracker=ReadTracker())
    engine.read_file("src/b.py")
    (root / "src/b.py").write_text("def b():\n    return 2  # by hand\n")
    before = tree(root)

    with pytest.raises(StaleFile) as caught:
        engine.apply_patch(TWO_FILES)

    assert caught.value.path == "src/b.py"
    assert tree(root) == before


def test_a_rolled_back_file_keeps_its_permission_bits(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.chmod(root / "src/a.py", 0o751)
    real_write = AnchoredDir.write
    calls = {"n": 0}

    def second_fails(
        folder: AnchoredDir, name: str, data: bytes, **options: object
    ) -> tuple[str, ...]:
        calls["n"] += 1
        if calls["n"] == 2:
            raise WriteFailed(f"Could not write {name}: disk full.", path=name)
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", second_fails)
    with pytest.raises(WriteFailed):
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert (root / "src/a.py").read_text() == FILES["src/a.py"]
    assert (root / "src/a.py").stat().st_mode & 0o777 == 0o751


def test_a_patch_may_add_a_file_the_agent_read_before_it_was_deleted(
    root: Path, tmp_path: Path
) -> None:
    from editengine import ReadTracker

    engine = make(root, tmp_path, read_tracker=ReadTracker())
    (root / "n.txt").write_text("old\n")
    engine.read_file("n.txt")
    (root / "n.txt").unlink()

    engine.apply_patch("*** Begin Patch\n*** Add File: n.txt\n+new\n*** End Patch")

    assert (root / "n.txt").read_text() == "new\n"


# ---------------------------------------------------------------- a rollback that meets errors


def _failing_then_breaking_the_rollback(
    monkeypatch: pytest.MonkeyPatch, breakage: BaseException
) -> None:
    """The 3rd write fails (the patch's own failure); the 4th, the rollback's first restore
    (of src/b.py), meets ``breakage``; the rest goes through."""
    real_write = AnchoredDir.write
    calls = {"n": 0}

    def flaky(folder: AnchoredDir, name: str, data: bytes, **options: object) -> tuple[str, ...]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise WriteFailed(f"Could not write {name}: disk full.", path=name)
        if calls["n"] == 4:
            raise breakage
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", flaky)


@pytest.mark.parametrize(
    "breakage",
    [
        OSError(5, "Input/output error"),
        WriteFailed("Could not write src/b.py: disk full.", path="src/b.py"),
        None,  # a MissingFolder, made in the test (it needs no import here)
    ],
    ids=["os-error", "edit-error", "missing-folder"],
)
def test_a_rollback_that_cannot_restore_one_file_restores_the_others_and_raises_the_failure(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, breakage: BaseException | None
) -> None:
    from editengine.files import MissingFolder

    _failing_then_breaking_the_rollback(monkeypatch, breakage or MissingFolder("src"))

    with pytest.raises(WriteFailed) as caught:
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert caught.value.message.startswith("Could not write mod.py: disk full.")
    assert "1 file(s) already written were restored" in str(caught.value)
    assert (root / "src/a.py").read_text() == FILES["src/a.py"]
    assert (root / "src/b.py").read_text() == "def b():\n    return 20\n"  # left as written


def test_a_folder_the_patch_made_stays_when_another_program_put_a_file_in_it(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = AnchoredDir.write
    calls = {"n": 0}

    def flaky(folder: AnchoredDir, name: str, data: bytes, **options: object) -> tuple[str, ...]:
        calls["n"] += 1
        if calls["n"] == 2:
            (root / "pkg/new/theirs.txt").write_text("theirs\n")
            raise WriteFailed(f"Could not write {name}: disk full.", path=name)
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", flaky)
    patch = "*** Begin Patch\n*** Add File: pkg/new/mod.py\n+X = 1\n"
    patch += "*** Update File: src/b.py\n@@\n-    return 2\n+    return 20\n*** End Patch"

    with pytest.raises(WriteFailed) as caught:
        make(root, tmp_path).apply_patch(patch)

    assert "1 file(s) already written were restored" in str(caught.value)
    assert not (root / "pkg/new/mod.py").exists()
    assert (root / "pkg/new/theirs.txt").read_text() == "theirs\n"


# ---------------------------------------------------------------- what approval may answer


def test_an_approval_carrying_content_writes_the_patch_as_proposed(
    root: Path, tmp_path: Path
) -> None:
    engine = make(root, tmp_path, confirm=lambda request: Decision("approve", content="x\n"))

    engine.apply_patch(ONE_FILE)

    assert (root / "src/a.py").read_text() == "def a():\n    return 10\n"


def test_confirm_about_deleting_one_file_sees_its_text_and_no_new_text(
    root: Path, tmp_path: Path
) -> None:
    from editengine._edits import ConfirmRequest

    seen: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> bool:
        seen.append(request)
        return True

    make(root, tmp_path, confirm=confirm).apply_patch(
        "*** Begin Patch\n*** Delete File: src/a.py\n*** End Patch"
    )

    [request] = seen
    assert (request.old_text, request.new_text, request.created) == (FILES["src/a.py"], "", False)
    assert not (root / "src/a.py").exists()


# ---------------------------------------------------------------- the disk refuses a write


@pytest.mark.parametrize(
    ("patch", "refused", "message"),
    [
        (ONE_FILE, "replace", "Could not write src/a.py: No space left on device."),
        (
            "*** Begin Patch\n*** Delete File: src/a.py\n*** End Patch",
            "unlink",
            "Could not delete src/a.py: No space left on device.",
        ),
        (
            "*** Begin Patch\n*** Add File: pkg/mod.py\n+x\n*** End Patch",
            "mkdir",
            "Could not create the folder 'pkg' for pkg/mod.py: No space left on device.",
        ),
    ],
    ids=["rewrite", "delete", "new-folder"],
)
def test_a_write_the_disk_refuses_names_the_file(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, patch: str, refused: str,
    message: str,
) -> None:  # fmt: skip
    import errno

    engine = make(root, tmp_path)
    before = tree(root)
    real = getattr(os, refused)

    def full(*args: object, **kwargs: object) -> object:
        if not any(key.endswith("dir_fd") for key in kwargs):  # the lock files: left alone
            return real(*args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, refused, full)
    with pytest.raises(WriteFailed) as caught:
        engine.apply_patch(patch)
    monkeypatch.undo()

    assert caught.value.message.startswith(message)
    assert tree(root) == before


def test_a_patched_file_keeps_its_permission_bits(root: Path, tmp_path: Path) -> None:
    os.chmod(root / "src/a.py", 0o751)

    make(root, tmp_path).apply_patch(ONE_FILE)

    assert (root / "src/a.py").stat().st_mode & 0o777 == 0o751


def test_a_file_replaced_by_a_folder_during_the_commit_is_named_and_the_patch_rolled_back(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from editengine._errors import NotAFile

    def folder_in_its_place() -> None:
        (root / "src/b.py").unlink()
        (root / "src/b.py").mkdir()

    _after_the_commit_reads(monkeypatch, folder_in_its_place, reads=3)

    with pytest.raises(NotAFile) as caught:
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert caught.value.path == "src/b.py"
    assert (root / "src/a.py").read_text() == FILES["src/a.py"]
    assert (root / "src/b.py").is_dir() and not (root / "pkg").exists()


def test_a_new_file_whose_folder_became_a_file_during_the_commit_is_named(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from editengine._errors import NotAFile

    _after_the_commit_reads(monkeypatch, lambda: (root / "pkg").write_text("a file\n"), reads=3)

    with pytest.raises(NotAFile) as caught:
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert caught.value.path == "pkg/new/mod.py"
    assert caught.value.message.startswith("pkg/new/mod.py cannot be reached")
    assert (root / "src/a.py").read_text() == FILES["src/a.py"]
    assert (root / "src/b.py").read_text() == FILES["src/b.py"]
    assert (root / "pkg").read_text() == "a file\n"


def test_a_patch_on_a_binary_file_is_refused_naming_it(root: Path, tmp_path: Path) -> None:
    from editengine._errors import BinaryFile

    (root / "src/a.py").write_bytes(b"\x00\x01binary")
    before = tree(root)

    with pytest.raises(BinaryFile) as caught:
        make(root, tmp_path).apply_patch(TWO_FILES)

    assert caught.value.path == "src/a.py"
    assert caught.value.message.startswith("src/a.py looks like a binary file")
    assert tree(root) == before


@pytest.mark.parametrize("replacement", ["nothing", "a-link-out"])
def test_a_rollback_whose_new_folders_were_moved_away_still_counts_the_file_it_removed(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, replacement: str
) -> None:
    # The patch made pkg/new/ for mod.py, then failed; right after the rollback removed
    # mod.py another program moved pkg/ away (and put a link leading out in its place): the
    # folders are left where they are now, nothing is followed out of the workspace.
    outside = tmp_path / "outside"
    outside.mkdir()
    real_write, real_delete = AnchoredDir.write, AnchoredDir.delete

    def second_fails(
        folder: AnchoredDir, name: str, data: bytes, **options: object
    ) -> tuple[str, ...]:
        if name == "b.py":
            raise WriteFailed("Could not write src/b.py: disk full.", path="src/b.py")
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    def delete_then_move(folder: AnchoredDir, name: str, **options: object) -> None:
        real_delete(folder, name, **options)  # type: ignore[arg-type]  # passed on as given
        os.rename(root / "pkg", root / "moved")
        if replacement == "a-link-out":
            (root / "pkg").symlink_to(outside)

    monkeypatch.setattr(AnchoredDir, "write", second_fails)
    monkeypatch.setattr(AnchoredDir, "delete", delete_then_move)
    patch = "*** Begin Patch\n*** Add File: pkg/new/mod.py\n+X = 1\n"
    patch += "*** Update File: src/b.py\n@@\n-    return 2\n+    return 20\n*** End Patch"

    with pytest.raises(WriteFailed) as caught:
        make(root, tmp_path).apply_patch(patch)

    assert "The patch was rolled back: 1 file(s) already written were restored" in str(caught.value)
    assert (root / "moved" / "new").is_dir() and not (root / "moved/new/mod.py").exists()
    assert list(outside.iterdir()) == []
