"""EditEngine.apply_patch on real files: all or nothing across files, inside the workspace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from editengine import EditEngine, EditRejected, PatchFailed, StaleFile, WriteFailed
from editengine._edits import ConfirmRequest, Decision
from editengine._errors import PathOutsideWorkspace
from editengine._results import EditResult
from editengine._state import EditState
from editengine.files import AnchoredDir
from editengine.fixer._protocol import Correction, FixRequest
from editengine.journal import _transaction as transaction

FILES = {
    "src/a.py": "def a():\n    return 1\n",
    "src/b.py": "def b():\n    return 2\n",
    "src/c.py": "def c():\n    return 3\n",
    "old.txt": "old\n",
}

PATCH = (
    "*** Begin Patch\n"
    "*** Update File: src/a.py\n@@\n def a():\n-    return 1\n+    return 10\n"
    "*** Update File: src/b.py\n@@\n def b():\n-    return 2\n+    return 20\n"
    "*** Add File: pkg/new/mod.py\n+X = 1\n"
    "*** Delete File: old.txt\n"
    "*** Update File: src/c.py\n*** Move to: lib/c.py\n"
    "@@\n def c():\n-    return 3\n+    return 30\n"
    "*** End Patch\n"
)

AFTER = {
    "src/a.py": "def a():\n    return 10\n",
    "src/b.py": "def b():\n    return 20\n",
    "pkg/new/mod.py": "X = 1\n",
    "lib/c.py": "def c():\n    return 30\n",
}


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``root``: path -> bytes (``None`` for a folder)."""
    found: dict[str, bytes | None] = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs:
            found[os.path.relpath(os.path.join(folder, name), root)] = None
        for name in names:
            path = os.path.join(folder, name)
            found[os.path.relpath(path, root)] = Path(path).read_bytes()
    return found


@pytest.fixture
def root(workspace: Path) -> Path:
    for path, content in FILES.items():
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / path).write_bytes(content.encode())
    return workspace


@pytest.fixture
def engine(root: Path, tmp_path: Path) -> EditEngine:
    return EditEngine(root, lock_dir=tmp_path / "locks")


def make(root: Path, tmp_path: Path, **options: object) -> EditEngine:
    return EditEngine(root, lock_dir=tmp_path / "locks", **options)  # type: ignore[arg-type]  # passed on as given


def test_a_multi_file_patch_updates_adds_deletes_and_moves(engine: EditEngine, root: Path) -> None:
    result = engine.apply_patch(PATCH)
    tree = {p: c.decode() for p, c in snapshot(root).items() if c is not None}
    assert tree == AFTER
    assert result.files == {**AFTER, "old.txt": None, "src/c.py": None}
    assert "3 files updated" not in result.summary and "2 files updated" in result.summary
    assert "1 file added" in result.summary and "1 file deleted" in result.summary
    assert "1 file moved" in result.summary
    assert "+++ b/pkg/new/mod.py" in result.diff and "+++ /dev/null" in result.diff
    assert {r.file_path for r in result.results} == {*AFTER, "old.txt", "src/c.py"}


def test_dry_run_reports_the_diff_and_writes_nothing(engine: EditEngine, root: Path) -> None:
    before = snapshot(root)
    result = engine.apply_patch(PATCH, dry_run=True)
    assert snapshot(root) == before
    assert result.dry_run and result.summary.startswith("Preview (dry run)")
    assert "-    return 1\n+    return 10" in result.diff
    assert result.files["src/a.py"] == AFTER["src/a.py"]


def test_a_hunk_failing_in_the_third_file_leaves_the_first_two_untouched(
    engine: EditEngine, root: Path
) -> None:
    before = snapshot(root)
    broken = PATCH.replace("-    return 3\n", "-    return 333\n")
    with pytest.raises(PatchFailed) as caught:
        engine.apply_patch(broken)
    assert caught.value.path == "src/c.py" and caught.value.hunk == 1
    assert snapshot(root) == before


@pytest.mark.parametrize("failing_write", [1, 2, 3, 4])
def test_a_fault_at_any_write_restores_every_file_already_written(
    engine: EditEngine, root: Path, monkeypatch: pytest.MonkeyPatch, failing_write: int
) -> None:
    before = snapshot(root)
    real_write = AnchoredDir.write
    calls = {"n": 0}

    def flaky(folder: AnchoredDir, name: str, data: bytes, **options: object) -> tuple[str, ...]:
        calls["n"] += 1
        if calls["n"] == failing_write:
            raise WriteFailed(f"disk full writing {name}", path=name)
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", flaky)
    with pytest.raises(WriteFailed) as caught:
        engine.apply_patch(PATCH)
    assert "rolled back" in str(caught.value)
    assert snapshot(root) == before


def test_a_fault_deleting_a_file_restores_every_file_already_written(
    engine: EditEngine, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(root)

    real_unlink = os.unlink

    def refuse(path: object, *args: object, **kwargs: object) -> None:
        if os.fspath(path).endswith("old.txt"):  # type: ignore[call-overload]  # path is any PathLike here
            raise PermissionError(13, "Permission denied")
        real_unlink(path, *args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(os, "unlink", refuse)
    with pytest.raises(WriteFailed):
        engine.apply_patch(PATCH)
    assert snapshot(root) == before


def test_a_crash_mid_commit_also_rolls_back(
    engine: EditEngine, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(root)
    real_write = transaction.write_file
    calls = {"n": 0}

    def crash(engine: EditEngine, step: object) -> list[Path]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real_write(engine, step)  # type: ignore[arg-type]  # a stand-in, not the real type

    monkeypatch.setattr(transaction, "write_file", crash)
    with pytest.raises(KeyboardInterrupt):
        engine.apply_patch(PATCH)
    assert snapshot(root) == before


@pytest.mark.parametrize(
    "section",
    [
        "*** Add File: ../escape.txt\n+x\n",
        "*** Delete File: ../outside.txt\n",
        "*** Update File: src/a.py\n*** Move to: ../../moved.py\n@@\n-    return 1\n+    return\n",
        f"*** Add File: {os.sep}tmp{os.sep}abs-escape.txt\n+x\n",
    ],
)
def test_paths_escaping_the_workspace_are_refused_before_anything_is_written(
    engine: EditEngine, root: Path, section: str
) -> None:
    outside = root.parent / "outside.txt"
    outside.write_text("keep\n")
    before = snapshot(root.parent)
    text = PATCH.replace("*** End Patch\n", section + "*** End Patch\n")
    with pytest.raises(PathOutsideWorkspace):
        engine.apply_patch(text)
    assert snapshot(root.parent) == before
    assert not Path("/tmp/abs-escape.txt").exists()


def test_a_symlink_leading_out_is_refused(engine: EditEngine, root: Path) -> None:
    outside = root.parent / "secret"
    outside.mkdir()
    (root / "link").symlink_to(outside)
    with pytest.raises(PathOutsideWorkspace):
        engine.apply_patch("*** Begin Patch\n*** Add File: link/x.txt\n+x\n*** End Patch\n")
    assert list(outside.iterdir()) == []


def test_confirm_sees_the_combined_diff_once_and_a_rejection_writes_nothing(
    root: Path, tmp_path: Path
) -> None:
    seen: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> Decision:
        seen.append(request)
        return Decision.reject("not now")

    before = snapshot(root)
    with pytest.raises(EditRejected, match="not now"):
        make(root, tmp_path, confirm=confirm).apply_patch(PATCH)
    assert len(seen) == 1 and "src/a.py" in seen[0].file_path and "lib/c.py" in seen[0].diff
    assert snapshot(root) == before
    make(root, tmp_path, confirm=lambda request: True).apply_patch(PATCH)
    assert (root / "lib/c.py").read_text() == AFTER["lib/c.py"]


def test_a_file_changed_while_waiting_for_approval_is_stale(root: Path, tmp_path: Path) -> None:
    def meddle(request: ConfirmRequest) -> bool:
        (root / "src/b.py").write_text("def b():\n    return 99\n")
        return True

    with pytest.raises(StaleFile):
        make(root, tmp_path, confirm=meddle).apply_patch(PATCH)
    assert (root / "src/a.py").read_text() == FILES["src/a.py"]
    assert not (root / "pkg").exists()


def test_hooks_and_telemetry_per_file_and_per_hunk(root: Path, tmp_path: Path) -> None:
    edited: list[EditResult] = []
    states: list[EditState] = []

    class Observer:
        def edit_started(self, state: EditState) -> None:
            pass

        def edit_finished(self, state: EditState) -> None:
            states.append(state)

    engine = make(root, tmp_path, on_edited=edited.append, telemetry=Observer())
    engine.apply_patch(PATCH)
    assert sorted(r.file_path for r in edited) == sorted([*AFTER, "old.txt", "src/c.py"])
    assert [s.file_path for s in states] == ["src/a.py", "src/b.py", "src/c.py"]
    assert {s.operation for s in states} == {"patch"} and states[0].strategy == "exact"
    assert states[0].attempts[0].tier == "exact"
    with pytest.raises(PatchFailed):
        engine.apply_patch(TYPO.replace("src/b.py", "src/a.py"))
    assert states[-1].outcome == "error" and states[-1].error_code == "no_match"


TYPO = (
    "*** Begin Patch\n*** Update File: src/b.py\n@@\n-    retrun 2\n+    return 20\n*** End Patch"
)


class Fixer:
    def __init__(self, answer: Correction) -> None:
        self.answer = answer
        self.requests: list[FixRequest] = []

    def correct(self, request: FixRequest) -> Correction:
        self.requests.append(request)
        return self.answer

    async def acorrect(self, request: FixRequest) -> Correction:
        return self.correct(request)


def test_the_fixer_may_correct_a_hunk_it_can_place(root: Path, tmp_path: Path) -> None:
    fixer = Fixer(Correction(search="    return 2\n", replace="    return 20\n"))
    engine = make(root, tmp_path, fixer=fixer)
    text = TYPO
    result = engine.apply_patch(text, instruction="b returns 20")
    assert (root / "src/b.py").read_text() == "def b():\n    return 20\n"
    assert fixer.requests[0].instruction == "b returns 20"
    assert result.hunks[0].corrected_by_fixer


def test_a_fixer_answer_about_something_else_is_refused(root: Path, tmp_path: Path) -> None:
    fixer = Fixer(Correction(search="def b():\n", replace="def evil():\n"))
    engine = make(root, tmp_path, fixer=fixer)
    text = TYPO
    with pytest.raises(PatchFailed) as caught:
        engine.apply_patch(text)
    assert "LLM fixer proposed a correction, but" in str(caught.value)
    assert (root / "src/b.py").read_text() == FILES["src/b.py"]


def test_tool_calls_function_free_form_and_built_in(engine: EditEngine, root: Path) -> None:
    answer = engine.handle_tool_call("apply_patch", {"patch": PATCH})
    assert answer.startswith("Applied the patch") and "+    return 10" in answer
    (root / "src/a.py").write_text(FILES["src/a.py"])
    raw = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 5\n"
    raw += "*** End Patch"
    assert engine.handle_tool_call("apply_patch", raw).startswith("Applied the patch")
    operation = {
        "type": "update_file",
        "path": "src/a.py",
        "diff": "@@\n-    return 5\n+    return 6\n",
    }
    assert engine.handle_tool_call("apply_patch", {"operation": operation}).startswith("Applied")
    assert (root / "src/a.py").read_text() == "def a():\n    return 6\n"
    created = {"type": "create_file", "path": "n.txt", "diff": "+hello\n"}
    engine.handle_tool_call("apply_patch", {"operation": created})
    assert (root / "n.txt").read_text() == "hello\n"
    engine.handle_tool_call("apply_patch", {"operation": {"type": "delete_file", "path": "n.txt"}})
    assert not (root / "n.txt").exists()


def test_tool_errors_name_the_hunk_and_the_closest_text(engine: EditEngine) -> None:
    bad = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-def aa():\n+def z():\n*** End Patch"
    answer = engine.handle_tool_call("apply_patch", {"patch": bad})
    assert answer.startswith("Error [patch_failed/no_match]: Hunk 1 of src/a.py (patch line 3)")
    assert "line 1" in answer
    assert "The hunk's old lines (patch line 3):\n    def aa():" in answer
    assert engine.handle_tool_call("apply_patch", "").startswith("Error [bad_request]")
    malformed = engine.handle_tool_call("apply_patch", {"patch": "*** Begin Patch\n*** Nope\n"})
    assert malformed.startswith("Error [bad_patch]: Patch line")


def test_async_twin_and_a_modified_single_file_approval(root: Path, tmp_path: Path) -> None:
    import asyncio

    one = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 10\n"
    one += "*** End Patch"
    engine = make(root, tmp_path, confirm=lambda request: Decision.modify("user's own\n"))
    result = asyncio.run(engine.aapply_patch(one))
    assert (root / "src/a.py").read_text() == "user's own\n"
    assert result.files["src/a.py"] == "user's own\n"
    several = make(root, tmp_path, confirm=lambda request: Decision.modify("x\n"))
    with pytest.raises(EditRejected, match="one file"):
        several.apply_patch(
            "*** Begin Patch\n*** Update File: src/b.py\n@@\n-    return 2\n+    return 20\n"
            "*** Update File: src/c.py\n@@\n-    return 3\n+    return 30\n*** End Patch\n"
        )
    assert (root / "src/b.py").read_text() == FILES["src/b.py"]


def test_the_read_tracker_refuses_a_patch_on_a_file_changed_since_it_was_read(
    root: Path, tmp_path: Path
) -> None:
    from editengine import ReadTracker

    tracker = ReadTracker()
    engine = make(root, tmp_path, read_tracker=tracker)
    engine.read_file("src/a.py")
    (root / "src/a.py").write_text("def a():\n    return 1  # edited by hand\n")
    with pytest.raises(StaleFile):
        engine.apply_patch(PATCH)
    assert (root / "src/b.py").read_text() == FILES["src/b.py"]
