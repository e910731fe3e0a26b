"""files/_locking.py on its own: where locks live, who waits for whom, what a busy or broken
lock answers."""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import threading
from pathlib import Path

import filelock
import pytest

from editengine._errors import WriteFailed
from editengine.files._locking import STRIPES, PathLocks, default_lock_dir


@pytest.fixture
def locks(tmp_path: Path) -> PathLocks:
    return PathLocks(tmp_path / "locks", timeout=0.05)


def test_the_default_lock_folder_is_per_user_under_the_temp_folder():
    expected = Path(tempfile.gettempdir()) / f"editengine-locks-{os.getuid()}"
    assert default_lock_dir() == expected
    assert PathLocks().lock_dir == expected


@pytest.mark.parametrize(("username", "folder"), [("alice", "alice"), (None, "user")])
def test_without_user_ids_the_lock_folder_is_named_after_the_user(monkeypatch, username, folder):
    monkeypatch.delattr(os, "getuid")  # as on Windows
    if username is None:
        monkeypatch.delenv("USERNAME", raising=False)
    else:
        monkeypatch.setenv("USERNAME", username)
    assert default_lock_dir() == Path(tempfile.gettempdir()) / f"editengine-locks-{folder}"


def test_a_lock_folder_under_missing_folders_is_made_with_them(tmp_path):
    locks = PathLocks(tmp_path / "a" / "b" / "locks", timeout=0.05)
    with locks.hold(tmp_path / "f.txt", display="f.txt"):
        assert (tmp_path / "a" / "b" / "locks").is_dir()


def test_a_files_lock_is_the_stripe_named_by_the_sha256_of_its_real_path(locks, tmp_path):
    target = tmp_path / "f.txt"
    digest = hashlib.sha256(os.fsencode(target)).digest()
    stripe = int.from_bytes(digest[:4], "big") % STRIPES
    assert locks.lock_file_for(target) == tmp_path / "locks" / f"stripe-{stripe:03d}.lock"
    stripes = {locks.stripe_of(tmp_path / f"f{n}.txt") for n in range(6000)}
    assert stripes == set(range(STRIPES))  # spread over every stripe


def test_the_locks_of_a_thousand_files_keep_at_most_a_stripe_each_open(locks, tmp_path):
    files = [(tmp_path / f"f{n}.txt", f"f{n}.txt") for n in range(1000)]
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    with locks.hold_all(files):
        if before is not None:
            assert len(os.listdir("/proc/self/fd")) - before <= STRIPES
        assert 200 < len(os.listdir(tmp_path / "locks")) <= STRIPES
    with locks.hold(tmp_path / "f1.txt", display="f1.txt"):  # all released
        pass


def test_two_files_of_one_stripe_can_be_held_by_one_thread(locks, tmp_path):
    first = tmp_path / "f0.txt"
    same = next(
        tmp_path / f"f{n}.txt"
        for n in range(1, 5000)
        if locks.stripe_of(tmp_path / f"f{n}.txt") == locks.stripe_of(first)
    )
    with locks.hold(first, display="f0.txt"), locks.hold(same, display=same.name):
        pass


def test_the_lock_folder_is_made_private(locks, tmp_path):
    with locks.hold(tmp_path / "f.txt", display="f.txt"):
        assert (tmp_path / "locks").is_dir()
    assert stat.S_IMODE((tmp_path / "locks").stat().st_mode) == 0o700


def test_a_lock_is_free_again_after_its_holder_is_done_or_failed(locks, tmp_path):
    target = tmp_path / "f.txt"
    with locks.hold(target, display="f.txt"):
        pass
    with pytest.raises(RuntimeError), locks.hold(target, display="f.txt"):
        raise RuntimeError("the edit failed")
    with locks.hold(target, display="f.txt"):
        pass


def busy_error(locks: PathLocks, target: Path, holding) -> WriteFailed:
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with holding(target):
            entered.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert entered.wait(10)
        with pytest.raises(WriteFailed) as caught, locks.hold(target, display="sub/f.txt"):
            pass
        return caught.value
    finally:
        release.set()
        holder.join()


def test_a_file_locked_by_another_thread_answers_busy(locks, tmp_path):
    error = busy_error(locks, tmp_path / "f.txt", lambda t: locks.hold(t, display="f.txt"))
    assert error.message == (
        "sub/f.txt stayed locked by another edit for 0.05 s; nothing was written."
    )
    assert error.path == "sub/f.txt"
    assert error.hint == "Another process is editing this file. Retry the edit in a moment."


def test_a_file_locked_by_another_process_answers_busy(locks, tmp_path):
    target = tmp_path / "f.txt"
    (tmp_path / "locks").mkdir()
    # Another process's lock is another FileLock object on the same lock file.
    other = filelock.FileLock(locks.lock_file_for(target), thread_local=False)
    error = busy_error(locks, target, lambda t: other)
    assert "stayed locked by another edit" in error.message


def test_different_files_do_not_wait_for_each_other(locks, tmp_path):
    with (
        locks.hold(tmp_path / "a.txt", display="a.txt"),
        locks.hold(tmp_path / "b.txt", display="b.txt"),
    ):
        pass


def test_a_negative_timeout_waits_for_the_holder(tmp_path):
    locks = PathLocks(tmp_path / "locks", timeout=-1)
    target = tmp_path / "f.txt"
    done: list[bool] = []

    def second() -> None:
        with locks.hold(target, display="f.txt"):
            done.append(True)

    with locks.hold(target, display="f.txt"):
        waiter = threading.Thread(target=second)
        waiter.start()
        waiter.join(0.2)
        assert not done  # still waiting, not refused
    waiter.join(10)
    assert done == [True]


def test_a_lock_folder_that_cannot_be_made_says_so(tmp_path):
    blocker = tmp_path / "locks"
    blocker.write_text("a file where the lock folder should be")
    locks = PathLocks(blocker, timeout=0.05)
    with pytest.raises(WriteFailed) as caught, locks.hold(tmp_path / "f.txt", display="f.txt"):
        pass
    error = caught.value
    assert error.message.startswith("Could not lock f.txt for editing: ")
    assert error.message.endswith(". Nothing was written.")
    assert error.path == "f.txt"
    assert error.hint == f"Check that the lock directory {blocker} is writable."
