"""Contracts of the file layer that only a broken implementation would break.

Short writes, a device accepting nothing, the umask, sibling folders sharing the root's
name as a prefix, trailing slashes and over-long names.
"""

from __future__ import annotations

import os
import threading

import pytest

from editengine._errors import BadRequest, PathOutsideWorkspace, WriteFailed


def test_short_writes_are_continued_byte_exact(engine, write, workspace, monkeypatch):
    path = write("f.txt", "old\n")
    new = "".join(f"line {n}\n" for n in range(2000))
    real_write = os.write
    calls = []

    def dribble(fd, data):
        calls.append(1)
        return real_write(fd, bytes(data[:7]))  # the kernel may accept any prefix

    monkeypatch.setattr(os, "write", dribble)
    engine.edit("f.txt", "old\n", new)
    monkeypatch.undo()
    assert len(calls) > 100
    assert path.read_bytes() == new.encode()


def test_a_write_accepting_nothing_fails_instead_of_looping(engine, write, monkeypatch):
    path = write("f.txt", "old\n")
    monkeypatch.setattr(os, "write", lambda fd, data: 0)
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            engine.edit("f.txt", "old", "new")
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=20)  # a hang guard, not a timing
    monkeypatch.undo()
    assert not thread.is_alive(), "the write loops forever on a zero-byte os.write"
    assert isinstance(outcome[0], WriteFailed)
    assert path.read_bytes() == b"old\n"


@pytest.mark.skipif(os.name != "posix", reason="umask")
@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_new_files_follow_the_umask(engine, workspace, umask):
    previous = os.umask(umask)
    try:
        engine.edit("made/new.txt", "", "hello\n")
    finally:
        os.umask(previous)
    assert oct((workspace / "made" / "new.txt").stat().st_mode & 0o777) == oct(0o666 & ~umask)
    assert oct((workspace / "made").stat().st_mode & 0o777) == oct(0o777 & ~umask)


def test_existing_files_keep_their_mode(engine, write):
    path = write("f.sh", "echo old\n")
    path.chmod(0o751)
    engine.edit("f.sh", "old", "new")
    assert oct(path.stat().st_mode & 0o777) == oct(0o751)


@pytest.fixture
def sibling(workspace):
    """A folder next to the root whose name starts with the root's name."""
    folder = workspace.parent / (workspace.name + "-evil")
    folder.mkdir()
    (folder / "f.txt").write_text("secret\n")
    return folder


@pytest.mark.parametrize("how", ["relative", "absolute", "create"])
def test_sibling_folder_with_the_root_as_prefix_is_outside(engine, sibling, how):
    path = f"../{sibling.name}/f.txt" if how != "absolute" else str(sibling / "f.txt")
    with pytest.raises(PathOutsideWorkspace):
        if how == "create":
            engine.edit(f"../{sibling.name}/new.txt", "", "pwned\n")
        else:
            engine.edit(path, "secret", "pwned")
    with pytest.raises(PathOutsideWorkspace):
        engine.read_file(path)
    assert sorted(os.listdir(sibling)) == ["f.txt"]
    assert (sibling / "f.txt").read_text() == "secret\n"


@pytest.mark.parametrize("path", ["in.txt/", "in.txt/.", "./in.txt/"])
def test_trailing_slash_is_refused(engine, write, path):
    target = write("in.txt", "a\n")
    with pytest.raises(BadRequest, match="slash"):
        engine.edit(path, "a", "b")
    assert target.read_bytes() == b"a\n"


@pytest.mark.parametrize("name", ["n" * 256 + ".txt", "d" * 300 + "/x.txt", "é" * 130])
def test_too_long_names_are_bad_requests(engine, workspace, name):
    with pytest.raises(BadRequest, match="too long"):
        engine.edit(name, "", "x")
    with pytest.raises(BadRequest, match="too long"):
        engine.edit(name, "a", "b")
    assert os.listdir(workspace) == []


def test_too_long_path_is_a_bad_request(engine, workspace):
    with pytest.raises(BadRequest, match="too long"):
        engine.edit("/".join(["abcdefgh"] * 600), "", "x")
    assert os.listdir(workspace) == []
