"""engine.undo / engine.redo: byte-exact restores, in order, refused after an outside change."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editengine._errors import JournalError, NothingToUndo, StaleFile
from editengine.engine import EditEngine
from editengine.journal import Journal


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def history(
    engine: EditEngine, workspace: Path, write: Callable[[str, bytes | str], Path]
) -> list[dict[str, bytes]]:
    """Three files in three styles, six writes; the workspace state before each write."""
    write("crlf.py", b"def f():\r\n    return 1\r\n\r\nx = f()\r\n")
    write("bom.md", b"\xef\xbb\xbf# Title\n\nSome text \xe2\x80\x94 here\n")
    write("pkg/tail.js", b"const a = 1;\nconst b = 2;")  # no final newline
    states = [snapshot(workspace)]
    engine.edit("crlf.py", "return 1", "return 2")
    states.append(snapshot(workspace))
    engine.edit("bom.md", "Some text — here", "Other text — there")
    states.append(snapshot(workspace))
    engine.multi_edit(
        "pkg/tail.js",
        [
            {"old_string": "const a = 1;", "new_string": "let a = 1;"},
            {"old_string": "const b = 2;", "new_string": "let b = 2;"},
        ],
    )
    states.append(snapshot(workspace))
    engine.edit("crlf.py", "def f():\n  return 2", "def f():\n    return 3")  # fuzzy
    states.append(snapshot(workspace))
    engine.edit("new/created.txt", "", "brand new\n")
    states.append(snapshot(workspace))
    engine.edit("bom.md", "# Title", "# Heading")
    states.append(snapshot(workspace))
    return states


def test_undo_restores_each_state_byte_exactly_in_reverse_order(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    for expected in reversed(history[:-1]):
        engine.undo()
        assert snapshot(workspace) == expected
    with pytest.raises(NothingToUndo):
        engine.undo()
    assert snapshot(workspace) == history[0]


def test_undo_several_steps_at_once(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    result = engine.undo(steps=4)
    assert snapshot(workspace) == history[2]
    assert [item.file_path for item in result.restored] == [
        "bom.md",
        "new/created.txt",
        "crlf.py",
        "pkg/tail.js",
    ]
    assert result.restored[1].deleted
    assert not (workspace / "new" / "created.txt").exists()


def test_undo_of_one_file_leaves_the_others(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    engine.undo("crlf.py")
    after = snapshot(workspace)
    assert after["crlf.py"] == history[3]["crlf.py"]
    assert {k: v for k, v in after.items() if k != "crlf.py"} == {
        k: v for k, v in history[-1].items() if k != "crlf.py"
    }
    engine.undo("crlf.py")
    assert snapshot(workspace)["crlf.py"] == history[0]["crlf.py"]
    with pytest.raises(NothingToUndo):
        engine.undo("crlf.py")


def test_undo_after_an_outside_change_is_refused_and_changes_nothing(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    (workspace / "bom.md").write_bytes(b"changed by someone else\n")
    before = snapshot(workspace)
    entries = len(engine.journal_entries())
    with pytest.raises(StaleFile) as caught:
        engine.undo()
    assert "bom.md" in str(caught.value)
    assert caught.value.code == "stale_file"
    assert snapshot(workspace) == before
    assert len(engine.journal_entries()) == entries


def test_a_refused_step_refuses_the_whole_undo(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    # Between the 1st and the 4th write of crlf.py's history someone wrote crlf.py by hand:
    # journal says the 4th write started from bytes the 1st did not leave.
    engine.undo(steps=3)  # back to history[3]: the fuzzy crlf.py edit undone
    assert snapshot(workspace) == history[3]
    (workspace / "crlf.py").write_bytes(b"hand edit\n")
    engine.edit("crlf.py", "hand edit", "tool edit")
    state = snapshot(workspace)
    with pytest.raises(StaleFile) as caught:
        engine.undo("crlf.py", steps=2)
    assert "reached after undoing the newer steps" in str(caught.value)
    assert snapshot(workspace) == state


def test_redo_reverses_an_undo_until_the_file_is_edited_again(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    engine.undo(steps=2)
    assert snapshot(workspace) == history[4]
    engine.redo()
    assert snapshot(workspace) == history[5]  # the created file is back
    engine.redo()
    assert snapshot(workspace) == history[6]
    with pytest.raises(NothingToUndo):
        engine.redo()
    engine.undo()
    engine.edit("bom.md", "# Title", "# Another")
    with pytest.raises(NothingToUndo):
        engine.redo("bom.md")
    # the redone writes are undoable again, the newest first
    engine.undo("bom.md")
    assert snapshot(workspace)["bom.md"] == history[-2]["bom.md"]


def test_another_engine_instance_undoes_from_the_shared_journal(
    engine: EditEngine,
    make_engine: Callable[..., EditEngine],
    workspace: Path,
    history: list[dict[str, bytes]],
) -> None:
    other = make_engine()
    other.undo()
    assert snapshot(workspace) == history[-2]
    engine.undo()  # sees the other's undo: goes one further back
    assert snapshot(workspace) == history[-3]


def test_undo_updates_the_read_tracker(
    make_engine: Callable[..., EditEngine], workspace: Path, write: Callable[..., Path]
) -> None:
    from editengine._read_tracker import ReadTracker

    engine = make_engine(read_tracker=ReadTracker())
    write("a.txt", "one\n")
    engine.read_file("a.txt")
    engine.edit("a.txt", "one", "two")
    engine.undo()
    engine.edit("a.txt", "one", "three")  # not refused as stale: the undo's result is known
    assert (workspace / "a.txt").read_text() == "three\n"


def test_too_large_to_keep_is_refused_with_the_file_left_alone(
    make_engine: Callable[..., EditEngine],
    workspace: Path,
    journal_dir: Path,
    write: Callable[..., Path],
) -> None:
    engine = make_engine(journal=Journal(workspace, directory=journal_dir, max_restore_bytes=100))
    write("big.txt", "x" * 500 + "\n")
    engine.edit(
        "big.txt", "", "small\n", overwrite=True
    )  # whole-file replacement: 501 bytes to keep
    with pytest.raises(JournalError, match="too large"):
        engine.undo()
    assert (workspace / "big.txt").read_bytes() == b"small\n"


def test_without_a_journal_undo_says_so(
    make_engine: Callable[..., EditEngine], write: Callable[..., Path]
) -> None:
    engine = make_engine(journal=False)
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    with pytest.raises(JournalError, match="no undo journal"):
        engine.undo()


def test_bad_steps_is_a_bad_request(engine: EditEngine) -> None:
    from editengine._errors import BadRequest

    for steps in (0, -1, True, "2"):
        with pytest.raises(BadRequest):
            engine.undo(steps=steps)  # type: ignore[arg-type]  # a wrong type on purpose


def test_more_steps_than_history_restores_nothing(
    engine: EditEngine, workspace: Path, history: list[dict[str, bytes]]
) -> None:
    with pytest.raises(NothingToUndo, match="only 6"):
        engine.undo(steps=7)
    assert snapshot(workspace) == history[-1]


def test_undo_keeps_the_file_mode(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("run.sh", "echo one\n")
    os.chmod(path, 0o751)
    engine.edit("run.sh", "one", "two")
    engine.undo()
    assert path.read_bytes() == b"echo one\n"
    assert path.stat().st_mode & 0o777 == 0o751


def test_journal_lives_outside_the_workspace(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    assert sorted(p.name for p in workspace.iterdir()) == ["a.txt"]
    assert engine.journal is not None
    assert workspace not in engine.journal.path.parents


LINES = st.lists(st.text(alphabet="abcé \t{}()=;", min_size=0, max_size=12), min_size=1, max_size=8)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    files=st.lists(LINES, min_size=1, max_size=3),
    ending=st.sampled_from(["\n", "\r\n"]),
    picks=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 7)), min_size=1, max_size=6),
)
def test_property_any_sequence_of_edits_undoes_to_the_original(
    tmp_path_factory: pytest.TempPathFactory,
    files: list[list[str]],
    ending: str,
    picks: list[tuple[int, int]],
) -> None:
    root = tmp_path_factory.mktemp("ws")
    engine = EditEngine(
        root,
        lock_dir=root.parent / "locks",
        journal=Journal(root, directory=root.parent / "journal"),
    )
    for index, lines in enumerate(files):
        numbered = [f"{n}:{line}" for n, line in enumerate(lines)]  # every line unique
        (root / f"f{index}.txt").write_bytes(ending.join(numbered).encode() + b"\n")
    original = snapshot(root)
    done = 0
    for file_index, line in picks:
        name = f"f{file_index % len(files)}.txt"
        text = (root / name).read_bytes().decode("utf-8")
        lines = text.split(ending)
        target = lines[line % max(1, len(lines) - 1)]
        if not target:
            continue
        engine.edit(name, target, target + " // edited " + str(done))
        done += 1
    if done:
        engine.undo(steps=done)
    assert snapshot(root) == original


def test_a_file_made_binary_since_is_stale_not_a_crash(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    path.write_bytes(b"\x00\x01binary")
    with pytest.raises(StaleFile, match="no longer UTF-8"):
        engine.undo()
    assert path.read_bytes() == b"\x00\x01binary"


def _patch_like(engine: EditEngine, changes: dict[str, bytes | None], group: str) -> None:
    """Write several files the way a patch does: each under its lock, each journaled through
    the engine's one recording call, all in one group (the contract for patches)."""
    from editengine.files import atomic_write, read_snapshot

    for name, data in changes.items():
        target = engine.workspace.resolve(name)
        with engine._locks.hold(target.real, display=target.display):
            before = read_snapshot(target.real, display=name, max_bytes=1 << 30)
            if data is None:
                os.unlink(target.real)
            else:
                atomic_write(target.real, data, display=name, mode=before.mode)
            engine._writer.record(
                target, before.data if before.exists else None, data,
                strategy="udiff", operation="patch", summary=f"Patched {name}",
                mode=before.mode, group=group,
            )  # fmt: skip


def test_one_undo_step_reverses_a_whole_patch_and_redo_reapplies_it(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    write("a.txt", "a1\n")
    write("b.txt", "b1\n")
    write("gone.txt", "bye\n")
    engine.edit("a.txt", "a1", "a2")
    before_patch = snapshot(workspace)
    _patch_like(engine, {"a.txt": b"a3\n", "b.txt": b"b2\n", "gone.txt": None,
                         "new.txt": b"hello\n"}, group="p1")  # fmt: skip
    after_patch = snapshot(workspace)
    engine.multi_edit("b.txt", [{"old_string": "b2", "new_string": "b3"}])
    engine.undo()
    assert snapshot(workspace) == after_patch
    result = engine.undo()  # the whole patch, one step
    assert snapshot(workspace) == before_patch
    assert sorted(item.file_path for item in result.restored) == [
        "a.txt", "b.txt", "gone.txt", "new.txt",
    ]  # fmt: skip
    assert (workspace / "gone.txt").read_bytes() == b"bye\n"
    engine.redo()  # the whole patch again
    assert snapshot(workspace) == after_patch
    engine.undo(steps=2)  # the patch, then the first edit
    assert (workspace / "a.txt").read_bytes() == b"a1\n"
    assert (workspace / "gone.txt").exists() and not (workspace / "new.txt").exists()


OPS = st.lists(
    st.tuples(
        st.sampled_from(["edit", "edit", "undo", "redo", "outside", "undo_file"]),
        st.integers(0, 1),
    ),
    min_size=1,
    max_size=14,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_property_undo_and_redo_only_ever_restore_states_seen_and_refusals_change_nothing(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int]]
) -> None:
    from editengine._errors import EditError

    root = tmp_path_factory.mktemp("ws")
    engine = EditEngine(
        root,
        lock_dir=root.parent / "locks",
        journal=Journal(root, directory=root.parent / "journal"),
    )
    names = ["a.txt", "b.txt"]
    for name in names:
        (root / name).write_bytes(f"{name} v0\r\n".encode())
    seen: dict[str, set[bytes | None]] = {name: {(root / name).read_bytes()} for name in names}
    outside_change = False
    for step, (op, which) in enumerate(ops):
        name = names[which]
        before = snapshot(root)
        try:
            if op == "edit":
                current = (root / name).read_bytes().decode()
                engine.edit(name, current.split("\r\n")[0], f"{name} v{step + 1}")
            elif op == "outside":
                (root / name).write_bytes(f"{name} by hand {step}\n".encode())
                outside_change = True
            elif op == "undo":
                engine.undo()
            elif op == "redo":
                engine.redo()
            else:
                engine.undo(name)
        except EditError:
            assert snapshot(root) == before  # a refusal changes nothing
        after = snapshot(root)
        for other in names:
            data = after.get(other)
            if op in ("undo", "redo", "undo_file"):
                assert data in seen[other]  # undo only ever brings back a state seen
            seen[other].add(data)
    if not outside_change:
        while True:
            try:
                engine.undo()
            except EditError:
                break
        assert snapshot(root) == {name: f"{name} v0\r\n".encode() for name in names}


def test_a_write_failing_mid_undo_puts_back_what_it_wrote(
    engine: EditEngine,
    workspace: Path,
    write: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An undo of several steps is all or nothing: a disk full on the second restore puts
    the first back, journals nothing, and the same undo works once the disk has room."""
    from editengine._errors import WriteFailed
    from editengine.files import AnchoredDir

    write("a.txt", "a1\n")
    write("b.txt", "b1\n")
    engine.edit("a.txt", "a1", "a2")
    engine.edit("b.txt", "b1", "b2")
    entries = len(engine.journal_entries())
    real_write = AnchoredDir.write
    calls: list[str] = []

    def failing(folder: AnchoredDir, name: str, data: bytes, **options: object) -> tuple[str, ...]:
        calls.append(name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_write(folder, name, data, **options)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(AnchoredDir, "write", failing)
    with pytest.raises(WriteFailed) as caught:
        engine.undo(steps=2)
    assert "The undo was rolled back: the 1 file(s) it had already written were put back" in (
        str(caught.value)
    )
    assert (workspace / "b.txt").read_bytes() == b"b2\n"
    assert (workspace / "a.txt").read_bytes() == b"a2\n"
    assert len(engine.journal_entries()) == entries
    monkeypatch.undo()
    engine.undo(steps=2)
    assert (workspace / "a.txt").read_bytes() == b"a1\n"
    assert (workspace / "b.txt").read_bytes() == b"b1\n"


def test_threads_editing_undoing_and_redoing_at_once_leave_a_journal_that_undoes_to_the_start(
    make_engine: Callable[..., EditEngine], workspace: Path, write: Callable[..., Path]
) -> None:
    import random
    import threading

    from editengine._errors import EditError

    for name in ("a", "b"):
        write(f"{name}.txt", "".join(f"{name} line {i}\r\n" for i in range(12)))
    start = snapshot(workspace)
    crashes: list[str] = []

    def editor(seed: int) -> None:
        engine, chance = make_engine(), random.Random(seed)
        for _ in range(15):
            name, line = chance.choice("ab"), chance.randrange(12)
            text = (workspace / f"{name}.txt").read_bytes().decode()
            old = next(x for x in text.split("\r\n") if x.startswith(f"{name} line {line}"))
            try:
                engine.edit(f"{name}.txt", old, old + "+")
            except EditError:
                pass  # an undo changed that line meanwhile: refused, which is right
            except Exception as error:
                crashes.append(repr(error))

    def undoer(seed: int) -> None:
        engine, chance = make_engine(), random.Random(seed)
        for _ in range(10):
            try:
                (engine.undo if chance.random() < 0.6 else engine.redo)()
            except EditError:
                pass
            except Exception as error:
                crashes.append(repr(error))

    threads = [threading.Thread(target=editor, args=(n,)) for n in range(3)]
    threads += [threading.Thread(target=undoer, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert crashes == []
    engine = make_engine()
    for _ in range(1000):
        try:
            engine.undo()
        except NothingToUndo:
            break
    assert snapshot(workspace) == start


@pytest.mark.parametrize("created", [False, True])
def test_a_program_ignoring_the_lock_that_writes_during_the_undo_is_not_clobbered(
    engine: EditEngine,
    workspace: Path,
    write: Callable[[str, bytes | str], Path],
    monkeypatch: pytest.MonkeyPatch,
    created: bool,
) -> None:
    # The file is checked under the lock, then written; another program (which takes no
    # lock) writes it in between. The undo must see that right before its rename (or its
    # unlink of a created file) and refuse, leaving the other program's bytes.
    if created:
        engine.edit("a.py", "", "x = 2\n")
    else:
        write("a.py", "x = 1\n")
        engine.edit("a.py", "x = 1", "x = 2")
    path = workspace / "a.py"
    from editengine.journal import _undo as undo_module

    read_under_lock = undo_module._snapshot
    reads = []

    def read_then_meddle(*args: object, **kwargs: object) -> object:
        snapshot = read_under_lock(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given
        reads.append(snapshot)
        if len(reads) == 1:  # right after the plan's read under the lock
            path.write_text("theirs\n")
        return snapshot

    monkeypatch.setattr(undo_module, "_snapshot", read_then_meddle)

    with pytest.raises(StaleFile):
        engine.undo()

    assert path.read_text() == "theirs\n"


def _process_editor(root: str, journal_dir: str, lock_dir: str, seed: int) -> None:
    import contextlib
    import random

    from editengine._errors import EditError

    engine = EditEngine(root, lock_dir=lock_dir, journal=Journal(root, directory=journal_dir))
    chance = random.Random(seed)
    for _ in range(12):
        name, line = chance.choice("ab"), chance.randrange(8)
        text = (Path(root) / f"{name}.txt").read_text()
        old = next(x for x in text.split("\n") if x.startswith(f"{name} line {line}"))
        # (Refused when an undo in another process changed that line meanwhile.)
        with contextlib.suppress(EditError):
            engine.edit(f"{name}.txt", old, old + "+")


def _process_undoer(root: str, journal_dir: str, lock_dir: str, seed: int) -> None:
    import contextlib
    import random

    from editengine._errors import EditError

    engine = EditEngine(root, lock_dir=lock_dir, journal=Journal(root, directory=journal_dir))
    chance = random.Random(seed)
    for _ in range(10):
        with contextlib.suppress(EditError):
            (engine.undo if chance.random() < 0.7 else engine.redo)()


def test_processes_editing_and_undoing_at_once_leave_a_journal_that_undoes_to_the_start(
    workspace: Path, journal_dir: Path, tmp_path: Path, write: Callable[..., Path]
) -> None:
    import multiprocessing

    for name in ("a", "b"):
        write(f"{name}.txt", "".join(f"{name} line {i}\n" for i in range(8)))
    start = snapshot(workspace)
    context = multiprocessing.get_context("spawn")
    args = (str(workspace), str(journal_dir), str(tmp_path / "locks"))
    workers = [context.Process(target=_process_editor, args=(*args, n)) for n in range(2)]
    workers.append(context.Process(target=_process_undoer, args=(*args, 7)))
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=180)
        assert process.exitcode == 0  # no process died of an uncaught error

    journal = Journal(workspace, directory=journal_dir)
    entries = journal.entries()  # every record whole and trusted
    assert sorted(entry.seq for entry in entries) == list(range(1, len(entries) + 1))
    engine = EditEngine(workspace, lock_dir=tmp_path / "locks", journal=journal)
    for _ in range(1000):
        try:
            engine.undo()
        except NothingToUndo:
            break
    assert snapshot(workspace) == start
