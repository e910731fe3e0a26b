"""Nothing slow runs while the file's lock is held: matching and suggestions run before it."""

from __future__ import annotations

import threading

import pytest

from editengine import DEFAULT_CASCADE
from editengine._errors import FileNotFound, StaleFile
from editengine.files import PathLocks


class LockProbe:
    """A cascade that, while it matches, checks whether another writer could take the lock."""

    def __init__(self, lock_dir, path, *, during=None) -> None:
        self.free: list[bool] = []
        self._locks = PathLocks(lock_dir, timeout=0.05)
        self._path = path
        self._during = during
        self.tiers = DEFAULT_CASCADE.tiers

    def tiers_for(self, match_mode):
        return DEFAULT_CASCADE.tiers_for(match_mode)

    def edit(self, *args, **kwargs):
        result: list[bool] = []

        def other_writer() -> None:  # another thread: the engine's thread lock is no help
            try:
                with self._locks.hold(self._path, display="probe"):
                    result.append(True)
            except Exception:
                result.append(False)

        thread = threading.Thread(target=other_writer)
        thread.start()
        thread.join(timeout=30)
        self.free.append(result == [True])
        if self._during is not None:
            self._during()
        return DEFAULT_CASCADE.edit(*args, **kwargs)


def test_the_cascade_runs_without_the_lock(make_engine, write, lock_dir, workspace):
    path = write("f.py", "x = 1\n")
    probe = LockProbe(lock_dir, path.resolve())
    engine = make_engine(cascade=probe)
    engine.edit("f.py", "x = 1", "x = 2")
    assert probe.free == [True]
    assert path.read_text() == "x = 2\n"


def test_a_change_during_the_match_is_caught_and_the_match_redone(make_engine, write, lock_dir):
    path = write("f.py", "x = 1\ny = 1\n")
    changes = iter(["x = 1\ny = 5\n"])

    def meddle() -> None:
        text = next(changes, None)
        if text is not None:
            path.write_text(text)

    probe = LockProbe(lock_dir, path.resolve(), during=meddle)
    engine = make_engine(cascade=probe)
    result = engine.edit("f.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 2\ny = 5\n"  # the other writer's change survives
    assert len(probe.free) == 2  # matched again on the new text
    assert result.replacements == 1


def test_a_file_that_never_settles_is_matched_under_the_lock(make_engine, write, lock_dir):
    path = write("f.py", "x = 1\n")
    counter = iter(range(1000))

    def meddle() -> None:
        n = next(counter)
        if n < 3:  # changes during each unlocked try, then lets the locked one through
            path.write_text(f"x = 1\n# {n}\n")

    probe = LockProbe(lock_dir, path.resolve(), during=meddle)
    engine = make_engine(cascade=probe)
    engine.edit("f.py", "x = 1", "x = 2")
    assert probe.free == [True, True, True, False]
    assert path.read_text() == "x = 2\n# 2\n"


def test_suggestions_for_a_missing_file_are_made_without_the_lock(
    make_engine, workspace, lock_dir, monkeypatch
):
    (workspace / "src").mkdir()
    (workspace / "src" / "app.py").write_text("")
    from editengine.engine import _core as core

    locks = PathLocks(lock_dir, timeout=0.05)
    free: list[bool] = []
    real = core.suggest_paths

    def probing(root, missing, **kwargs):
        result: list[bool] = []

        def other() -> None:
            try:
                with locks.hold((workspace / missing).resolve(), display="probe"):
                    result.append(True)
            except Exception:
                result.append(False)

        thread = threading.Thread(target=other)
        thread.start()
        thread.join(timeout=30)
        free.append(result == [True])
        return real(root, missing, **kwargs)

    monkeypatch.setattr(core, "suggest_paths", probing)
    with pytest.raises(FileNotFound) as caught:
        make_engine().edit("app.py", "a", "b")
    assert free and all(free)
    assert caught.value.suggestions == ("src/app.py",)


def test_approval_then_a_changed_file_is_stale(make_engine, write):
    path = write("f.py", "x = 1\n")

    def approve(request) -> bool:
        path.write_text("x = 1\n# changed\n")
        return True

    with pytest.raises(StaleFile):
        make_engine(confirm=approve).edit("f.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 1\n# changed\n"
