"""The journal on disk: crash-safe appends, corruption reported, bounded size, shared."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from editengine._errors import JournalCorrupt, NothingToUndo, StaleFile
from editengine.engine import EditEngine
from editengine.journal import Journal
from editengine.journal._records import Reverse

HERE = Path(__file__).parent


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_reverse_rebuilds_the_old_bytes_from_the_new(before: bytes, after: bytes) -> None:
    reverse = Reverse.between(before, after)
    assert reverse.apply(after) == before
    assert Reverse.from_json(reverse.to_json()) == reverse
    assert len(reverse.middle) <= len(before)


def test_reverse_keeps_only_the_changed_middle() -> None:
    before = b"a" * 100_000 + b"OLD" + b"z" * 100_000
    after = b"a" * 100_000 + b"NEW!" + b"z" * 100_000
    reverse = Reverse.between(before, after)
    assert reverse.middle == b"OLD"
    assert reverse.apply(after) == before


def _edited(engine: EditEngine, write: Callable[..., Path]) -> Path:
    path = write("a.txt", "one\n")
    engine.edit("a.txt", "one", "two")
    return path


def test_a_torn_last_record_is_ignored_and_cut_before_the_next_append(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = _edited(engine, write)
    assert engine.journal is not None
    journal_file = engine.journal.path
    whole = journal_file.read_bytes()
    engine.edit("a.txt", "two", "three")
    # a crash mid-append: the second record only half on disk
    second = journal_file.read_bytes()[len(whole) :]
    with open(journal_file, "wb") as handle:
        handle.write(whole + second[: len(second) // 2])
    assert [entry.summary for entry in engine.journal_entries()] == [
        "Replaced 1 occurrence in a.txt (exact match)"
    ]
    # The half-written record is not trusted: the file (as the lost edit left it) is not
    # what the only entry recorded, so undo is refused rather than guessing.
    with pytest.raises(StaleFile):
        engine.undo()
    assert path.read_bytes() == b"three\n"
    path.write_bytes(b"two\n")
    engine.edit("a.txt", "two", "four")  # the next append cuts the torn tail first
    data = journal_file.read_bytes()
    assert data.startswith(whole)
    assert data.endswith(b"\n")
    assert len(engine.journal_entries()) == 2
    engine.undo(steps=2)
    assert path.read_bytes() == b"one\n"


def test_a_process_killed_mid_append_leaves_a_journal_that_is_still_trusted(
    engine: EditEngine, workspace: Path, journal_dir: Path, tmp_path: Path, write: Callable
) -> None:
    path = _edited(engine, write)
    assert engine.journal is not None
    before_crash = engine.journal.path.read_bytes()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.run(
        [sys.executable, str(HERE / "crash_worker.py"), str(workspace), str(journal_dir),
         str(tmp_path / "locks")],
        env=env, capture_output=True, timeout=60,
    )  # fmt: skip
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    torn = engine.journal.path.read_bytes()
    assert len(torn) > len(before_crash) and not torn.endswith(b"\n")  # really half-written
    assert path.read_bytes() == b"three\n"  # the edit landed; its record did not
    assert len(engine.journal_entries()) == 1
    with pytest.raises(StaleFile):  # the unjournaled edit is never undone by guesswork
        engine.undo()
    assert path.read_bytes() == b"three\n"
    engine.edit("a.txt", "three", "four")
    assert engine.journal.path.read_bytes().endswith(b"\n")
    assert len(engine.journal_entries()) == 2
    engine.undo()
    assert path.read_bytes() == b"three\n"


@pytest.mark.parametrize(
    "damage",
    [
        lambda line: line.replace(b'"one', b'"onE'),  # a flipped byte: checksum fails
        lambda line: b"0123456789abcdef {not json}\n",
        lambda line: b"\x00" * (len(line) - 1) + b"\n",  # a zero-filled block after a crash
    ],
)
def test_a_damaged_record_makes_the_journal_untrusted(
    engine: EditEngine, workspace: Path, write: Callable[..., Path], damage: Callable
) -> None:
    path = _edited(engine, write)
    engine.edit("a.txt", "two", "three")
    assert engine.journal is not None
    lines = engine.journal.path.read_bytes().splitlines(keepends=True)
    engine.journal.path.write_bytes(damage(lines[0]) + lines[1])
    with pytest.raises(JournalCorrupt) as caught:
        engine.undo()
    assert "line 1" in str(caught.value) and "Move the folder" in str(caught.value)
    assert caught.value.code == "journal_corrupt"
    assert path.read_bytes() == b"three\n"
    # edits still work, and say nothing false about the journal
    result = engine.edit("a.txt", "three", "four")
    assert result.hash_after is not None


def test_rotation_bounds_the_size_and_keeps_the_newest(
    make_engine: Callable[..., EditEngine],
    workspace: Path,
    journal_dir: Path,
    write: Callable[..., Path],
) -> None:
    journal = Journal(workspace, directory=journal_dir, max_segment_bytes=4096, segments=3)
    engine = make_engine(journal=journal)
    path = write("a.txt", "v0\n")
    for n in range(200):
        engine.edit("a.txt", f"v{n}\n", f"v{n + 1}\n")
    segments = sorted(journal.directory.glob("journal*.jsonl"))
    assert len(segments) <= 3
    record = max(len(line) for line in journal.path.read_bytes().splitlines(keepends=True))
    assert all(p.stat().st_size < 4096 + record for p in segments)  # rotated after one record
    entries = journal.entries()
    assert 0 < len(entries) < 200
    assert [e.seq for e in entries] == sorted(e.seq for e in entries)
    assert entries[-1].seq == 200
    engine.undo(steps=len(entries))
    assert path.read_bytes() == f"v{200 - len(entries)}\n".encode()
    with pytest.raises(NothingToUndo):
        engine.undo()


def _append_many(root: str, journal_dir: str, worker: int, count: int) -> None:
    journal = Journal(root, directory=journal_dir)
    for n in range(count):
        journal.record(f"w{worker}.txt", b"a" * n, b"b" * n, strategy="exact")


def test_processes_appending_at_once_lose_no_record(workspace: Path, journal_dir: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_append_many, args=(str(workspace), str(journal_dir), w, 25))
        for w in range(3)
    ]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
        assert process.exitcode == 0
    entries = Journal(workspace, directory=journal_dir).entries()
    assert len(entries) == 75
    assert sorted(e.seq for e in entries) == list(range(1, 76))


def test_each_workspace_has_its_own_journal(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    first = Journal(tmp_path / "one", directory=tmp_path / "j")
    second = Journal(tmp_path / "two", directory=tmp_path / "j")
    first.record("a.txt", b"x", b"y")
    assert second.entries() == []
    assert len(first.entries()) == 1
    assert (first.directory / "workspace").read_text().strip() == str(tmp_path / "one")
    assert oct(first.directory.stat().st_mode & 0o777) == oct(0o700)
    assert oct(first.path.stat().st_mode & 0o777) == oct(0o600)


@given(st.one_of(
    st.binary(max_size=200),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                    max_size=6),
        max_leaves=12,
    ).map(lambda value: json.dumps(value).encode()),
))  # fmt: skip
def test_any_line_with_a_valid_checksum_decodes_or_is_reported_corrupt(text: bytes) -> None:
    from editengine.journal._records import decode as _decode

    line = hashlib.sha256(text).hexdigest()[:16].encode() + b" " + text
    try:
        entry = _decode(line, Path("journal.jsonl"), 1)
    except JournalCorrupt as error:
        assert "line 1" in str(error)
    else:
        assert isinstance(entry.path, str) and isinstance(entry.seq, int)


def test_a_forged_entry_cannot_reach_outside_the_workspace(
    engine: EditEngine, workspace: Path, tmp_path: Path, write: Callable[..., Path]
) -> None:
    outside = tmp_path / "victim.txt"
    outside.write_bytes(b"new\n")
    assert engine.journal is not None
    engine.journal.record("../victim.txt", b"old\n", b"new\n", real="../victim.txt")
    from editengine._errors import PathOutsideWorkspace

    with pytest.raises(PathOutsideWorkspace):
        engine.undo()
    assert outside.read_bytes() == b"new\n"


def test_the_journal_benchmark_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    from editengine.bench.journal import main

    assert main(["--edits", "2", "--sizes", "50"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("| file | edit, no journal")
    assert rows[2].startswith("| 50 lines |") and rows[2].count("ms") == 3


def test_a_journal_folder_from_another_workspace_is_not_trusted(tmp_path: Path) -> None:
    # The folder of workspace one, copied to where workspace two's journal lives: its
    # entries match two's file (same bytes), but undoing them would write one's history.
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.py").write_text("x = 1\n")
    one = EditEngine(
        tmp_path / "one", lock_dir=tmp_path / "locks",
        journal=Journal(tmp_path / "one", directory=tmp_path / "j"),
    )  # fmt: skip
    one.edit("a.py", "x = 1", "x = 2")
    (tmp_path / "two" / "a.py").write_text("x = 2\n")
    journal = Journal(tmp_path / "two", directory=tmp_path / "j")
    assert one.journal is not None
    journal.directory.parent.mkdir(parents=True, exist_ok=True)
    os.rename(one.journal.directory, journal.directory)
    two = EditEngine(tmp_path / "two", lock_dir=tmp_path / "locks", journal=journal)

    with pytest.raises(JournalCorrupt, match="belongs to another workspace"):
        two.undo()
    assert (tmp_path / "two" / "a.py").read_text() == "x = 2\n"
    result = two.edit("a.py", "x = 2", "x = 3")  # the edit is made; the journal refuses it
    assert any("could not be recorded" in note for note in result.notes)


def test_an_unreadable_journal_is_a_note_on_the_edit_not_a_crash(
    engine: EditEngine, workspace: Path, write: Callable[..., Path]
) -> None:
    path = write("a.py", "x = 1\n")
    engine.edit("a.py", "x = 1", "x = 2")
    assert engine.journal is not None
    engine.journal.path.unlink()
    engine.journal.path.mkdir()  # the segment is a folder now

    result = engine.edit("a.py", "x = 2", "x = 3")

    assert path.read_text() == "x = 3\n"
    assert any("could not be recorded in the undo journal" in note for note in result.notes)


@pytest.mark.parametrize("when", ["1e300", "Infinity", "NaN", "-1", '"soon"', "true"])
def test_an_entry_whose_time_cannot_be_shown_is_corrupt_not_a_crash_of_list(
    engine: EditEngine, write: Callable[..., Path], when: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from editengine.cli import main

    write("a.py", "x = 1\n")
    engine.edit("a.py", "x = 1", "x = 2")
    assert engine.journal is not None
    line = engine.journal.path.read_bytes().rstrip(b"\n")
    text = line.partition(b" ")[2].decode()
    body = json.loads(text)
    forged = text.replace(f'"time":{body["time"]}', f'"time":{when}').encode()
    assert forged != text.encode()
    engine.journal.path.write_bytes(
        hashlib.sha256(forged).hexdigest()[:16].encode() + b" " + forged + b"\n"
    )

    with pytest.raises(JournalCorrupt, match="time"):
        engine.journal_entries()
    status = main(["undo", "--list", "--root", str(engine.root), "--journal-dir",
                   str(engine.journal.base)])  # fmt: skip
    assert status == 1 and "journal_corrupt" in capsys.readouterr().err


def _forged(**fields: object) -> bytes:
    """A journal line with a valid checksum whose body differs from a real entry's by
    ``fields``."""
    from editengine.journal._records import encode as _encode

    journal_line = _encode(
        Journal(".").entry("a.py", b"x = 1\n", b"x = 2\n", strategy="exact", group="g1")
    )
    body = json.loads(journal_line.split(b" ", 1)[1])
    body.update(fields)
    text = json.dumps(body).encode()
    return hashlib.sha256(text).hexdigest()[:16].encode() + b" " + text


@pytest.mark.parametrize(
    "fields",
    [
        {"mode": 10**30},
        {"mode": -5},
        {"mode": 0o4755},  # setuid
        {"mode": 0o2644},  # setgid
        {"mode": 0o1777},  # sticky
        {"mode": True},
        {"seq": 10**30},
        {"seq": -1},
        {"restore_size": 10**30},
        {"restore_size": -3},
        {"restore_size": "7"},
        {"restore": {"prefix": 10**30, "suffix": 0, "text": ""}},
        {"restore": {"prefix": -1, "suffix": 0, "text": ""}},
        {"restore": {"prefix": True, "suffix": 0, "text": ""}},
        {"op": "format_disk"},
        {"id": "../x"},
        {"group": "a b"},
        {"target": 5},
        {"summary": ["a"]},
        {"path": "a.py\x00"},
        {"real": "\x00"},
        {"folders": -1},
    ],
)
def test_every_field_of_an_entry_is_range_checked(fields: dict[str, object]) -> None:
    from editengine.journal._records import decode as _decode

    with pytest.raises(JournalCorrupt):
        _decode(_forged(**fields), Path("journal.jsonl"), 1)


@pytest.mark.parametrize(
    "fields",
    [{}, {"mode": 0o755}, {"mode": 0}, {"mode": None}, {"folders": 2}, {"path": "é\n.py"}],
)
def test_entries_within_range_decode(fields: dict[str, object]) -> None:
    from editengine.journal._records import decode as _decode

    entry = _decode(_forged(**fields), Path("journal.jsonl"), 1)
    assert entry.path.endswith(".py")


def test_a_files_setuid_bits_are_never_journaled() -> None:
    entry = Journal(".").entry("a.py", b"x\n", b"y\n", mode=0o4755)
    assert entry.mode == 0o755


@pytest.mark.parametrize("mode", [-5, 10**30, 0o10000, True, "0o644"])
def test_a_mode_that_is_no_permission_bits_is_refused_when_recorded(mode: object) -> None:
    from editengine._errors import JournalError

    with pytest.raises(JournalError):
        Journal(".").entry("a.py", b"x\n", b"y\n", mode=mode)  # type: ignore[arg-type]  # a wrong type on purpose
