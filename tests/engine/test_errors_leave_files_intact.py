"""Every refusal is a typed error, and the file (and its folder) stay byte-identical."""

from __future__ import annotations

import os
import threading

import pytest

from editengine._errors import (
    AmbiguousMatch,
    BadRequest,
    BinaryFile,
    CountMismatch,
    FileNotFound,
    FileTooLarge,
    NoMatch,
    NotAFile,
    StaleFile,
    UnsupportedEncoding,
)

TEXT = b"alpha = 1\nbeta = 2\nalpha = 1\n"

CASES = [
    # (id, file bytes, call kwargs, expected error)
    ("no_match", TEXT, {"old_string": "gamma = 3", "new_string": "x"}, NoMatch),
    ("ambiguous", TEXT, {"old_string": "alpha = 1", "new_string": "x"}, AmbiguousMatch),
    (
        "count_mismatch",
        TEXT,
        {"old_string": "alpha = 1", "new_string": "x", "expected_replacements": 3},
        CountMismatch,
    ),
    ("binary", b"abc\x00def\n", {"old_string": "abc", "new_string": "x"}, BinaryFile),
    (
        "latin1",
        "café\n".encode("latin-1"),
        {"old_string": "caf", "new_string": "x"},
        UnsupportedEncoding,
    ),
    (
        "utf16",
        "hello\n".encode("utf-16"),
        {"old_string": "hello", "new_string": "x"},
        UnsupportedEncoding,
    ),
    (
        "stale_hash",
        TEXT,
        {"old_string": "beta = 2", "new_string": "x", "expected_hash": "0" * 64},
        StaleFile,
    ),
    (
        "bad_replace_all",
        TEXT,
        {"old_string": "beta = 2", "new_string": "x", "replace_all": "yes"},
        BadRequest,
    ),
    (
        "bad_count",
        TEXT,
        {"old_string": "beta", "new_string": "x", "expected_replacements": 0},
        BadRequest,
    ),
    ("bad_old_type", TEXT, {"old_string": 42, "new_string": "x"}, BadRequest),
    (
        "bad_match_mode",
        TEXT,
        {"old_string": "beta", "new_string": "x", "match_mode": "nope"},
        BadRequest,
    ),
    ("surrogate", TEXT, {"old_string": "beta = 2", "new_string": "\udcff"}, BadRequest),
]


@pytest.mark.parametrize(
    ("content", "kwargs", "error"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_error_leaves_file_byte_identical(engine, write, workspace, tree, content, kwargs, error):
    path = write("target.txt", content)
    listing_before = tree(workspace)
    stat_before = path.stat()
    kwargs = dict(kwargs)

    with pytest.raises(error) as caught:
        engine.edit("target.txt", kwargs.pop("old_string"), kwargs.pop("new_string"), **kwargs)

    assert path.read_bytes() == content
    assert path.stat().st_mtime_ns == stat_before.st_mtime_ns
    assert tree(workspace) == listing_before
    assert caught.value.code == error.code
    assert str(caught.value)  # an agent always gets a message


def test_too_large_file_is_refused(make_engine, write):
    engine = make_engine(max_file_bytes=100)
    path = write("big.txt", b"x" * 101)
    with pytest.raises(FileTooLarge, match="101 bytes, over the 100-byte limit"):
        engine.edit("big.txt", "x", "y", replace_all=True)
    assert path.read_bytes() == b"x" * 101


def test_directory_is_not_a_file(engine, workspace):
    (workspace / "pkg").mkdir()
    with pytest.raises(NotAFile, match="directory"):
        engine.edit("pkg", "a", "b")


def test_fifo_is_refused_without_being_opened(engine, workspace):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    os.mkfifo(workspace / "pipe")
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            engine.edit("pipe", "a", "b")
        except BaseException as error:
            outcome.append(error)

    # Opening a FIFO for reading would block forever with no writer: run it aside.
    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=5)
    assert not worker.is_alive(), "the engine opened the FIFO"
    assert isinstance(outcome[0], NotAFile)
    assert "FIFO" in str(outcome[0])


def test_device_is_refused(lock_dir):
    from editengine.engine import EditEngine

    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    engine = EditEngine("/dev", lock_dir=lock_dir)
    with pytest.raises(NotAFile, match="device"):
        engine.edit("null", "a", "b")


def test_missing_file_is_file_not_found(engine, workspace, tree):
    with pytest.raises(FileNotFound) as caught:
        engine.edit("nope.py", "a", "b")
    assert caught.value.path == "nope.py"
    assert tree(workspace) == []


def test_missing_file_in_a_missing_folder_creates_nothing(engine, workspace, tree):
    with pytest.raises(FileNotFound):
        engine.edit("a/b/c.py", "x", "y")
    assert tree(workspace) == []


def test_error_message_says_what_to_do(engine, write):
    write("m.txt", "one\none\n")
    with pytest.raises(AmbiguousMatch) as caught:
        engine.edit("m.txt", "one", "two")
    message = str(caught.value)
    assert "line 1" in message and "line 2" in message
    assert "replace_all" in message
