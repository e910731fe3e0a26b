"""Crashes injected at every step of the write: the original stays intact, no temp file stays."""

from __future__ import annotations

import errno
import os

import pytest

from editengine._errors import StaleFile, WriteFailed

ORIGINAL = b"first line\r\nsecond line\r\nno newline at end"


class Boom:
    """Fails the ``n``-th call of a wrapped os function (counting from 1), passes the others."""

    def __init__(self, real, *, fail_on: int = 1, when=None, error=None) -> None:
        self.real = real
        self.fail_on = fail_on
        self.when = when or (lambda *args, **kwargs: True)
        self.error = error or OSError(errno.ENOSPC, "No space left on device")
        self.calls = 0

    def __call__(self, *args, **kwargs):
        if self.when(*args, **kwargs):
            self.calls += 1
            if self.calls == self.fail_on:
                raise self.error
        return self.real(*args, **kwargs)


def is_temp(path) -> bool:
    return str(path).endswith(".editengine.tmp")


class TempFds:
    """Tracks the descriptors opened on temp files (the lock machinery uses os too)."""

    def __init__(self, monkeypatch) -> None:
        self.fds: set[int] = set()
        real_open = os.open

        def tracking_open(path, flags, *args, **kwargs):
            fd = real_open(path, flags, *args, **kwargs)
            if is_temp(path):
                self.fds.add(fd)
            return fd

        monkeypatch.setattr(os, "open", tracking_open)

    def __contains__(self, fd: object) -> bool:
        return fd in self.fds


# fault name -> (os function, which calls fail given the temp-fd tracker)
FAULTS = {
    # the temp file cannot be created
    "create_temp": ("open", lambda temp: lambda path, *a, **k: is_temp(path)),
    # the data write fails (disk full)
    "write": ("write", lambda temp: lambda fd, data: fd in temp),
    # fsync of the temp file fails
    "fsync_file": ("fsync", lambda temp: lambda fd: fd in temp),
    # closing the temp file fails
    "close_temp": ("close", lambda temp: lambda fd: fd in temp),
    # setting the original's permissions on the temp file fails
    "chmod": ("fchmod", lambda temp: lambda fd, mode: fd in temp),
    # the rename fails
    "replace": ("replace", lambda temp: lambda src, dst, **k: is_temp(src)),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_fault_at_each_step_leaves_original_and_no_temp(
    engine, write, workspace, tree, monkeypatch, fault
):
    path = write("data.txt", ORIGINAL)
    path.chmod(0o640)
    listing_before = tree(workspace)
    temp_fds = TempFds(monkeypatch)
    name, condition = FAULTS[fault]
    boom = Boom(getattr(os, name), when=condition(temp_fds))
    monkeypatch.setattr(os, name, boom)

    with pytest.raises(WriteFailed) as caught:
        engine.edit("data.txt", "second line", "2nd line")

    monkeypatch.undo()
    assert boom.calls == 1
    assert path.read_bytes() == ORIGINAL
    assert oct(path.stat().st_mode & 0o777) == oct(0o640)
    assert tree(workspace) == listing_before
    assert "left unchanged" in str(caught.value)
    assert isinstance(caught.value.__cause__, OSError)


def test_interrupt_during_write_removes_temp_and_propagates(engine, write, workspace, monkeypatch):
    path = write("data.txt", ORIGINAL)
    temp_fds = TempFds(monkeypatch)
    monkeypatch.setattr(
        os, "fsync", Boom(os.fsync, error=KeyboardInterrupt(), when=lambda fd: fd in temp_fds)
    )
    with pytest.raises(KeyboardInterrupt):
        engine.edit("data.txt", "second line", "2nd line")
    monkeypatch.undo()
    assert path.read_bytes() == ORIGINAL
    assert sorted(os.listdir(workspace)) == ["data.txt"]


def test_failed_creation_leaves_no_file_and_no_new_folders(engine, workspace, tree, monkeypatch):
    monkeypatch.setattr(os, "replace", Boom(os.replace, when=lambda src, dst, **k: is_temp(src)))
    with pytest.raises(WriteFailed):
        engine.edit("new/deep/file.txt", "", "content\n")
    monkeypatch.undo()
    assert tree(workspace) == []


def test_failed_multi_edit_write_leaves_original(engine, write, workspace, monkeypatch):
    path = write("data.txt", ORIGINAL)
    monkeypatch.setattr(os, "replace", Boom(os.replace, when=lambda src, dst, **k: is_temp(src)))
    with pytest.raises(WriteFailed):
        engine.multi_edit(
            "data.txt",
            [
                {"old_string": "first line", "new_string": "1st"},
                {"old_string": "second line", "new_string": "2nd"},
            ],
        )
    monkeypatch.undo()
    assert path.read_bytes() == ORIGINAL
    assert sorted(os.listdir(workspace)) == ["data.txt"]


def test_directory_fsync_failure_reports_a_note_not_a_lie(engine, write, workspace, monkeypatch):
    """After the rename the edit has happened: it is reported, with the durability caveat."""
    path = write("data.txt", ORIGINAL)
    directories = {os.fspath(workspace)}
    real_open = os.open
    directory_fds: set[int] = set()

    def tracking_open(p, flags, *args, **kwargs):
        fd = real_open(p, flags, *args, **kwargs)
        if os.fspath(p) in directories:
            directory_fds.add(fd)
        return fd

    real_close = os.close

    def tracking_close(fd):
        directory_fds.discard(fd)  # the number may be reused for another file
        return real_close(fd)

    monkeypatch.setattr(os, "open", tracking_open)
    monkeypatch.setattr(os, "close", tracking_close)
    monkeypatch.setattr(os, "fsync", Boom(os.fsync, when=lambda fd: fd in directory_fds))

    result = engine.edit("data.txt", "second line", "2nd line")

    monkeypatch.undo()
    assert path.read_bytes() == ORIGINAL.replace(b"second line", b"2nd line")
    assert any("could not be synced" in note for note in result.notes)
    assert sorted(os.listdir(workspace)) == ["data.txt"]


def test_writer_ignoring_the_lock_is_detected_before_the_rename(
    engine, write, workspace, monkeypatch
):
    """Another program rewrites the file while the temp file is being written."""
    path = write("data.txt", ORIGINAL)
    real_fsync = os.fsync
    meddled = []

    temp_fds = TempFds(monkeypatch)

    def fsync_and_meddle(fd):
        real_fsync(fd)
        if fd in temp_fds and not meddled:
            meddled.append(True)
            path.write_bytes(b"someone else's content\n")

    monkeypatch.setattr(os, "fsync", fsync_and_meddle)
    with pytest.raises(StaleFile):
        engine.edit("data.txt", "second line", "2nd line")
    monkeypatch.undo()
    assert path.read_bytes() == b"someone else's content\n"
    assert sorted(os.listdir(workspace)) == ["data.txt"]


def test_temp_file_lives_next_to_the_target(engine, write, workspace, monkeypatch):
    write("sub/data.txt", ORIGINAL)
    seen = []
    real_replace = os.replace

    def spy(src, dst, **dir_fds):
        if is_temp(src):
            folders = {os.readlink(f"/proc/self/fd/{fd}") for fd in dir_fds.values()}
            seen.append((os.fspath(src), os.fspath(dst), folders))
        return real_replace(src, dst, **dir_fds)

    monkeypatch.setattr(os, "replace", spy)
    engine.edit("sub/data.txt", "second line", "2nd line")
    ((src, dst, folders),) = seen
    # Both names are relative to one descriptor: the folder of the target.
    assert "/" not in src and dst == "data.txt"
    assert folders == {os.fspath(workspace / "sub")}


def test_longest_file_name_still_gets_a_temp_file(engine, workspace):
    name = "n" * 250 + ".txt"  # 254 bytes: at the usual 255-byte limit
    (workspace / name).write_text("old\n")
    engine.edit(name, "old", "new")
    assert (workspace / name).read_text() == "new\n"
    assert os.listdir(workspace) == [name]
