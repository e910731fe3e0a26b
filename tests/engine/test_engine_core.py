"""The engine pipeline's own contracts: closing, each refusal word for word, what each entry
point hands on, the retries and the checks between the match and the write, and corrections
racing identical requests."""

from __future__ import annotations

import asyncio
import errno
import hashlib
import os
import threading
import time

import pytest

from editengine import DEFAULT_CASCADE
from editengine._edits import ConfirmRequest, Decision
from editengine._errors import (
    BadRequest,
    EditError,
    EditRejected,
    FileNotFound,
    JournalError,
    NoMatch,
    StaleFile,
)
from editengine._read_tracker import ReadTracker
from editengine.engine import EditEngine
from editengine.engine import _core as core
from editengine.engine import _judging as judging
from editengine.files import PathLocks, WorkspaceDir
from editengine.files import _atomic as atomic
from editengine.files._anchored import AnchoredDir
from editengine.fixer._protocol import Correction
from editengine.journal import Journal
from editengine.telemetry import MemorySink, Telemetry


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _ClosableFixer:
    """A fixer that is never asked; it only records being closed."""

    def __init__(self) -> None:
        self.closed: list[str] = []

    def correct(self, request):  # pragma: no cover - never asked in these tests
        raise AssertionError("not asked")

    async def acorrect(self, request):  # pragma: no cover - never asked in these tests
        raise AssertionError("not asked")

    def close(self) -> None:
        self.closed.append("close")


class _AsyncClosableFixer(_ClosableFixer):
    async def aclose(self) -> None:
        self.closed.append("aclose")


def test_closing_an_engine_closes_its_fixer_and_the_engine_still_edits(make_engine, write):
    path = write("a.txt", "one\n")
    fixer = _ClosableFixer()
    with make_engine(fixer=fixer) as engine:
        pass
    assert fixer.closed == ["close"]
    engine.edit("a.txt", "one", "two")
    assert path.read_text() == "two\n"


def test_an_async_close_awaits_the_fixer_s_aclose_when_it_has_one(make_engine):
    fixer = _AsyncClosableFixer()

    async def use() -> None:
        async with make_engine(fixer=fixer):
            pass

    asyncio.run(use())
    assert fixer.closed == ["aclose"]


def test_an_async_close_falls_back_to_the_fixer_s_close(make_engine):
    fixer = _ClosableFixer()

    async def use() -> None:
        async with make_engine(fixer=fixer):
            pass

    asyncio.run(use())
    assert fixer.closed == ["close"]


# ---------------------------------------------------------------- refusals, word for word


def test_a_rejection_names_the_file_and_the_reason_given(make_engine, write):
    write("c.py", "x = 1\n")
    engine = make_engine(confirm=lambda request: Decision.reject("not now"))
    with pytest.raises(EditRejected) as caught:
        engine.edit("c.py", "x = 1", "x = 2")
    assert caught.value.message == "The edit of c.py was rejected (not now); nothing was written."
    assert caught.value.hint == "Ask the user what to change, or propose a different edit."


def test_a_rejection_without_a_reason_says_so_without_brackets(make_engine, write):
    write("c.py", "x = 1\n")
    with pytest.raises(EditRejected) as caught:
        make_engine(confirm=lambda request: False).edit("c.py", "x = 1", "x = 2")
    assert caught.value.message == "The edit of c.py was rejected; nothing was written."


def test_a_file_changed_while_awaiting_approval_is_stale_word_for_word(make_engine, write):
    path = write("f.py", "x = 1\n")

    def approve(request) -> bool:
        path.write_text("x = 1\n# changed\n")
        return True

    with pytest.raises(StaleFile) as caught:
        make_engine(confirm=approve).edit("f.py", "x = 1", "x = 2")
    assert caught.value.message == (
        "f.py changed on disk while the edit waited for approval; nothing was written."
    )
    assert caught.value.path == "f.py"
    assert caught.value.hint == (
        "Read the file again and redo the edit against its current content."
    )


def test_a_lone_surrogate_is_refused_word_for_word_also_in_a_dry_run(engine, write):
    path = write("s.txt", "abc\n")
    for dry_run in (False, True):
        with pytest.raises(BadRequest) as caught:
            engine.edit("s.txt", "abc", "a\ud800c", dry_run=dry_run)
        assert caught.value.message == (
            "new_string contains characters that cannot be written as UTF-8 "
            "(surrogates not allowed at position 1); nothing was written."
        )
        assert caught.value.hint == (
            "Remove lone surrogate escapes (such as \\ud800) from new_string."
        )
    assert path.read_bytes() == b"abc\n"


def test_a_missing_file_without_a_likely_name_hints_at_creating_it(engine):
    with pytest.raises(FileNotFound) as caught:
        engine.edit("nowhere.py", "a", "b")
    assert caught.value.message == "nowhere.py does not exist in the workspace."
    assert caught.value.path == "nowhere.py"
    assert caught.value.suggestions == ()
    assert caught.value.hint == "Check the path, or use an empty old_string to create the file."


def test_a_missing_file_with_likely_names_asks_did_you_mean(engine, write):
    write("src/app.py", "a\n")
    with pytest.raises(FileNotFound) as caught:
        engine.edit("app.py", "a", "b")
    assert caught.value.suggestions == ("src/app.py",)
    assert caught.value.hint == "Did you mean: src/app.py?"


def test_read_file_of_a_missing_file_is_the_same_refusal(engine):
    with pytest.raises(FileNotFound) as caught:
        engine.read_file("gone.txt")
    assert caught.value.message == "gone.txt does not exist in the workspace."


def test_an_expected_hash_that_differs_names_both_hashes(engine, write):
    path = write("f.txt", "a\n")
    wrong = sha(b"other")
    with pytest.raises(StaleFile) as caught:
        engine.edit("f.txt", "a", "b", expected_hash=wrong)
    assert caught.value.message == (
        f"f.txt has hash {sha(b'a' + chr(10).encode())}, not the expected {wrong}; "
        "nothing was written."
    )
    assert caught.value.path == "f.txt"
    assert caught.value.hint == (
        "The file changed since you read it: read it again and redo the edit."
    )
    assert path.read_text() == "a\n"


def test_an_expected_hash_of_a_missing_file_says_it_does_not_exist(engine, workspace):
    wrong = sha(b"x")
    with pytest.raises(StaleFile) as caught:
        engine.edit("new.txt", "", "x", expected_hash=wrong)
    assert caught.value.message == (
        f"new.txt does not exist, not the expected {wrong}; nothing was written."
    )


def test_an_expected_hash_in_capitals_is_the_same_hash(engine, write):
    path = write("f.txt", "a\n")
    engine.edit("f.txt", "a", "b", expected_hash=sha(b"a\n").upper())
    assert path.read_text() == "b\n"


# ---------------------------------------------------------------- approval


def test_the_approval_request_marks_a_new_file_as_created(make_engine, workspace):
    seen: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> bool:
        seen.append(request)
        return True

    make_engine(confirm=confirm).edit("new.txt", "", "hello\n")
    (request,) = seen
    assert request.created
    assert (request.old_text, request.new_text) == ("", "hello\n")
    assert (workspace / "new.txt").read_text() == "hello\n"


def test_an_existing_file_s_approval_request_is_no_creation(make_engine, write):
    write("a.txt", "x\n")
    seen: list[ConfirmRequest] = []
    make_engine(confirm=lambda request: seen.append(request) or True).edit("a.txt", "x", "y")
    assert not seen[0].created


def test_a_user_s_rewrite_back_to_the_file_s_text_is_no_change(make_engine, write):
    path = write("a.txt", "x\n")
    engine = make_engine(confirm=lambda request: Decision.modify("x\n"))
    result = engine.edit("a.txt", "x", "y")
    assert result.no_change
    assert result.modified_by_user
    assert result.replacements == 0
    assert path.read_text() == "x\n"
    assert engine.journal_entries("a.txt") == []


def test_a_user_s_rewrite_is_written_with_its_own_diff(make_engine, write):
    path = write("a.txt", "x\n")
    engine = make_engine(confirm=lambda request: Decision.modify("z\n"))
    result = engine.edit("a.txt", "x", "y")
    assert not result.no_change
    assert result.modified_by_user
    assert "-x\n+z\n" in result.diff
    assert result.new_text == "z\n"
    assert path.read_text() == "z\n"


def test_no_approval_is_asked_for_a_dry_run_or_an_edit_that_changes_nothing(make_engine, write):
    path = write("a.txt", "x\n")
    asked: list[ConfirmRequest] = []
    engine = make_engine(confirm=lambda request: asked.append(request) or True)
    assert engine.edit("a.txt", "x", "y", dry_run=True).dry_run
    assert engine.edit("a.txt", "x", "x").no_change
    assert asked == []
    assert path.read_text() == "x\n"


# ---------------------------------------------------------------- several edits at once


def test_several_edits_that_undo_each_other_leave_the_file_as_it_was(engine, write):
    path = write("a.txt", "x = 1\n")
    result = engine.multi_edit(
        "a.txt",
        [
            {"old_string": "x = 1", "new_string": "x = 2"},
            {"old_string": "x = 2", "new_string": "x = 1"},
        ],
    )
    assert result.no_change
    assert result.replacements == 0
    assert result.strategy == "exact"
    assert path.read_text() == "x = 1\n"


def test_several_edits_name_each_strategy_once_in_order_and_count_every_replacement(engine, write):
    path = write("a.py", "def f():\n    a = 1\n    b = 2\nc = 3\nd = 4\n")
    result = engine.multi_edit(
        "a.py",
        [
            {"old_string": "c = 3", "new_string": "c = 30"},
            {"old_string": "a = 1\nb = 2", "new_string": "a = 10\nb = 20"},
            {"old_string": "d = 4", "new_string": "d = 40"},
        ],
    )
    assert result.replacements == 3
    assert result.strategy.split("+")[0] == "exact"
    assert len(result.strategy.split("+")) == 2
    assert result.strategy.split("+")[1] != "exact"
    assert path.read_text() == "def f():\n    a = 10\n    b = 20\nc = 30\nd = 40\n"


# ---------------------------------------------------------------- the engine's other doors


def test_undo_and_redo_take_back_the_newest_writes_of_the_path_or_the_workspace(engine, write):
    a = write("a.txt", "1\n")
    b = write("b.txt", "1\n")
    engine.edit("a.txt", "1", "2")
    engine.edit("a.txt", "2", "3")
    engine.edit("b.txt", "1", "2")
    assert [entry.operation for entry in engine.journal_entries("a.txt")] == ["edit", "edit"]
    assert len(engine.journal_entries()) == 3

    undone = engine.undo("a.txt", steps=2)
    assert undone.operation == "undo"
    assert undone.files == ("a.txt",)
    assert (a.read_text(), b.read_text()) == ("1\n", "2\n")

    redone = engine.redo("a.txt")
    assert redone.operation == "redo"
    assert len(redone.restored) == 1
    assert a.read_text() == "2\n"

    assert engine.undo().files == ("a.txt",)  # the newest write anywhere: the redo
    assert a.read_text() == "1\n"


def test_apply_patch_writes_every_file_or_previews_with_a_dry_run(engine, write):
    a = write("a.txt", "x = 1\n")
    patch = "a.txt\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    preview = engine.apply_patch(patch, format="search_replace", dry_run=True)
    assert preview.dry_run
    assert a.read_text() == "x = 1\n"
    done = engine.apply_patch(patch, format="search_replace", instruction="bump x")
    assert not done.dry_run
    assert done.format == "search_replace"
    assert a.read_text() == "x = 2\n"


def test_aapply_patch_hands_every_argument_on(engine, write):
    a = write("a.txt", "x = 1\n")
    patch = "a.txt\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    preview = asyncio.run(engine.aapply_patch(patch, format="search_replace", dry_run=True))
    assert preview.dry_run
    assert preview.format == "search_replace"
    assert a.read_text() == "x = 1\n"
    asyncio.run(engine.aapply_patch(patch))
    assert a.read_text() == "x = 2\n"


# ---------------------------------------------------------------- the last checks before a write


def _before_the_write(monkeypatch, meddle) -> None:
    """Run ``meddle`` once the lock is held and the file read again, right before the write."""
    real = AnchoredDir.write

    def write(self, *args, **kwargs):
        meddle()
        return real(self, *args, **kwargs)

    monkeypatch.setattr(AnchoredDir, "write", write)


def test_a_program_that_ignores_the_lock_and_writes_first_is_not_clobbered(
    engine, write, monkeypatch, tree, workspace
):
    path = write("f.txt", "a\n")
    _before_the_write(monkeypatch, lambda: path.write_text("theirs\n"))
    with pytest.raises(StaleFile) as caught:
        engine.edit("f.txt", "a", "b")
    assert caught.value.message == (
        "f.txt was changed by another program during the edit; nothing was written."
    )
    assert caught.value.path == "f.txt"
    assert caught.value.hint == "Read the file again and redo the edit."
    assert path.read_text() == "theirs\n"
    assert tree(workspace) == ["f.txt"]


def test_a_file_larger_than_the_limit_written_meanwhile_is_refused_not_replaced(
    make_engine, write, monkeypatch
):
    path = write("f.txt", "a\n")
    engine = make_engine(max_file_bytes=16)
    _before_the_write(monkeypatch, lambda: path.write_text("x" * 17))
    with pytest.raises(EditError) as caught:
        engine.edit("f.txt", "a", "b")
    assert caught.value.message.startswith("f.txt ")
    assert path.read_text() == "x" * 17


def test_a_folder_moved_away_before_the_write_is_named_and_nothing_is_written(
    engine, write, monkeypatch, workspace
):
    write("sub/f.txt", "a\n")
    real = WorkspaceDir.directory

    def directory(self, *args, **kwargs):
        if "create" in kwargs:  # the write's walk, not a read's
            os.rename(workspace / "sub", workspace / "gone")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(WorkspaceDir, "directory", directory)
    with pytest.raises(StaleFile) as caught:
        engine.edit("sub/f.txt", "a", "b")
    assert caught.value.message == (
        "The folder of sub/f.txt was moved or deleted during the edit; nothing was written."
    )
    assert caught.value.path == "sub/f.txt"
    assert caught.value.hint == "Check the folder layout, read the file again and redo the edit."
    assert (workspace / "gone" / "f.txt").read_text() == "a\n"
    assert not (workspace / "sub").exists()


def test_a_created_file_whose_write_fails_leaves_no_folder_behind(
    engine, monkeypatch, workspace, tree
):
    def fail(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(AnchoredDir, "write", fail)
    with pytest.raises(OSError):
        engine.edit("deep/er/new.txt", "", "x\n")
    assert tree(workspace) == []


# -------------------------------------------------------- a correction, the file meanwhile

SOURCE = "def greet(name):\n    return 'hello ' + name\n"
WRONG_OLD = "def greeting(person_name):\n    return 'hello ' + person_name\n"
NEW = "def greeting(person_name):\n    return 'hi ' + person_name\n"
FIXED = "def greet(name):\n    return 'hi ' + name\n"
LANDED_NOTE = (
    "An identical edit (sent at the same time, or just before) already applied this change "
    "through the LLM fixer; the file holds exactly its result, so nothing was written."
)


def _correction(search: str = "    return 'hello ' + name") -> Correction:
    return Correction(
        search=search,
        replace="    return 'hi ' + name",
        explanation="the function is called greet",
        provider="fake",
        model="fake-1",
    )


def _while_the_correction_is_judged(monkeypatch, meddle) -> None:
    """Run ``meddle`` once, after the fixer answered and the file was read again, while the
    correction is checked (before the lock is taken for the write)."""
    real = judging.judge_correction
    pending = [meddle]

    def judge(*args, **kwargs):
        if pending:
            pending.pop()()
        return real(*args, **kwargs)

    monkeypatch.setattr(judging, "judge_correction", judge)


def test_a_correction_raced_by_another_write_is_checked_again_and_lands(
    make_engine, write, fake_fixer, monkeypatch
):
    # Another writer appends a line while the correction is checked: the correction is
    # placed and checked again on the current content under the lock, and written there.
    path = write("g.py", SOURCE)
    theirs = SOURCE + "# theirs\n"
    _while_the_correction_is_judged(monkeypatch, lambda: path.write_text(theirs))
    engine = make_engine(fixer=fake_fixer(_correction()))
    result = engine.edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == FIXED + "# theirs\n"
    assert result.corrected_by_fixer
    assert any("checked again on the current content" in note for note in result.notes)


def test_a_file_changed_while_the_correction_was_checked_is_stale(
    make_engine, write, fake_fixer, monkeypatch
):
    # The other writer changed the very line the correction quotes: it no longer holds.
    path = write("g.py", SOURCE)
    theirs = SOURCE.replace("'hello '", "'howdy '")
    _while_the_correction_is_judged(monkeypatch, lambda: path.write_text(theirs))
    engine = make_engine(fixer=fake_fixer(_correction()))
    with pytest.raises(StaleFile) as caught:
        engine.edit("g.py", WRONG_OLD, NEW)
    assert caught.value.message == (
        "g.py changed on disk while the correction was checked; nothing was written."
    )
    assert caught.value.path == "g.py"
    assert caught.value.hint == (
        "Read the file again and redo the edit against its current content."
    )
    assert path.read_text() == theirs


def test_an_identical_edit_written_while_the_correction_was_checked_makes_this_one_no_change(
    make_engine, write, fake_fixer, monkeypatch
):
    path = write("g.py", SOURCE)
    other = make_engine(fixer=fake_fixer(_correction()))
    _while_the_correction_is_judged(monkeypatch, lambda: other.edit("g.py", WRONG_OLD, NEW))
    engine = make_engine(fixer=fake_fixer(_correction()))

    result = engine.edit("g.py", WRONG_OLD, NEW)

    assert path.read_text() == FIXED
    assert result.no_change
    assert result.corrected_by_fixer
    assert result.fixer_explanation == "the function is called greet"
    assert result.hash_after == result.hash_before == sha(FIXED.encode())
    assert result.notes[-1] == LANDED_NOTE
    assert len(engine.journal_entries("g.py")) == 1  # the other edit's write only


def test_a_refused_correction_is_still_a_success_when_an_identical_edit_landed_meanwhile(
    make_engine, write, fake_fixer, monkeypatch
):
    path = write("g.py", SOURCE)
    other = make_engine(fixer=fake_fixer(_correction()))
    _while_the_correction_is_judged(monkeypatch, lambda: other.edit("g.py", WRONG_OLD, NEW))
    # This request's own answer quotes nothing in the file: refused on its own.
    engine = make_engine(fixer=fake_fixer(_correction(search="    return 'bye'")))

    result = engine.edit("g.py", WRONG_OLD, NEW)

    assert path.read_text() == FIXED
    assert result.no_change
    assert result.corrected_by_fixer
    assert result.hash_after == sha(FIXED.encode())
    assert result.notes[-1] == LANDED_NOTE


def test_a_refused_correction_with_nothing_landed_is_refused(make_engine, write, fake_fixer):
    path = write("g.py", SOURCE)
    engine = make_engine(fixer=fake_fixer(_correction(search="    return 'bye'")))
    with pytest.raises(EditError):
        engine.edit("g.py", WRONG_OLD, NEW)
    assert path.read_text() == SOURCE


def test_a_corrected_write_is_recorded_for_identical_requests_that_follow(
    make_engine, write, fake_fixer
):
    path = write("g.py", SOURCE)
    make_engine(fixer=fake_fixer(_correction())).edit("g.py", WRONG_OLD, NEW)
    # The same request again finds its change made: no model call, no write.
    again = fake_fixer()
    result = make_engine(fixer=again).edit("g.py", WRONG_OLD, NEW)
    assert again.requests == []
    assert result.no_change
    assert result.notes[-1] == LANDED_NOTE
    assert path.read_text() == FIXED


# ---------------------------------------------------------------- what each entry point hands on


def test_aedit_hands_on_replace_all(engine, write):
    path = write("a.txt", "x\nx\n")
    result = asyncio.run(engine.aedit("a.txt", "x", "y", replace_all=True))
    assert result.replacements == 2
    assert path.read_text() == "y\ny\n"


def test_aedit_replaces_one_place_only_by_default(engine, write):
    path = write("a.txt", "x\nx\n")
    with pytest.raises(EditError) as caught:
        asyncio.run(engine.aedit("a.txt", "x", "y"))
    assert caught.value.code == "ambiguous"
    assert path.read_text() == "x\nx\n"


def test_aedit_hands_on_expected_replacements(engine, write):
    path = write("a.txt", "x\nx\n")
    result = asyncio.run(engine.aedit("a.txt", "x", "y", expected_replacements=2))
    assert result.replacements == 2
    assert path.read_text() == "y\ny\n"


def test_every_entry_point_hands_on_expected_hash(engine, write):
    path = write("a.txt", "x\n")
    wrong = sha(b"other")
    edits = [{"old_string": "x", "new_string": "y"}]
    calls = [
        lambda: asyncio.run(engine.aedit("a.txt", "x", "y", expected_hash=wrong)),
        lambda: engine.multi_edit("a.txt", edits, expected_hash=wrong),
        lambda: asyncio.run(engine.amulti_edit("a.txt", edits, expected_hash=wrong)),
    ]
    for call in calls:
        with pytest.raises(StaleFile, match="not the expected"):
            call()
    assert path.read_text() == "x\n"


def test_every_entry_point_hands_on_the_instruction(make_engine, write, observer):
    write("a.txt", "x\n")
    engine = make_engine(telemetry=observer)
    edits = [{"old_string": "x", "new_string": "x"}]
    asyncio.run(engine.aedit("a.txt", "x", "x", instruction="keep"))
    engine.multi_edit("a.txt", edits, instruction="keep")
    asyncio.run(engine.amulti_edit("a.txt", edits, instruction="keep"))
    finished = [state for kind, state in observer.events if kind == "finished"]
    assert [state.instruction_given for state in finished] == [True, True, True]


def test_aedit_hands_its_instruction_to_the_fixer(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    fixer = fake_fixer(_correction())
    asyncio.run(make_engine(fixer=fixer).aedit("g.py", WRONG_OLD, NEW, instruction="say hi"))
    assert fixer.requests[0].instruction == "say hi"


# ---------------------------------------------------------------- what async callers observe


class _Sink:
    """A sink served by the telemetry's worker thread (not immediate)."""

    immediate = False

    def __init__(self) -> None:
        self.events: list[object] = []
        self.release = threading.Event()
        self.blocking = False

    def emit(self, event) -> None:
        if self.blocking:
            self.release.wait(30)
        self.events.append(event)

    def close(self) -> None:
        pass


def test_an_async_edit_tells_a_telemetry_observer_both_events(make_engine, write):
    write("a.txt", "x\n")
    memory = MemorySink()
    engine = make_engine(telemetry=Telemetry(sinks=[memory]))
    asyncio.run(engine.aedit("a.txt", "x", "y"))
    assert [event.event for event in memory.named("edit.started")] == ["edit.started"]
    (finished,) = memory.named("edit.finished")
    assert finished.outcome == "success"


def test_an_async_edit_tells_any_observer_started_and_finished_with_its_figures(
    make_engine, write, observer
):
    write("a.txt", "x\n")

    def slow_approval(request) -> bool:
        time.sleep(0.05)
        return True

    engine = make_engine(telemetry=observer, confirm=slow_approval)
    started = time.perf_counter()
    asyncio.run(engine.aedit("a.txt", "x", "y"))
    elapsed_ms = (time.perf_counter() - started) * 1000
    assert [snapshot[0] for snapshot in observer.snapshots] == ["started", "finished"]
    state = observer.events[-1][1]
    assert state.outcome == "success"
    assert 50 <= state.duration_ms <= elapsed_ms


def test_an_async_edit_that_fails_records_its_error(make_engine, write, observer):
    write("a.txt", "x\n")
    engine = make_engine(telemetry=observer)
    with pytest.raises(EditError):
        asyncio.run(engine.aedit("a.txt", "nothing like it", "y"))
    state = observer.events[-1][1]
    assert state.outcome != "success"
    assert state.error_code == "no_match"


def test_closing_hands_recorded_events_to_their_sinks(make_engine, write):
    write("a.txt", "x\n")
    sink = _Sink()
    engine = make_engine(telemetry=Telemetry(sinks=[sink]))
    engine.edit("a.txt", "x", "y")
    engine.close()
    assert [event.event for event in sink.events] == ["edit.started", "tier.tried", "edit.finished"]


def test_closing_waits_a_bounded_time_for_a_stuck_sink(make_engine, write, monkeypatch):
    monkeypatch.setattr(core, "CLOSE_FLUSH_SECONDS", 0.05)
    write("a.txt", "x\n")
    sink = _Sink()
    sink.blocking = True
    engine = make_engine(telemetry=Telemetry(sinks=[sink]))
    engine.edit("a.txt", "x", "y")
    try:
        engine.close()  # returns although the sink still holds the first event
        assert sink.events == []
    finally:
        sink.release.set()


# ---------------------------------------------------------------- what a write leaves behind


def test_a_write_is_journaled_with_its_hashes_strategy_summary_and_mode(engine, write):
    path = write("a.txt", "x\n")
    path.chmod(0o640)
    result = engine.edit("a.txt", "x", "y")
    (entry,) = engine.journal_entries("a.txt")
    assert entry.operation == "edit"
    assert (entry.before_sha256, entry.after_sha256) == (sha(b"x\n"), sha(b"y\n"))
    assert entry.strategy == "exact"
    assert entry.summary == result.summary
    assert entry.mode == 0o640
    assert entry.group is None


def test_a_created_file_is_journaled_as_having_had_no_bytes_before(engine, workspace):
    engine.edit("new.txt", "", "hello\n")
    (entry,) = engine.journal_entries("new.txt")
    assert entry.before_sha256 is None
    assert entry.after_sha256 == sha(b"hello\n")
    engine.undo("new.txt")
    assert not (workspace / "new.txt").exists()


def test_the_files_of_one_patch_are_journaled_as_one_group_and_undone_together(engine, write):
    a = write("a.txt", "x = 1\n")
    b = write("b.txt", "y = 1\n")
    patch = (
        "a.txt\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n\n"
        "b.txt\n<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n"
    )
    engine.apply_patch(patch, format="search_replace")
    groups = {entry.group for entry in engine.journal_entries()}
    assert len(groups) == 1 and None not in groups
    engine.undo()
    assert (a.read_text(), b.read_text()) == ("x = 1\n", "y = 1\n")


def test_a_tracker_that_requires_reads_accepts_the_engine_s_own_writes(make_engine, write):
    path = write("f.txt", "1\n")
    engine = make_engine(read_tracker=ReadTracker(require_read=True))
    engine.read_file("f.txt")
    engine.edit("f.txt", "1", "2")
    engine.edit("f.txt", "2", "3")
    assert path.read_text() == "3\n"


def test_several_edits_that_change_nothing_say_so_in_the_summary_only(engine, write):
    write("a.txt", "x = 1\n")
    back = [
        {"old_string": "x = 1", "new_string": "x = 2"},
        {"old_string": "x = 2", "new_string": "x = 1"},
    ]
    result = engine.multi_edit("a.txt", back)
    assert result.summary == "No change in a.txt: the edits leave the file as it was"
    changed = engine.multi_edit("a.txt", back[:1])
    assert "the edits leave the file as it was" not in " ".join(changed.notes)
    assert not changed.summary.startswith("No change")


# ---------------------------------------------------------------- locks, modes, sizes


def test_a_dry_run_and_an_edit_that_changes_nothing_never_wait_for_the_lock(
    make_engine, write, lock_dir
):
    path = write("a.txt", "x\n")
    engine = make_engine(lock_timeout=0.05)
    with PathLocks(lock_dir).hold(path.resolve(), display="held"):
        assert engine.edit("a.txt", "x", "y", dry_run=True).dry_run
        assert engine.edit("a.txt", "x", "x").no_change
        with pytest.raises(EditError) as caught:
            engine.edit("a.txt", "x", "y")
    assert caught.value.message.startswith("a.txt stayed locked by another edit")
    assert path.read_text() == "x\n"


def test_an_approved_write_waiting_for_the_lock_names_the_file(make_engine, write, lock_dir):
    path = write("a.txt", "x\n")
    locks = PathLocks(lock_dir)
    held = []

    def approve(request) -> bool:
        held.append(locks.hold(path.resolve(), display="held"))
        held[0].__enter__()
        return True

    engine = make_engine(lock_timeout=0.05, confirm=approve)
    try:
        with pytest.raises(EditError) as caught:
            engine.edit("a.txt", "x", "y")
    finally:
        held[0].__exit__(None, None, None)
    assert caught.value.message.startswith("a.txt stayed locked by another edit")
    assert path.read_text() == "x\n"


def test_the_match_mode_is_handed_to_the_cascade(engine, write):
    path = write("a.py", "def f():\n    return 1\n")
    with pytest.raises(NoMatch):
        engine.edit("a.py", "def f():\nreturn 1", "def f():\nreturn 2", match_mode="exact")
    assert path.read_text() == "def f():\n    return 1\n"
    engine.edit("a.py", "def f():\nreturn 1", "def f():\nreturn 2")
    assert path.read_text() == "def f():\n    return 2\n"


# ---------------------------------------------------------------- a correction, the fixer meanwhile


def test_an_identical_edit_written_while_the_fixer_ran_makes_this_one_no_change(
    make_engine, write, fake_fixer
):
    path = write("g.py", SOURCE)
    other = make_engine(fixer=fake_fixer(_correction()))
    fixer = fake_fixer(_correction(), during=lambda request: other.edit("g.py", WRONG_OLD, NEW))

    result = make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)

    assert path.read_text() == FIXED
    assert result.no_change
    assert result.corrected_by_fixer
    assert result.fixer_explanation == "the function is called greet"
    assert result.hash_after == sha(FIXED.encode())
    assert result.notes == (LANDED_NOTE,)  # found on the read after the fixer, not judged
    assert len(fixer.requests) == 1


def test_a_file_deleted_while_the_fixer_ran_is_not_found_with_a_note(
    make_engine, write, fake_fixer
):
    path = write("g.py", SOURCE)
    fixer = fake_fixer(_correction(), during=lambda request: path.unlink())
    with pytest.raises(FileNotFound) as caught:
        make_engine(fixer=fixer).edit("g.py", WRONG_OLD, NEW)
    assert caught.value.notes_for_agent == [
        "It was deleted while the LLM fixer ran; nothing was written."
    ]
    assert not path.exists()


def test_a_file_changed_while_the_fixer_ran_is_reported_as_it_was_then(
    make_engine, write, fake_fixer, observer
):
    path = write("g.py", SOURCE)
    changed = SOURCE + "# more\n"
    fixer = fake_fixer(_correction(), during=lambda request: path.write_text(changed))
    make_engine(fixer=fixer, telemetry=observer).edit("g.py", WRONG_OLD, NEW)
    state = observer.events[-1][1]
    assert state.hash_before == sha(changed.encode())
    assert state.file_bytes == len(changed)
    assert path.read_text() == FIXED + "# more\n"


# ---------------------------------------------------------------- a file that keeps changing


class _Meddling:
    """The default cascade, with ``during(n)`` run before its n-th match (from 0)."""

    def __init__(self, during) -> None:
        self.calls = 0
        self.during = during

    def tiers_for(self, match_mode):
        return DEFAULT_CASCADE.tiers_for(match_mode)

    def edit(self, *args, **kwargs):
        self.during(self.calls)
        self.calls += 1
        return DEFAULT_CASCADE.edit(*args, **kwargs)


def test_a_file_that_no_longer_holds_the_quote_on_the_locked_try_goes_to_the_fixer(
    make_engine, write, fake_fixer
):
    path = write("t.py", "total = compute(alpha)\n")

    def meddle(n: int) -> None:
        if n < 2:
            path.write_text(f"total = compute(alpha)\n# {n}\n")
        elif n == 2:
            path.write_text("total = compute(alpa)\n")  # the quote is no longer there

    fixer = fake_fixer(
        Correction(
            search="total = compute(alpa)",
            replace="total = compute(beta)",
            explanation="the argument is spelled alpa",
            provider="fake",
            model="fake-1",
        )
    )
    engine = make_engine(cascade=_Meddling(meddle), fixer=fixer)
    result = engine.edit("t.py", "total = compute(alpha)", "total = compute(beta)")
    assert len(fixer.requests) == 1
    assert fixer.requests[0].content == "total = compute(alpa)\n"
    assert result.corrected_by_fixer
    assert path.read_text() == "total = compute(beta)\n"


def test_a_file_that_ends_up_holding_the_change_on_the_locked_try_is_no_change(make_engine, write):
    old = "def area(width, height):\n    return width * height\n"
    new = "def area(width, height):\n    return abs(width * height)\n"
    path = write("a.py", old)

    def meddle(n: int) -> None:
        if n < 2:
            path.write_text(f"{old}# {n}\n")
        elif n == 2:
            path.write_text(new)  # someone else made the same change

    engine = make_engine(cascade=_Meddling(meddle))
    result = engine.edit("a.py", old, new)
    assert result.no_change
    assert path.read_text() == new


def test_a_retry_names_the_file_when_the_lock_for_its_write_stays_taken(
    make_engine, write, lock_dir
):
    path = write("a.txt", "x = 1\n")
    holder = PathLocks(lock_dir).hold(path.resolve(), display="held")

    def meddle(n: int) -> None:
        path.write_text(f"x = 1\n# {n}\n")
        if n == 2:
            holder.__enter__()

    engine = make_engine(cascade=_Meddling(meddle), lock_timeout=0.05)
    try:
        with pytest.raises(EditError) as caught:
            engine.edit("a.txt", "x = 1", "x = 2")
    finally:
        holder.__exit__(None, None, None)
    assert caught.value.message.startswith("a.txt stayed locked by another edit")
    assert path.read_text() == "x = 1\n# 2\n"


# ---------------------------------------------------------------- how an engine is made


def test_an_engine_works_in_the_current_folder_by_default(workspace, lock_dir, monkeypatch):
    (workspace / "a.txt").write_text("x\n")
    monkeypatch.chdir(workspace)
    engine = EditEngine(lock_dir=lock_dir)
    engine.edit("a.txt", "x", "y")
    assert (workspace / "a.txt").read_text() == "y\n"


def test_an_engine_without_a_journal_edits_and_refuses_to_undo(make_engine, write):
    path = write("a.txt", "x\n")
    engine = make_engine(journal=False)
    result = engine.edit("a.txt", "x", "y")
    assert path.read_text() == "y\n"
    assert result.notes == ()
    with pytest.raises(JournalError) as caught:
        engine.undo()
    assert caught.value.message.startswith("This engine keeps no undo journal")


def test_an_engine_given_a_journal_records_its_writes_there(
    make_engine, write, workspace, tmp_path
):
    path = write("a.txt", "x\n")
    journal = Journal(workspace, directory=tmp_path / "journal")
    engine = make_engine(journal=journal)
    engine.edit("a.txt", "x", "y")
    assert [entry.operation for entry in journal.entries()] == ["edit"]
    assert make_engine().journal_entries() == []  # not the workspace's default journal
    engine.undo()
    assert path.read_text() == "x\n"


def test_an_unknown_match_mode_is_refused_before_the_file_is_looked_for(engine):
    with pytest.raises(BadRequest) as caught:
        engine.edit("missing.txt", "a", "b", match_mode="bogus")
    assert "bogus" in caught.value.message


def test_an_async_approval_in_a_sync_edit_inside_a_loop_names_the_confirm_callback(
    make_engine, write
):
    path = write("a.txt", "x\n")

    async def approve(request) -> bool:
        return True

    engine = make_engine(confirm=approve)

    async def inside_a_loop() -> None:
        engine.edit("a.txt", "x", "y")

    with pytest.raises(BadRequest) as caught:
        asyncio.run(inside_a_loop())
    assert caught.value.message.startswith("The confirm callback is async")
    assert path.read_text() == "x\n"


# ---------------------------------------------------------------- where a path leads


def test_an_autocorrected_path_says_so_word_for_word(make_engine, write, observer):
    path = write("src/deep/settings.py", "DEBUG = True\n")
    engine = make_engine(autocorrect_paths=True, telemetry=observer)
    result = engine.edit("settings.py", "DEBUG = True", "DEBUG = False")
    assert result.notes[0] == (
        "settings.py does not exist; edited src/deep/settings.py, the only file with that "
        "name in the workspace."
    )
    assert path.read_text() == "DEBUG = False\n"


def test_a_file_too_large_to_read_is_named_and_so_is_the_edit_s_file(make_engine, write, observer):
    write("big.txt", "x" * 64)
    engine = make_engine(max_file_bytes=16, telemetry=observer)
    with pytest.raises(EditError) as caught:
        engine.edit("big.txt", "x", "y")
    assert caught.value.message.startswith("big.txt")
    assert observer.events[-1][1].file_path == "big.txt"


def test_an_autocorrected_file_too_large_to_read_is_reported_under_its_real_name(
    make_engine, write, observer
):
    write("src/big.txt", "x" * 64)
    engine = make_engine(max_file_bytes=16, telemetry=observer, autocorrect_paths=True)
    with pytest.raises(EditError) as caught:
        engine.edit("big.txt", "x", "y")
    assert caught.value.message.startswith("src/big.txt")
    assert observer.events[-1][1].file_path == "src/big.txt"


def test_a_file_not_read_first_is_named_when_reads_are_required(make_engine, write):
    write("a.txt", "x\n")
    engine = make_engine(read_tracker=ReadTracker(require_read=True))
    with pytest.raises(StaleFile) as caught:
        engine.edit("a.txt", "x", "y")
    assert caught.value.message == "a.txt has not been read in this session; nothing was written."


def test_apply_patch_applies_and_detects_the_format_by_default(make_engine, write):
    a = write("a.txt", "x = 1\n")
    patch = "a.txt\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    result = make_engine().apply_patch(patch)
    assert not result.dry_run
    assert result.format == "search_replace"
    assert a.read_text() == "x = 2\n"


def test_a_path_through_a_file_is_named_whether_it_is_edited_or_created(engine, write):
    write("a.txt", "x\n")
    for old in ("x", ""):
        with pytest.raises(EditError) as caught:
            engine.edit("a.txt/b.txt", old, "y")
        assert caught.value.message == (
            "a.txt/b.txt cannot be reached: 'a.txt' on its path is not a folder."
        )


def test_a_folder_moved_away_during_the_write_is_named_and_nothing_is_written(
    engine, write, monkeypatch, workspace
):
    write("sub/f.txt", "a\n")
    _before_the_write(monkeypatch, lambda: os.rename(workspace / "sub", workspace / "gone"))
    with pytest.raises(StaleFile) as caught:
        engine.edit("sub/f.txt", "a", "b")
    assert caught.value.message == (
        "A folder on the path of sub/f.txt was moved or replaced during the edit; "
        "nothing was written."
    )
    assert (workspace / "gone" / "f.txt").read_text() == "a\n"


def test_a_disk_that_refuses_the_write_is_named_and_the_file_left_unchanged(
    engine, write, monkeypatch
):
    path = write("sub/f.txt", "a\n")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "_write_temp", full)
    with pytest.raises(EditError) as caught:
        engine.edit("sub/f.txt", "a", "b")
    assert caught.value.message == (
        "Could not write sub/f.txt: No space left on device. The file was left unchanged."
    )
    assert path.read_text() == "a\n"


# ---------------------------------------------------------------- more of the same, exactly


def test_redo_takes_back_the_newest_undos_of_the_path_only_and_as_many_as_asked(engine, write):
    a = write("a.txt", "1\n")
    b = write("b.txt", "1\n")
    engine.edit("a.txt", "1", "2")
    engine.edit("a.txt", "2", "3")
    engine.edit("b.txt", "1", "2")
    engine.undo("a.txt", steps=2)
    engine.undo("b.txt")
    redone = engine.redo("a.txt", steps=2)
    assert redone.files == ("a.txt",)
    assert len(redone.restored) == 2
    assert (a.read_text(), b.read_text()) == ("3\n", "1\n")


def test_two_likely_names_are_offered_separated_by_a_comma(engine, write):
    write("a/app.py", "x\n")
    write("b/app.py", "x\n")
    with pytest.raises(FileNotFound) as caught:
        engine.edit("app.py", "x", "y")
    assert caught.value.hint == "Did you mean: a/app.py, b/app.py?"


def test_a_lock_kept_taken_is_reported_with_its_wait_word_for_word(make_engine, write, lock_dir):
    path = write("a.txt", "x\n")
    engine = make_engine(lock_timeout=0.05)
    held = PathLocks(lock_dir).hold(path.resolve(), display="held")
    with held, pytest.raises(EditError) as caught:
        engine.edit("a.txt", "x", "y")
    assert caught.value.message == (
        "a.txt stayed locked by another edit for 0.05 s; nothing was written."
    )


def test_an_approval_carrying_content_writes_the_edit_as_planned(make_engine, write):
    path = write("a.txt", "x\n")
    engine = make_engine(confirm=lambda request: Decision("approve", content="z\n"))
    result = engine.edit("a.txt", "x", "y")
    assert not result.modified_by_user
    assert path.read_text() == "y\n"


def test_a_sync_edit_reports_how_long_it_took_in_milliseconds(make_engine, write, observer):
    write("a.txt", "x\n")

    def slow_approval(request) -> bool:
        time.sleep(0.05)
        return True

    engine = make_engine(telemetry=observer, confirm=slow_approval)
    started = time.perf_counter()
    engine.edit("a.txt", "x", "y")
    elapsed_ms = (time.perf_counter() - started) * 1000
    assert 50 <= observer.events[-1][1].duration_ms <= elapsed_ms


def _taken_on_the_lock_s(monkeypatch, lock_dir, path, nth: int):
    """Another writer takes ``path``'s lock right before the engine's ``nth`` lock (from 1)."""
    holder = PathLocks(lock_dir).hold(path.resolve(), display="held")
    real = PathLocks.hold
    count = [0]

    def hold(self, *args, **kwargs):
        count[0] += 1
        if count[0] == nth:
            holder.__enter__()
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PathLocks, "hold", hold)
    return holder


def test_the_locked_last_try_names_the_file_when_its_lock_stays_taken(
    make_engine, write, lock_dir, monkeypatch
):
    path = write("a.txt", "x = 1\n")
    engine = make_engine(
        cascade=_Meddling(lambda n: path.write_text(f"x = 1\n# {n}\n")), lock_timeout=0.05
    )
    holder = _taken_on_the_lock_s(monkeypatch, lock_dir, path, 4)  # after three unlocked tries
    try:
        with pytest.raises(EditError) as caught:
            engine.edit("a.txt", "x = 1", "x = 2")
    finally:
        holder.__exit__(None, None, None)
    assert caught.value.message.startswith("a.txt stayed locked by another edit")


@pytest.mark.parametrize("search", ["    return 'hello ' + name", "    return 'bye'"])
def test_a_corrected_write_names_the_file_when_its_lock_stays_taken(
    make_engine, write, fake_fixer, lock_dir, monkeypatch, search
):
    # An accepted correction takes the lock to write; a refused one, to look for an
    # identical edit's result: either names the file when the lock stays taken.
    path = write("g.py", SOURCE)
    engine = make_engine(fixer=fake_fixer(_correction(search)), lock_timeout=0.05)
    holder = _taken_on_the_lock_s(monkeypatch, lock_dir, path, 1)
    try:
        with pytest.raises(EditError) as caught:
            engine.edit("g.py", WRONG_OLD, NEW)
    finally:
        holder.__exit__(None, None, None)
    assert caught.value.message.startswith("g.py stayed locked by another edit")
    assert path.read_text() == SOURCE


def test_a_patch_hands_its_instruction_and_format_on(make_engine, write, fake_fixer):
    write("g.py", SOURCE)
    patch = f"g.py\n<<<<<<< SEARCH\n{WRONG_OLD}=======\n{NEW}>>>>>>> REPLACE\n"
    for run in (
        lambda engine: engine.apply_patch(patch, instruction="say hi"),
        lambda engine: asyncio.run(engine.aapply_patch(patch, instruction="say hi")),
    ):
        write("g.py", SOURCE)
        fixer = fake_fixer(_correction())
        run(make_engine(fixer=fixer))
        assert fixer.requests[0].instruction == "say hi"
    # A patch that applies as search/replace blocks is refused when read as a unified diff.
    path = write("g.py", SOURCE)
    exact = (
        "g.py\n<<<<<<< SEARCH\n    return 'hello ' + name\n"
        "=======\n    return 'hi'\n>>>>>>> REPLACE\n"
    )
    engine = make_engine()
    for call in (
        lambda: engine.apply_patch(exact, format="udiff"),
        lambda: asyncio.run(engine.aapply_patch(exact, format="udiff")),
    ):
        with pytest.raises(EditError):
            call()
        assert path.read_text() == SOURCE


def test_an_edit_applied_as_sent_is_not_reported_to_an_identical_request_as_a_correction(
    make_engine, write, fake_fixer
):
    path = write("g.py", SOURCE)
    # While the first request's fixer runs, the file comes to hold old_string as quoted:
    # that request applies as sent. The second, identical, request was waiting for its own
    # fixer meanwhile: no correction of the first made the content it now finds.
    first = make_engine(
        fixer=fake_fixer(_correction(), during=lambda request: path.write_text(WRONG_OLD))
    )
    second_fixer = fake_fixer(
        _correction(), during=lambda request: first.edit("g.py", WRONG_OLD, NEW)
    )
    result = make_engine(fixer=second_fixer).edit("g.py", WRONG_OLD, NEW)
    # Found applied already, as the edit was sent; not as an earlier correction's result.
    assert result.no_change
    assert not result.corrected_by_fixer
    assert LANDED_NOTE not in result.notes
    assert result.summary.startswith("No change in g.py: old_string is not in the file")
    assert path.read_text() == NEW
