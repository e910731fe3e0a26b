"""A multi-file patch is all or nothing across a crash: journaled ahead, and settled by the
next engine (or undo) whatever moment the writer was killed at."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from editengine.engine import EditEngine
from editengine.journal import Journal
from editengine.journal import _transaction as transaction
from editengine.journal._intents import Intent

NAMES = [f"f{n}.txt" for n in range(5)]
LINES = 4000  # about 200 KB a file: each write takes a moment worth killing in


def _old(name: str) -> bytes:
    return "".join(f"{name} line {n} of the original text\n" for n in range(LINES)).encode()


def _new(name: str) -> bytes:
    return _old(name).replace(b" line 3000 of the original", b" line 3000 of the PATCHED", 1)


PATCH = "".join(
    f"--- a/{name}\n+++ b/{name}\n@@ -3001,1 +3001,1 @@\n"
    f"-{name} line 3000 of the original text\n+{name} line 3000 of the PATCHED text\n"
    for name in NAMES
)


def _state(root: Path) -> str:
    """'old', 'new', or a description of the mix."""
    found = [(root / name).read_bytes() for name in NAMES]
    if found == [_old(name) for name in NAMES]:
        return "old"
    if found == [_new(name) for name in NAMES]:
        return "new"
    return "mixed: " + ", ".join(
        "old" if data == _old(n) else "new" if data == _new(n) else "other"
        for n, data in zip(NAMES, found, strict=True)
    )


def _child(make: Callable[[], EditEngine], ready: int) -> None:
    """Apply the patch; tell the parent the moment the commit begins."""
    engine = make()
    commit = transaction.commit

    def announced(*args: object, **kwargs: object) -> object:
        os.write(ready, b"!")
        return commit(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    transaction.commit = announced  # type: ignore[assignment]  # a test double put in place
    engine.apply_patch(PATCH, format="udiff")


def _run_and_kill(make: Callable[[], EditEngine], delay: float | None) -> float:
    """Fork a writer, SIGKILL it ``delay`` seconds into its commit (``None``: let it end);
    the commit's duration when it ran to its end."""
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():  # (3.12+ warns of forking with threads; the child
        warnings.simplefilter("ignore", DeprecationWarning)  # only runs this engine's code)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 0
        try:
            os.close(read_end)
            _child(make, write_end)
        except BaseException:
            code = 1
        os._exit(code)
    os.close(write_end)
    try:
        assert os.read(read_end, 1) == b"!"
        started = time.perf_counter()
        if delay is not None:
            time.sleep(delay)
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if delay is None:
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        return time.perf_counter() - started
    finally:
        os.close(read_end)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_patch_killed_at_any_moment_is_all_old_or_all_new_and_one_undo_restores_it(
    workspace: Path, journal_dir: Path, tmp_path: Path
) -> None:
    for name in NAMES:
        (workspace / name).write_bytes(_old(name))

    def make() -> EditEngine:
        return EditEngine(
            workspace,
            lock_dir=tmp_path / "locks",
            journal=Journal(workspace, directory=journal_dir),
        )

    # How long an uninterrupted commit takes, so the kills land all over it.
    duration = _run_and_kill(make, None)
    assert _state(workspace) == "new"
    make().undo()
    assert _state(workspace) == "old"

    rng = random.Random(26)
    outcomes: dict[str, int] = {}
    for _ in range(50):
        _run_and_kill(make, rng.uniform(0, duration * 1.2))
        if list(journal_dir.glob("*/intent-*")):
            outcomes["killed mid-commit"] = outcomes.get("killed mid-commit", 0) + 1
        engine = make()  # the next engine settles what the killed one left
        state = _state(workspace)
        assert state in ("old", "new"), state
        outcomes[state] = outcomes.get(state, 0) + 1
        assert not list(journal_dir.glob("*/intent-*"))
        if state == "new":
            engine.undo()  # one undo takes the whole patch back
            assert _state(workspace) == "old"
        assert not [p for p in workspace.iterdir() if p.name.endswith(".tmp")]
    print("outcomes of the kills:", outcomes, "commit seconds:", round(duration, 4))
    # The kills landed both before and after the patch's files were all written.
    assert outcomes.get("old", 0) >= 1 and outcomes.get("new", 0) >= 1, outcomes


def _killed_between_writes(engine: EditEngine, after: int) -> None:
    """Apply the patch, dying (as if SIGKILLed) once ``after`` files are written: the
    intent is left on disk, unlocked, as a dead process leaves it."""
    write_file = transaction.write_file
    written = {"n": 0}

    class Killed(BaseException):
        pass

    def write(*args: object, **kwargs: object) -> object:
        if written["n"] == after:
            raise Killed
        written["n"] += 1
        return write_file(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    def commit(intent: Intent, **options: object) -> None:  # every file written: die now
        intent.release()  # as the kernel does for a dead process
        raise Killed

    assert engine.journal is not None
    engine.journal.commit = commit  # type: ignore[method-assign,assignment]  # a test double put in place
    real_take_back = transaction._take_back
    transaction.write_file = write  # type: ignore[assignment]  # a test double put in place
    transaction._take_back = lambda engine, done: -1  # type: ignore[assignment]  # no roll back: dead
    try:
        with pytest.raises(Killed):
            engine.apply_patch(PATCH, format="udiff")
    finally:
        transaction.write_file = write_file  # type: ignore[assignment]  # a test double put in place
        transaction._take_back = real_take_back  # type: ignore[assignment]  # a test double put in place
        del engine.journal.commit


@pytest.mark.parametrize("after", [1, 3, 5])
def test_the_next_engine_rolls_a_half_done_patch_back_or_a_whole_one_forward(
    make_engine: Callable[..., EditEngine], workspace: Path, journal_dir: Path, after: int
) -> None:
    for name in NAMES:
        (workspace / name).write_bytes(_old(name))
    engine = make_engine()
    _killed_between_writes(engine, after)
    intents = list(journal_dir.glob("*/intent-*"))
    assert len(intents) == 1
    assert engine.journal is not None
    assert engine.journal.entries() == []  # nothing journaled yet: it was written ahead

    fresh = make_engine()

    assert not intents[0].exists()
    if after < len(NAMES):
        assert _state(workspace) == "old"
        assert fresh.journal is not None and fresh.journal.entries() == []
    else:  # every file was written: the patch is kept, and is one undo step
        assert _state(workspace) == "new"
        fresh.undo()
        assert _state(workspace) == "old"


def test_an_undo_settles_a_half_done_patch_first(
    make_engine: Callable[..., EditEngine], workspace: Path, journal_dir: Path
) -> None:
    for name in NAMES:
        (workspace / name).write_bytes(_old(name))
    engine = make_engine()
    engine.edit("f0.txt", "f0.txt line 1 of", "f0.txt line one of")
    _killed_between_writes(engine, 2)

    engine.undo()  # the same engine: the interrupted patch is settled, then the edit undone

    assert _state(workspace) == "old"
    assert not list(journal_dir.glob("*/intent-*"))


def test_an_intent_whose_writer_is_at_work_is_left_alone(
    make_engine: Callable[..., EditEngine], workspace: Path
) -> None:
    for name in NAMES:
        (workspace / name).write_bytes(_old(name))
    engine = make_engine()
    seen: list[int] = []
    write_file = transaction.write_file

    def write(*args: object, **kwargs: object) -> object:
        if not seen:
            assert engine.journal is not None
            seen.append(len(engine.journal.pending()))  # the live writer's lock is held
        return write_file(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    transaction.write_file = write  # type: ignore[assignment]  # a test double put in place
    try:
        engine.apply_patch(PATCH, format="udiff")
    finally:
        transaction.write_file = write_file  # type: ignore[assignment]  # a test double put in place
    assert seen == [0]
    assert _state(workspace) == "new"


def test_a_file_another_program_changed_after_the_crash_is_left_as_it_is(
    make_engine: Callable[..., EditEngine], workspace: Path, journal_dir: Path
) -> None:
    for name in NAMES:
        (workspace / name).write_bytes(_old(name))
    _killed_between_writes(make_engine(), 2)
    (workspace / "f0.txt").write_bytes(b"theirs\n")

    make_engine()

    assert (workspace / "f0.txt").read_bytes() == b"theirs\n"
    assert (workspace / "f1.txt").read_bytes() == _new("f1.txt")  # not settled: left for undo
    assert len(list(journal_dir.glob("*/intent-*"))) == 1


def test_the_intent_holds_every_files_old_and_new_hash_before_the_first_write(
    make_engine: Callable[..., EditEngine], workspace: Path
) -> None:
    for name in NAMES:
        (workspace / name).write_bytes(_old(name))
    engine = make_engine()
    assert engine.journal is not None
    _killed_between_writes(engine, 0)
    (intent,) = engine.journal.pending()
    try:
        assert [(e.path, e.before_sha256, e.after_sha256) for e in intent.entries] == [
            (n, hashlib.sha256(_old(n)).hexdigest(), hashlib.sha256(_new(n)).hexdigest())
            for n in NAMES
        ]
        assert all(e.restore is not None and e.group == intent.group for e in intent.entries)
    finally:
        intent.release()
