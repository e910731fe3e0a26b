"""What EditEngine.apply_patch answers: the summary, the combined diff, one result per file,
the one question asked of ``confirm``, and what telemetry sees of each hunk."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from editengine import EditEngine
from editengine._edits import ConfirmRequest
from editengine._results import EditResult
from editengine._state import EditState

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

ONE_FILE = (
    "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 10\n*** End Patch"
)

COMBINED_DIFF = (
    "--- a/src/a.py\n+++ b/src/a.py\n@@ -1,2 +1,2 @@\n def a():\n-    return 1\n+    return 10\n"
    "--- a/src/b.py\n+++ b/src/b.py\n@@ -1,2 +1,2 @@\n def b():\n-    return 2\n+    return 20\n"
    "--- /dev/null\n+++ b/pkg/new/mod.py\n@@ -0,0 +1 @@\n+X = 1\n"
    "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n"
    "# moved from src/c.py\n"
    "--- /dev/null\n+++ b/lib/c.py\n@@ -0,0 +1,2 @@\n+def c():\n+    return 30\n"
    "--- a/src/c.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def c():\n-    return 3\n"
)

WHAT = "2 files updated, 1 file added, 1 file deleted, 1 file moved (3 hunks, exact)"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def root(workspace: Path) -> Path:
    for path, content in FILES.items():
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / path).write_bytes(content.encode())
    return workspace


def make(root: Path, tmp_path: Path, **options: object) -> EditEngine:
    return EditEngine(root, lock_dir=tmp_path / "locks", **options)  # type: ignore[arg-type]  # passed on as given


# ---------------------------------------------------------------- summary and diff


def test_a_patch_is_summarised_by_what_it_did_to_each_kind_of_file(
    root: Path, tmp_path: Path
) -> None:
    result = make(root, tmp_path).apply_patch(PATCH)

    assert result.summary == f"Applied the patch: {WHAT}"
    assert result.diff == COMBINED_DIFF


def test_a_dry_run_is_summarised_as_a_preview_with_the_same_diff(
    root: Path, tmp_path: Path
) -> None:
    result = make(root, tmp_path).apply_patch(PATCH, dry_run=True)

    assert result.summary == f"Preview (dry run): the patch would leave {WHAT}; nothing was written"
    assert result.diff == COMBINED_DIFF
    assert result.results == ()


def test_one_updated_file_and_one_hunk_are_counted_in_the_singular(
    root: Path, tmp_path: Path
) -> None:
    result = make(root, tmp_path).apply_patch(ONE_FILE)

    assert result.summary == "Applied the patch: 1 file updated (1 hunk, exact)"


def test_a_patch_already_applied_says_so_and_writes_nothing(root: Path, tmp_path: Path) -> None:
    engine = make(root, tmp_path)
    engine.apply_patch(ONE_FILE)
    entries = len(engine.journal_entries())

    again = engine.apply_patch(ONE_FILE)

    assert again.summary == "No change: every hunk of the patch is already applied"
    assert again.diff == "" and again.results == ()
    assert len(engine.journal_entries()) == entries


def test_a_deletion_shows_dev_null_as_its_new_side_and_keeps_other_lines_alone(
    root: Path, tmp_path: Path
) -> None:
    # A deleted file whose own text holds a "+++ b/<path>" line: only the header is changed.
    (root / "old.txt").write_text("+++ b/old.txt\n")
    result = make(root, tmp_path).apply_patch(
        "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch"
    )
    assert result.diff == "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-+++ b/old.txt\n"


# ---------------------------------------------------------------- one result per file


def test_each_changed_file_gets_an_edit_result_with_its_own_diff_and_hashes(
    root: Path, tmp_path: Path
) -> None:
    result = make(root, tmp_path).apply_patch(PATCH)
    by_path = {item.file_path: item for item in result.results}

    updated = by_path["src/a.py"]
    assert updated.summary == "Updated src/a.py (patch)"
    assert updated.absolute_path == os.fspath(root / "src/a.py")
    assert (updated.replacements, updated.strategy) == (1, "exact")
    assert updated.diff == COMBINED_DIFF.split("--- a/src/b.py")[0]
    assert (updated.additions, updated.deletions) == (1, 1)
    assert updated.hash_before == sha(FILES["src/a.py"])
    assert updated.hash_after == sha("def a():\n    return 10\n")
    assert not updated.created and not updated.corrected_by_fixer
    assert (updated.old_text, updated.new_text) == (FILES["src/a.py"], "def a():\n    return 10\n")

    added = by_path["pkg/new/mod.py"]
    assert added.summary == "Created pkg/new/mod.py (patch)"
    assert (added.replacements, added.strategy) == (0, "add")
    assert added.created and added.hash_before is None and added.hash_after == sha("X = 1\n")
    assert (added.old_text, added.new_text) == ("", "X = 1\n")

    deleted = by_path["old.txt"]
    assert deleted.summary == "Deleted old.txt (patch)"
    assert (deleted.replacements, deleted.strategy) == (0, "delete")
    assert deleted.hash_after is None and not deleted.created
    assert (deleted.additions, deleted.deletions) == (0, 1)
    assert (deleted.old_text, deleted.new_text) == ("old\n", "")

    moved_to = by_path["lib/c.py"]  # the hunk of the moved file counts on its new side too
    assert moved_to.summary == "Created lib/c.py (patch)"
    assert (moved_to.replacements, moved_to.strategy) == (1, "exact")


def test_the_patch_result_maps_every_touched_path_to_its_new_content(
    root: Path, tmp_path: Path
) -> None:
    result = make(root, tmp_path).apply_patch(PATCH)

    assert result.files == {
        "src/a.py": "def a():\n    return 10\n",
        "src/b.py": "def b():\n    return 20\n",
        "pkg/new/mod.py": "X = 1\n",
        "old.txt": None,
        "lib/c.py": "def c():\n    return 30\n",
        "src/c.py": None,
    }


def test_paths_are_reported_as_the_workspace_names_them(root: Path, tmp_path: Path) -> None:
    result = make(root, tmp_path).apply_patch(
        "*** Begin Patch\n*** Update File: ./src/../src/a.py\n*** Move to: ./lib//a.py\n"
        "@@\n-    return 1\n+    return 10\n*** End Patch"
    )

    assert set(result.files) == {"src/a.py", "lib/a.py"}
    assert "# moved from src/a.py\n" in result.diff
    assert (root / "lib/a.py").read_text() == "def a():\n    return 10\n"


def test_edited_hooks_get_one_result_per_file_after_the_write(root: Path, tmp_path: Path) -> None:
    seen: list[tuple[str, bool]] = []

    def on_edited(result: EditResult) -> None:
        seen.append((result.file_path, (root / result.file_path).exists()))

    make(root, tmp_path, on_edited=on_edited).apply_patch(PATCH)

    assert seen == [
        ("src/a.py", True),
        ("src/b.py", True),
        ("pkg/new/mod.py", True),
        ("old.txt", False),
        ("lib/c.py", True),
        ("src/c.py", False),
    ]


# ---------------------------------------------------------------- the confirm question


def test_confirm_is_asked_once_about_every_file_with_the_combined_diff(
    root: Path, tmp_path: Path
) -> None:
    seen: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> bool:
        seen.append(request)
        return True

    make(root, tmp_path, confirm=confirm).apply_patch(PATCH)

    [request] = seen
    assert request.file_path == "src/a.py, src/b.py, pkg/new/mod.py, old.txt, lib/c.py, src/c.py"
    assert request.absolute_path == os.fspath(root)
    assert request.diff == COMBINED_DIFF
    assert request.summary == f"Will apply the patch: {WHAT}"
    assert (request.old_text, request.new_text, request.created) == ("", "", False)


def test_confirm_about_one_file_sees_that_file_its_texts_and_whether_it_is_created(
    root: Path, tmp_path: Path
) -> None:
    seen: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> bool:
        seen.append(request)
        return True

    engine = make(root, tmp_path, confirm=confirm)
    engine.apply_patch(ONE_FILE)
    engine.apply_patch("*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch")

    updated, created = seen
    assert updated.file_path == "src/a.py"
    assert updated.absolute_path == os.fspath(root / "src/a.py")
    assert updated.old_text == FILES["src/a.py"]
    assert updated.new_text == "def a():\n    return 10\n"
    assert not updated.created
    assert (created.file_path, created.old_text, created.new_text) == ("n.txt", "", "hi\n")
    assert created.created


def test_content_modified_in_approval_is_what_is_written_diffed_and_hashed(
    root: Path, tmp_path: Path
) -> None:
    from editengine._edits import Decision

    engine = make(root, tmp_path, confirm=lambda request: Decision.modify("mine\n"))

    result = engine.apply_patch(ONE_FILE)

    assert (root / "src/a.py").read_text() == "mine\n"
    assert result.diff == result.results[0].diff
    assert "+mine\n" in result.diff and "+    return 10" not in result.diff
    assert result.results[0].hash_after == sha("mine\n")
    assert result.summary == "Applied the patch: 1 file updated (1 hunk, exact)"


# ---------------------------------------------------------------- telemetry


class Recorder:
    def __init__(self) -> None:
        self.started: list[EditState] = []
        self.finished: list[EditState] = []

    def edit_started(self, state: EditState) -> None:
        self.started.append(state)

    def edit_finished(self, state: EditState) -> None:
        self.finished.append(state)


def test_telemetry_sees_each_hunk_as_one_patch_edit(root: Path, tmp_path: Path) -> None:
    recorder = Recorder()
    engine = make(root, tmp_path, telemetry=recorder)
    engine.apply_patch(ONE_FILE)
    engine.apply_patch(ONE_FILE)  # already applied now

    done, again = recorder.finished
    assert recorder.started == recorder.finished
    assert (done.file_path, done.operation, done.dry_run) == ("src/a.py", "patch", False)
    assert (done.outcome, done.strategy, done.replacements) == ("success", "exact", 1)
    assert not done.corrected_by_fixer and done.fixer is None
    assert done.duration_ms > 0
    assert [attempt.tier for attempt in done.attempts][:1] == ["exact"]
    assert (again.outcome, again.replacements) == ("no_change", 0)
    # the hunk's sizes, as an edit's old_string and new_string ("    return 1\n" → "…10\n")
    assert (done.old_chars, done.new_chars) == (13, 14)
    assert (again.old_chars, again.new_chars) == (13, 14)


def test_telemetry_sizes_each_hunk_of_a_file_apart(root: Path, tmp_path: Path) -> None:
    recorder = Recorder()
    two_hunks = (
        "*** Begin Patch\n*** Update File: src/a.py\n"
        "@@\n-def a():\n+def a_renamed():\n"
        "@@\n-    return 1\n+    return 1000\n"
        "*** End Patch"
    )
    make(root, tmp_path, telemetry=recorder).apply_patch(two_hunks)

    assert [(s.old_chars, s.new_chars) for s in recorder.finished] == [(9, 17), (13, 16)]


def test_telemetry_of_a_dry_run_says_so(root: Path, tmp_path: Path) -> None:
    recorder = Recorder()
    make(root, tmp_path, telemetry=recorder).apply_patch(ONE_FILE, dry_run=True)

    [state] = recorder.finished
    assert state.dry_run and state.outcome == "success"


def test_telemetry_of_a_failed_hunk_names_its_file_its_error_and_its_tiers(
    root: Path, tmp_path: Path
) -> None:
    from editengine import PatchFailed

    recorder = Recorder()
    engine = make(root, tmp_path, telemetry=recorder)
    typo = "*** Begin Patch\n*** Update File: src/b.py\n@@\n-    retrun 2\n+    x\n*** End Patch"

    with pytest.raises(PatchFailed):
        engine.apply_patch(typo, dry_run=True)

    [state] = recorder.finished
    assert recorder.started == [state]
    assert (state.file_path, state.operation, state.dry_run) == ("src/b.py", "patch", True)
    assert (state.outcome, state.error_code) == ("error", "no_match")
    assert state.attempts and state.attempts[0].tier == "exact"
    assert state.fixer is None
    assert state.duration_ms > 0
    assert (state.old_chars, state.new_chars) == (13, 6)  # the failed hunk's sizes


def test_telemetry_of_a_file_that_cannot_be_added_has_no_tiers(root: Path, tmp_path: Path) -> None:
    from editengine import PatchFailed

    recorder = Recorder()
    engine = make(root, tmp_path, telemetry=recorder)

    with pytest.raises(PatchFailed):
        engine.apply_patch("*** Begin Patch\n*** Add File: src/a.py\n+x\n*** End Patch")

    [state] = recorder.finished
    assert state.file_path == "src/a.py" and state.outcome == "error"
    assert state.attempts == []
    assert (state.old_chars, state.new_chars) == (0, 0)  # no hunk failed: the file did


class Clock:
    """Stands in for the time module of the patch code: each reading is the next value."""

    def __init__(self, *readings: float) -> None:
        self.readings = list(readings)

    def perf_counter(self) -> float:
        return self.readings.pop(0)


@pytest.mark.parametrize(("patch", "hunks"), [(PATCH, 3), (ONE_FILE, 1)], ids=["three", "one"])
def test_each_hunk_is_given_an_equal_share_of_the_patch_time(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, patch: str, hunks: int
) -> None:
    from editengine.engine import _patch_reporting as reporting
    from editengine.engine import _patching as patching

    recorder = Recorder()
    engine = make(root, tmp_path, telemetry=recorder)
    clock = Clock(10.0, 10.3)  # started, then finished
    for module in (patching, reporting):
        monkeypatch.setattr(module, "time", clock)

    engine.apply_patch(patch)

    assert [state.duration_ms for state in recorder.finished] == [
        pytest.approx(300.0 / hunks)
    ] * hunks


def test_a_failed_patch_is_timed_from_start_to_refusal(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from editengine import PatchFailed
    from editengine.engine import _patch_reporting as reporting
    from editengine.engine import _patching as patching

    recorder = Recorder()
    engine = make(root, tmp_path, telemetry=recorder)
    clock = Clock(10.0, 10.25)
    for module in (patching, reporting):
        monkeypatch.setattr(module, "time", clock)

    with pytest.raises(PatchFailed):
        engine.apply_patch(ONE_FILE.replace("return 1", "return 111"))

    assert [state.duration_ms for state in recorder.finished] == [pytest.approx(250.0)]


def test_a_sync_patch_inside_an_event_loop_refuses_an_async_confirm(
    root: Path, tmp_path: Path
) -> None:
    import asyncio

    from editengine._errors import BadRequest

    async def confirm(request: ConfirmRequest) -> bool:
        return True

    engine = make(root, tmp_path, confirm=confirm)

    async def patch_inside_a_loop() -> None:
        engine.apply_patch(ONE_FILE)

    with pytest.raises(BadRequest) as caught:
        asyncio.run(patch_inside_a_loop())

    assert caught.value.message.startswith(
        "The confirm callback is async, but edit() was called inside a running event loop"
    )
    assert (root / "src/a.py").read_text() == FILES["src/a.py"]


def test_a_file_with_hunks_placed_by_two_tiers_reports_both_and_counts_each(
    root: Path, tmp_path: Path
) -> None:
    (root / "src/a.py").write_text("def a():\n    return 1\n\n\ndef z():\n    return 26\n")
    patch = (
        "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 10\n"
        "@@\n-  return 26\n+  return 260\n*** End Patch"
    )

    result = make(root, tmp_path).apply_patch(patch)

    [edited] = result.results
    assert edited.replacements == 2
    assert edited.strategy == "+".join(hunk.strategy for hunk in result.hunks)
    assert result.hunks[0].strategy == "exact" and result.hunks[1].strategy != "exact"
    assert (root / "src/a.py").read_text().endswith("def z():\n    return 260\n")


def test_a_journal_that_cannot_record_the_patch_leaves_a_note_per_file(
    root: Path, tmp_path: Path
) -> None:
    from editengine._errors import JournalError

    engine = make(root, tmp_path)
    assert engine.journal is not None

    def refuse(*args: object, **kwargs: object) -> None:
        raise JournalError("the disk is full")

    engine.journal.record = refuse  # type: ignore[method-assign]  # a test double put in place
    engine.journal.begin = refuse  # type: ignore[method-assign,assignment]  # a test double put in place

    result = engine.apply_patch(PATCH)

    assert (root / "src/a.py").read_text() == "def a():\n    return 10\n"
    assert result.notes == tuple(
        f"The write of {path} succeeded but could not be recorded in the undo journal "
        "(the disk is full); it cannot be undone with editengine."
        for path in ("src/a.py", "src/b.py", "pkg/new/mod.py", "old.txt", "lib/c.py", "src/c.py")
    )


@pytest.mark.parametrize(
    ("patch", "summary"),
    [
        (
            "*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch",
            "Applied the patch: 1 file added (0 hunks, no_op)",
        ),
        (
            "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch",
            "Applied the patch: 1 file deleted (0 hunks, no_op)",
        ),
    ],
    ids=["add", "delete"],
)
def test_a_file_added_or_deleted_alone_is_counted_as_such(
    root: Path, tmp_path: Path, patch: str, summary: str
) -> None:
    assert make(root, tmp_path).apply_patch(patch).summary == summary


def test_the_hunks_are_placed_by_the_engines_own_cascade(root: Path, tmp_path: Path) -> None:
    from editengine import PatchFailed
    from editengine.matching._cascade import DEFAULT_CASCADE

    exact_only = DEFAULT_CASCADE.without(*(n for n in DEFAULT_CASCADE.tier_names if n != "exact"))
    engine = make(root, tmp_path, cascade=exact_only)
    spaced = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return  1\n+    return 10\n"
    spaced += "*** End Patch"

    with pytest.raises(PatchFailed) as caught:
        engine.apply_patch(spaced)

    assert "(tried: exact)" in str(caught.value)
    assert make(root, tmp_path).apply_patch(spaced).hunks[0].strategy == "whitespace"
