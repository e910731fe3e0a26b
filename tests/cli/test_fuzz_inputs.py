"""Fuzzing every JSON input of the CLI: an answer for every request, no traceback, and the
files untouched whenever the answer is an error.

Example counts stay modest so the suite stays fast; the strategies lean on the shapes that
broke things before (wrong types, lone surrogates, deep nesting, NaN, huge numbers).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from editengine.cli import main
from editengine.cli._batch import handle_line, run
from editengine.engine import EditEngine

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Any text, lone surrogates included (a JSON decoder hands those out for "\ud800").
TEXT = st.text(st.characters(exclude_categories=()), max_size=12)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(TEXT, children, max_size=3)
    ),
    max_leaves=8,
)
FILE_TEXT = "def f():\n    return 1\n"
FIELD_VALUES = st.one_of(JSON, st.sampled_from(["def f():", "return 1", "x", "", "f.py"]))


def edit_request(names: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects holding some of ``names`` with values of any type, plus some junk keys."""
    return st.fixed_dictionaries({}, optional={name: FIELD_VALUES for name in names}).flatmap(
        lambda known: st.dictionaries(TEXT, JSON, max_size=2).map(lambda x: {**x, **known})
    )


BATCH_FIELDS = (
    "id", "content", "old_string", "new_string", "replace_all", "expected_replacements",
    "match_mode",
)  # fmt: skip
APPLY_FIELDS = (
    "file_path", "old_string", "new_string", "replace_all", "expected_replacements",
    "match_mode", "instruction", "dry_run", "edits", "filePath", "oldString",
)  # fmt: skip


def encoded(value: Any) -> bytes:
    text = json.dumps(value, allow_nan=True)  # ASCII: surrogates travel as \\ud800 escapes
    return text.encode("ascii")


# -- batch ----------------------------------------------------------------------------------

LINES = st.one_of(
    edit_request(BATCH_FIELDS).map(encoded),
    JSON.map(encoded),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
    st.integers(1, 50_000).map(lambda n: b"[" * n),
)


@FUZZ
@given(st.lists(LINES, min_size=1, max_size=6))
def test_batch_answers_every_line_with_valid_json(lines):
    stdin = io.BytesIO(b"\n".join(lines) + b"\n")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert run(io.TextIOWrapper(stdin, encoding="utf-8"), stdout) == 0
    stdout.flush()
    answers = stdout.buffer.getvalue().decode("utf-8").splitlines()  # type: ignore[attr-defined]  # stdout is a TextIOWrapper here
    assert len(answers) == len(lines)
    for raw in answers:
        answer = json.loads(raw)
        assert set(answer) >= {"id", "ok", "new_content", "strategy", "error", "error_code"}
        assert isinstance(answer["ok"], bool)
        assert answer["ok"] == (answer["error_code"] is None)
        assert answer["error_code"] != "internal_error", answer


@FUZZ
@given(edit_request(BATCH_FIELDS))
def test_batch_requests_with_every_field_type(request):
    answer = handle_line(json.dumps(request, allow_nan=True))
    assert answer["error_code"] != "internal_error", answer
    if answer["ok"]:
        assert isinstance(answer["new_content"], str)


# -- apply ----------------------------------------------------------------------------------


def apply_once(request_bytes: bytes, extra: list[str]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch, "ws")
        root.mkdir()
        target = root / "f.py"
        target.write_text(FILE_TEXT)
        request = Path(scratch, "request.json")
        request.write_bytes(request_bytes)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(["apply", "--root", str(root), "--json", str(request), *extra])
        assert status in (0, 1, 2)
        assert "Traceback" not in stderr.getvalue()
        assert "internal_error" not in stderr.getvalue(), stderr.getvalue()
        if status != 0:
            assert stderr.getvalue().startswith("error["), stderr.getvalue()
            assert target.read_text() == FILE_TEXT
            assert sorted(os.listdir(root)) == ["f.py"]
        elif "--dry-run" in extra:
            assert target.read_text() == FILE_TEXT


@FUZZ
@given(
    st.one_of(edit_request(APPLY_FIELDS).map(encoded), JSON.map(encoded)),
    st.sampled_from([[], ["--dry-run"], ["--output-json"]]),
)
def test_apply_json_requests_never_crash(request_bytes, extra):
    apply_once(request_bytes, extra)


@settings(max_examples=25, deadline=None)
@given(
    st.fixed_dictionaries(
        {"file_path": st.just("f.py")},
        optional={
            "edits": st.lists(edit_request(("old_string", "new_string", "replace_all")), max_size=3)
        },
    )
)
def test_apply_multi_edits_never_crash(request):
    apply_once(encoded(request), [])


# -- tool calls (the same JSON through the library) ---------------------------------------------


@FUZZ
@given(st.sampled_from(["edit", "multiedit", "Edit", "x"]), edit_request(APPLY_FIELDS))
def test_tool_calls_always_answer(name, arguments):
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch, "ws")
        root.mkdir()
        (root / "f.py").write_text(FILE_TEXT)
        engine = EditEngine(root, lock_dir=Path(scratch, "locks"))
        answer = engine.handle_tool_call(name, json.dumps(arguments, allow_nan=True))
        assert isinstance(answer, str)
        assert "internal_error" not in answer, answer
        if answer.startswith("Error"):
            assert (root / "f.py").read_text() == FILE_TEXT
            assert sorted(os.listdir(root)) == ["f.py"]


# -- report ---------------------------------------------------------------------------------

EVENT_FIELDS = (
    "event", "ts", "edit_id", "outcome", "duration_ms", "error_code", "strategy", "tier",
    "pass", "elapsed_ms", "position", "best_similarity", "threshold", "latency_ms", "model",
    "input_tokens", "output_tokens", "cache_hit", "file_lines", "deadline_ms",
)  # fmt: skip
EVENT_NAMES = st.sampled_from(["edit.started", "edit.finished", "tier.tried", "fixer.called"])


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.tuples(EVENT_NAMES, edit_request(EVENT_FIELDS)).map(
                lambda pair: encoded({**pair[1], "event": pair[0]})
            ),
            JSON.map(encoded),
            st.binary(max_size=30).filter(lambda b: b"\n" not in b),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_report_counts_every_line_and_never_crashes(lines):
    with tempfile.TemporaryDirectory() as scratch:
        events = Path(scratch, "t.jsonl")
        events.write_bytes(b"\n".join(lines) + b"\n")
        out = Path(scratch, "r.json")
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(["report", str(events), "--json", str(out)])
        summary = json.loads(out.read_text())["input"]
        # No event read: a warning and exit status 1 (the JSON still says what was found).
        assert status == (0 if summary["events"] else 1), stderr.getvalue()
        assert ("warning: no telemetry events read" in stderr.getvalue()) == (status == 1)
        if lines[0].startswith(b"\x1f\x8b"):
            # gzip's magic number: the file is read as a gzip stream, which this is not, and
            # is counted as unreadable (kept as far as it could be read: here, nothing).
            assert summary["unreadable_files"] == 1
            return
        counted = summary["malformed"] + summary["events"] + summary["unknown_events"]
        assert counted <= summary["lines"] == len(lines)


# -- eval -----------------------------------------------------------------------------------

CASE_FIELDS = (
    "id", "content", "old_string", "new_string", "expected_content", "expect", "file_name",
    "replace_all", "category", "fixer_answers", "expected_replacements", "match_mode",
)  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(st.one_of(edit_request(CASE_FIELDS).map(encoded), JSON.map(encoded)))
def test_eval_datasets_never_crash(line):
    with tempfile.TemporaryDirectory() as scratch:
        dataset = Path(scratch, "cases.jsonl")
        dataset.write_bytes(line + b"\n")
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = main(["eval", str(dataset), "--no-progress"])
        assert status in (0, 1, 2)
        assert "internal_error" not in stderr.getvalue(), stderr.getvalue()


def test_deeply_nested_tool_arguments_are_a_bad_request(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    engine = EditEngine(root, lock_dir=tmp_path / "locks")
    answer = engine.handle_tool_call("edit", "[" * 100_000)
    assert answer.startswith("Error [bad_request]") and "nested too deeply" in answer
