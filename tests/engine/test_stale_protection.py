"""expected_hash and the read tracker refuse edits made against a file that changed since."""

from __future__ import annotations

import hashlib

import pytest

from editengine._errors import FileNotFound, StaleFile
from editengine._read_tracker import ReadTracker


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_expected_hash_that_matches_lets_the_edit_through(engine, write):
    path = write("f.txt", "a\n")
    result = engine.edit("f.txt", "a", "b", expected_hash=sha(b"a\n"))
    assert path.read_text() == "b\n"
    # the result's hash_after chains into the next edit
    engine.edit("f.txt", "b", "c", expected_hash=result.hash_after)
    assert path.read_text() == "c\n"


def test_expected_hash_mismatch_is_stale(engine, write):
    path = write("f.txt", "a\n")
    with pytest.raises(StaleFile, match="not the expected"):
        engine.edit("f.txt", "a", "b", expected_hash=sha(b"something else"))
    assert path.read_text() == "a\n"


def test_expected_hash_for_a_file_that_does_not_exist(engine, workspace):
    with pytest.raises(StaleFile, match="does not exist"):
        engine.edit("new.txt", "", "x", expected_hash=sha(b"x"))
    assert not (workspace / "new.txt").exists()


def test_tracker_refuses_a_file_changed_since_it_was_read(make_engine, write):
    engine = make_engine(read_tracker=ReadTracker())
    path = write("f.txt", "a\nb\n")
    assert engine.read_file("f.txt") == "a\nb\n"
    path.write_text("a\nb\nadded by the user\n")

    with pytest.raises(StaleFile, match="changed on disk since you last read it"):
        engine.edit("f.txt", "a\nb", "z\nb")
    assert path.read_text() == "a\nb\nadded by the user\n"

    engine.read_file("f.txt")
    engine.edit("f.txt", "a\nb", "z\nb")
    assert path.read_text() == "z\nb\nadded by the user\n"


def test_tracker_learns_the_engines_own_writes(make_engine, write):
    engine = make_engine(read_tracker=ReadTracker())
    path = write("f.txt", "1\n")
    engine.read_file("f.txt")
    engine.edit("f.txt", "1", "2")
    engine.edit("f.txt", "2", "3")  # not stale: the agent's own edit produced "2"
    assert path.read_text() == "3\n"


def test_tracker_refuses_a_file_deleted_since_it_was_read(make_engine, write):
    engine = make_engine(read_tracker=ReadTracker())
    path = write("f.txt", "1\n")
    engine.read_file("f.txt")
    path.unlink()
    with pytest.raises(StaleFile, match="deleted"):
        engine.edit("f.txt", "", "recreated\n")


def test_tracker_shared_through_a_symlink(make_engine, write, workspace):
    engine = make_engine(read_tracker=ReadTracker())
    path = write("f.txt", "1\n")
    (workspace / "alias.txt").symlink_to("f.txt")
    engine.read_file("alias.txt")
    path.write_text("changed\n")
    with pytest.raises(StaleFile):
        engine.edit("f.txt", "changed", "x")


def test_require_read(make_engine, write):
    engine = make_engine(read_tracker=ReadTracker(require_read=True))
    path = write("f.txt", "1\n")
    with pytest.raises(StaleFile, match="has not been read"):
        engine.edit("f.txt", "1", "2")
    engine.read_file("f.txt")
    engine.edit("f.txt", "1", "2")
    assert path.read_text() == "2\n"
    # creating a new file needs no read
    engine.edit("new.txt", "", "x\n")


def test_read_file_of_missing_file_suggests(engine, write):
    write("src/module.py", "")
    with pytest.raises(FileNotFound) as caught:
        engine.read_file("module.py")
    assert caught.value.suggestions == ("src/module.py",)


def test_dry_run_does_not_update_the_tracker(make_engine, write):
    tracker = ReadTracker()
    engine = make_engine(read_tracker=tracker)
    write("f.txt", "1\n")
    engine.read_file("f.txt")
    seen = next(iter(tracker._hashes.values()))
    engine.edit("f.txt", "1", "2", dry_run=True)
    assert next(iter(tracker._hashes.values())) == seen
