"""files/_atomic.py on its own: the write primitives and the sweep, without an engine.

The engine tests reach these through whole edits; here each promise is pinned where it is
kept — the rename undone when the check after it fails, the temp file private while it
holds a private file's bytes, a sweep that never raises and never follows a link.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from editengine._errors import WriteFailed
from editengine.files import _atomic as atomic
from editengine.files._atomic import (
    STALE_TEMP_SECONDS,
    atomic_write,
    atomic_write_at,
    sweep_stale_temps,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="dir_fd and modes are POSIX")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "folder"
    made.mkdir()
    return made


@pytest.fixture
def dir_fd(folder: Path) -> Iterator[int]:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    yield fd
    os.close(fd)


def temps(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".editengine.tmp"))


class Refused(Exception):
    """What a failing check raises."""


def refuse() -> None:
    raise Refused


# -- the path form ----------------------------------------------------------------------


def test_the_path_form_writes_and_keeps_the_mode_given(folder):
    target = folder / "f.sh"
    target.write_bytes(b"old\n")
    calls = []

    notes = atomic_write(
        target, b"new\n", display="f.sh", mode=0o751, before_replace=lambda: calls.append(1)
    )

    assert notes == ()
    assert calls == [1]
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o751
    assert temps(folder) == []


def test_the_path_form_refuses_a_missing_folder_with_a_typed_error(folder):
    with pytest.raises(WriteFailed) as caught:
        atomic_write(folder / "gone" / "f.txt", b"x", display="gone/f.txt")
    assert caught.value.path == "gone/f.txt"
    assert "gone/f.txt" in str(caught.value)
    assert "No such file or directory" in str(caught.value)


def test_the_path_form_names_the_file_when_the_write_fails(folder, monkeypatch):
    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(WriteFailed) as caught:
        atomic_write(folder / "f.txt", b"x", display="sub/f.txt")
    assert caught.value.path == "sub/f.txt"


def test_the_path_form_abandons_the_write_when_the_last_check_fails(folder):
    target = folder / "f.txt"
    target.write_bytes(b"old\n")
    with pytest.raises(Refused):
        atomic_write(target, b"new\n", display="f.txt", before_replace=refuse)
    assert target.read_bytes() == b"old\n"
    assert temps(folder) == []


# -- the check after the rename -----------------------------------------------------------


def test_a_failed_check_after_the_rename_puts_the_very_same_file_back(folder, dir_fd):
    target = folder / "f.txt"
    target.write_bytes(b"old\n")
    inode = target.stat().st_ino

    with pytest.raises(Refused):
        atomic_write_at(dir_fd, "f.txt", b"new\n", display="f.txt", after_replace=refuse)

    assert target.read_bytes() == b"old\n"
    assert target.stat().st_ino == inode  # restored from its second name, not rewritten
    assert temps(folder) == []


def test_a_failed_check_after_creating_a_file_removes_it(folder, dir_fd):
    with pytest.raises(Refused):
        atomic_write_at(dir_fd, "new.txt", b"new\n", display="new.txt", after_replace=refuse)
    assert os.listdir(folder) == []


def test_a_passed_check_after_the_rename_keeps_the_new_file_and_no_backup(folder, dir_fd):
    target = folder / "f.txt"
    target.write_bytes(b"old\n")
    seen = []

    atomic_write_at(
        dir_fd,
        "f.txt",
        b"new\n",
        display="f.txt",
        after_replace=lambda: seen.append(target.read_bytes()),
    )

    assert seen == [b"new\n"]  # the check runs after the rename, on the new bytes
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_nlink == 1
    assert os.listdir(folder) == ["f.txt"]


def test_the_backup_is_of_a_link_itself_not_of_what_it_points_to(folder, dir_fd):
    (folder / "real.txt").write_bytes(b"real\n")
    os.symlink("real.txt", folder / "link.txt")

    with pytest.raises(Refused):
        atomic_write_at(dir_fd, "link.txt", b"new\n", display="link.txt", after_replace=refuse)

    assert os.readlink(folder / "link.txt") == "real.txt"
    assert (folder / "real.txt").read_bytes() == b"real\n"
    assert sorted(os.listdir(folder)) == ["link.txt", "real.txt"]


def test_an_undo_that_fails_is_logged_and_the_check_error_goes_on(
    folder, dir_fd, monkeypatch, caplog
):
    (folder / "f.txt").write_bytes(b"old\n")
    real_replace = os.replace
    calls = []

    def replace_once_then_fail(src, dst, **kwargs):
        calls.append(src)
        if len(calls) > 1:  # the first is the write's rename, the second the undo
            raise OSError(errno.EIO, "I/O error")
        return real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace_once_then_fail)
    with caplog.at_level(logging.ERROR, logger="editengine"), pytest.raises(Refused):
        atomic_write_at(dir_fd, "f.txt", b"new\n", display="f.txt", after_replace=refuse)

    assert caplog.messages == [
        "could not undo the write of f.txt after a failed check: [Errno 5] I/O error"
    ]


# -- the temp file ------------------------------------------------------------------------


def test_the_temp_copy_of_a_private_file_is_private_from_the_start(folder, dir_fd, monkeypatch):
    previous = os.umask(0o022)
    real_write = os.write
    modes = []

    def spy(fd, data):
        modes.append(stat.S_IMODE(os.fstat(fd).st_mode))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", spy)
    try:
        atomic_write_at(dir_fd, "secret.txt", b"token\n", display="secret.txt", mode=0o600)
    finally:
        os.umask(previous)
    assert modes == [0o600]  # never readable by others, not even before its mode is set
    assert stat.S_IMODE((folder / "secret.txt").stat().st_mode) == 0o600


def test_the_temp_file_is_opened_exclusively_and_close_on_exec(dir_fd, monkeypatch):
    real_open = os.open
    flags_seen = []

    def spy(path, flags, *args, **kwargs):
        if str(path).endswith(".editengine.tmp"):
            flags_seen.append(flags)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    atomic_write_at(dir_fd, "f.txt", b"x", display="f.txt")
    (flags,) = flags_seen
    for needed in (os.O_WRONLY, os.O_CREAT, os.O_EXCL, os.O_NOFOLLOW, os.O_CLOEXEC):
        assert flags & needed == needed
    assert flags & (os.O_TRUNC | os.O_APPEND | os.O_RDWR) == 0


def test_writes_of_one_byte_at_a_time_are_continued(folder, dir_fd, monkeypatch):
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, bytes(data[:1])))
    atomic_write_at(dir_fd, "f.txt", b"abc\n", display="f.txt")
    monkeypatch.undo()
    assert (folder / "f.txt").read_bytes() == b"abc\n"


def test_a_device_accepting_nothing_names_the_zero_byte_write(folder, dir_fd, monkeypatch):
    monkeypatch.setattr(os, "write", lambda fd, data: 0)
    with pytest.raises(WriteFailed) as caught:
        atomic_write_at(dir_fd, "f.txt", b"abc\n", display="f.txt")
    monkeypatch.undo()
    assert "os.write wrote 0 bytes" in str(caught.value)
    assert os.listdir(folder) == []


def test_a_failed_write_names_the_file_the_reason_and_what_to_do(dir_fd, monkeypatch):
    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(WriteFailed) as caught:
        atomic_write_at(dir_fd, "f.txt", b"abc\n", display="sub/f.txt")
    error = caught.value
    assert (
        error.message
        == "Could not write sub/f.txt: No space left on device. The file was left unchanged."
    )
    assert error.path == "sub/f.txt"
    assert error.hint == "Check free disk space and permissions, then retry the edit."


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (OSError("disk on fire"), "disk on fire"),
        (OSError(), "OSError"),
        (PermissionError(), "PermissionError"),
    ],
)
def test_an_error_without_strerror_still_gives_a_reason(error, reason):
    failed = atomic._write_failed(error, "f.txt")
    assert failed.message == f"Could not write f.txt: {reason}. The file was left unchanged."


def test_a_temp_file_that_cannot_be_removed_is_logged(dir_fd, monkeypatch, caplog):
    def stuck(name, *, dir_fd):
        raise OSError(errno.EBUSY, "Device or resource busy")

    monkeypatch.setattr(os, "unlink", stuck)
    with caplog.at_level(logging.WARNING, logger="editengine"):
        atomic._remove_quietly(dir_fd, "t.tmp")
    assert caplog.messages == [
        "could not remove temporary file t.tmp: [Errno 16] Device or resource busy"
    ]


# -- durability ---------------------------------------------------------------------------


def test_the_folder_is_synced_after_the_rename(dir_fd, monkeypatch):
    real_fsync = os.fsync
    synced = []

    def spy(fd):
        synced.append(fd)
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    atomic_write_at(dir_fd, "f.txt", b"x", display="f.txt")
    assert synced[-1] == dir_fd
    assert len(synced) == 2  # the temp file, then the folder


def test_a_folder_sync_failure_is_logged_with_the_file_and_reason(dir_fd, monkeypatch, caplog):
    monkeypatch.setattr(
        os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error"))
    )
    with caplog.at_level(logging.WARNING, logger="editengine"):
        notes = atomic._sync_directory(dir_fd, "sub/f.txt")
    assert caplog.messages == ["could not fsync the directory of sub/f.txt: [Errno 5] I/O error"]
    assert "(I/O error)" in notes[0]


def test_a_write_whose_folder_sync_fails_names_the_file_in_its_note(dir_fd, monkeypatch):
    real_fsync = os.fsync

    def folder_fails(fd):
        if fd == dir_fd:
            raise OSError(errno.EIO, "I/O error")
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", folder_fails)
    (note,) = atomic_write_at(dir_fd, "f.txt", b"x", display="sub/f.txt")
    assert note.startswith("The new content of sub/f.txt is in place")


def test_a_folder_sync_failure_without_strerror_names_the_error(dir_fd, monkeypatch):
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError("odd failure")))
    (note,) = atomic._sync_directory(dir_fd, "f.txt")
    assert "(odd failure)" in note


# -- the sweep ----------------------------------------------------------------------------


def temp_named(folder: Path, target: str, pid: int) -> Path:
    path = folder / f".{target}.{pid}.0123456789ab.editengine.tmp"
    path.write_bytes(b"partial")
    return path


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_sweep_of_a_folder_it_cannot_list_removes_nothing_and_says_so(folder):
    not_a_folder = os.open(folder / "f.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        assert sweep_stale_temps(not_a_folder) == 0
    finally:
        os.close(not_a_folder)


def test_a_live_writers_temp_file_goes_only_once_it_is_older_than_the_bound(folder, dir_fd):
    path = temp_named(folder, "f.txt", os.getpid())
    written = path.stat().st_mtime

    assert sweep_stale_temps(dir_fd, now=written + STALE_TEMP_SECONDS) == 0
    assert path.exists()
    assert sweep_stale_temps(dir_fd, now=written + STALE_TEMP_SECONDS + 1) == 1
    assert not path.exists()


def test_a_link_or_folder_named_like_a_temp_file_is_never_swept(folder, dir_fd, monkeypatch):
    pid = dead_pid()
    (folder / "kept.txt").write_text("kept\n")
    os.symlink("kept.txt", folder / f".a.{pid}.0123456789ab.editengine.tmp")
    os.mkdir(folder / f".b.{pid}.0123456789ab.editengine.tmp")
    stale = temp_named(folder, "c", pid)
    # The odd entries first, so that giving up at the first of them would keep the stale one.
    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda fd: sorted(real_listdir(fd)))

    assert sweep_stale_temps(dir_fd) == 1

    assert not stale.exists()
    assert (folder / f".a.{pid}.0123456789ab.editengine.tmp").is_symlink()
    assert (folder / f".b.{pid}.0123456789ab.editengine.tmp").is_dir()


def test_an_entry_gone_before_its_stat_is_skipped_not_the_rest(folder, dir_fd, monkeypatch):
    pid = dead_pid()
    stale = temp_named(folder, "z", pid)
    real_listdir = os.listdir
    ghost = f".a.{pid}.0123456789ab.editengine.tmp"
    monkeypatch.setattr(os, "listdir", lambda fd: [ghost, *real_listdir(fd)])

    assert sweep_stale_temps(dir_fd) == 1
    assert not stale.exists()


def test_a_sweep_that_cannot_remove_a_file_does_not_raise(folder, dir_fd, monkeypatch):
    temp_named(folder, "f.txt", dead_pid())
    monkeypatch.setattr(
        os, "unlink", lambda name, *, dir_fd: (_ for _ in ()).throw(PermissionError())
    )
    assert sweep_stale_temps(dir_fd) == 0


def test_a_sweep_logs_how_many_it_removed(folder, dir_fd, caplog):
    pid = dead_pid()
    temp_named(folder, "a", pid)
    temp_named(folder, "b", pid)
    with caplog.at_level(logging.INFO, logger="editengine"):
        assert sweep_stale_temps(dir_fd) == 2
    assert caplog.messages == ["removed 2 stale temporary file(s) left by interrupted writes"]


# -- is the writer alive? -----------------------------------------------------------------


def test_pid_zero_and_below_are_no_process():
    # os.kill(0, 0) would "succeed": it signals the caller's own process group.
    assert atomic._process_alive(0) is False
    assert atomic._process_alive(-5) is False


def test_pid_one_is_a_live_process():
    assert atomic._process_alive(1) is True


def test_a_process_owned_by_someone_else_counts_as_alive(monkeypatch):
    def denied(pid, sig):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "kill", denied)
    assert atomic._process_alive(12345) is True


def test_a_process_whose_state_cannot_be_read_counts_as_alive(monkeypatch):
    def unreadable(*args, **kwargs):
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(atomic, "open", unreadable, raising=False)
    assert atomic._process_alive(1) is True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_process_whose_name_holds_a_parenthesis_is_read_right(tmp_path):
    # /proc/<pid>/stat is "pid (name) state ...": a name may itself hold ") Z (".
    runner = tmp_path / "a) Z (b"
    runner.symlink_to(sys.executable)
    child = subprocess.Popen([str(runner), "-c", "import time; time.sleep(30)"])
    try:
        deadline = time.monotonic() + 10
        while b"Z (" not in Path(f"/proc/{child.pid}/stat").read_bytes():
            assert time.monotonic() < deadline, "the child never took its name"
            time.sleep(0.01)
        assert atomic._process_alive(child.pid) is True
    finally:
        child.kill()
        child.wait()
