"""JsonlSink against outside rotation and lines bigger than the size limit."""

from __future__ import annotations

import json
import os

from editengine.telemetry import EditFinished, JsonlSink


def finished(edit_id: str, strategy: str = "exact") -> EditFinished:
    return EditFinished(
        edit_id=edit_id,
        ts="2026-01-01T00:00:00.000000Z",
        engine_version="0",
        outcome="success",
        strategy=strategy,
        duration_ms=1.0,
    )


def ids(path) -> list[str]:
    return [json.loads(line)["edit_id"] for line in path.read_text().splitlines()]


def test_a_log_rotated_away_by_another_tool_gets_the_later_events(tmp_path):
    path = tmp_path / "t.jsonl"
    sink = JsonlSink(path)
    sink.emit(finished("before"))
    os.rename(path, tmp_path / "t.jsonl.old")  # logrotate-style: moved, nothing in its place
    sink.emit(finished("after-1"))
    sink.emit(finished("after-2"))
    sink.close()
    assert ids(tmp_path / "t.jsonl.old") == ["before"]
    assert ids(path) == ["after-1", "after-2"]


def test_a_log_replaced_by_another_tool_gets_the_later_events(tmp_path):
    path = tmp_path / "t.jsonl"
    sink = JsonlSink(path)
    sink.emit(finished("before"))
    os.rename(path, tmp_path / "t.jsonl.old")
    path.write_text("")  # copy-and-create rotation: a new empty file under the name
    sink.emit(finished("after"))
    sink.close()
    assert ids(tmp_path / "t.jsonl.old") == ["before"]
    assert ids(path) == ["after"]


def test_an_oversized_first_line_never_rotates_an_empty_file_over_the_backup(tmp_path):
    path = tmp_path / "t.jsonl"
    backup = tmp_path / "t.jsonl.1"
    backup.write_text(json.dumps({"edit_id": "kept"}) + "\n")
    sink = JsonlSink(path, max_bytes=50, backups=2)
    sink.emit(finished("huge", strategy="x" * 500))
    sink.close()
    assert ids(backup) == ["kept"]
    assert not (tmp_path / "t.jsonl.2").exists()
    assert ids(path) == ["huge"]


def test_an_oversized_line_after_others_rotates_them_out_whole(tmp_path):
    path = tmp_path / "t.jsonl"
    sink = JsonlSink(path, max_bytes=300, backups=2)
    sink.emit(finished("small"))
    sink.emit(finished("huge", strategy="x" * 500))
    sink.close()
    assert ids(tmp_path / "t.jsonl.1") == ["small"]
    assert ids(path) == ["huge"]


def test_a_short_write_is_reported_not_hidden(tmp_path, monkeypatch):
    path = tmp_path / "t.jsonl"
    sink = JsonlSink(path)
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real_write(fd, data[:-1]))
    try:
        sink.emit(finished("cut"))
    except OSError as error:
        assert "short write" in str(error)
    else:  # pragma: no cover - the failure this test exists for
        raise AssertionError("a short write was reported as success")
    finally:
        monkeypatch.undo()
        sink.close()
