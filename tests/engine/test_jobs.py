"""One edit or multi-edit call checked and recorded before anything is read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from editengine._errors import BadRequest, MultiEditFailed
from editengine.engine._jobs import Job, edit_job, multi_edit_job

HASH = "ab" * 32


def _edit(file_path: object = "src/a.py", **overrides: Any) -> Job:
    arguments: dict[str, Any] = {
        "instruction": None,
        "replace_all": False,
        "expected_replacements": None,
        "match_mode": "auto",
        "dry_run": False,
        "expected_hash": None,
        "check_match_mode": lambda mode: None,
    }
    arguments.update(overrides)
    old = arguments.pop("old_string", "a = 1")
    new = arguments.pop("new_string", "a = 2")
    return edit_job(file_path, old, new, **arguments)


def _multi(edits: object, file_path: object = "src/a.py", **overrides: Any) -> Job:
    arguments: dict[str, Any] = {
        "instruction": None,
        "dry_run": False,
        "expected_hash": None,
        "check_match_mode": lambda mode: None,
    }
    arguments.update(overrides)
    return multi_edit_job(file_path, edits, **arguments)


def _message(job: Job) -> str:
    assert isinstance(job.error, BadRequest)
    return str(job.error)


class TestEditJob:
    def test_records_the_call_and_carries_the_instruction_to_its_edit(self):
        job = _edit(instruction="rename a", expected_hash=HASH)
        assert (job.operation, job.state.operation, job.state.file_path) == (
            "edit",
            "edit",
            "src/a.py",
        )
        assert job.specs[0].instruction == "rename a"
        assert job.expected_hash == HASH and job.error is None

    def test_an_invalid_call_keeps_its_error_and_no_edits(self):
        job = _edit(dry_run="yes")
        assert _message(job) == "dry_run must be true or false, got 'yes'."
        assert job.specs == ()

    def test_an_expected_hash_that_is_no_string_is_refused(self):
        assert _message(_edit(expected_hash=123)) == "expected_hash must be a sha256 hex string."

    def test_a_file_path_that_is_no_path_is_recorded_as_its_repr(self):
        assert _edit(file_path=42).state.file_path == "42"
        assert _edit(file_path=Path("src/b.py")).state.file_path == "src/b.py"


class TestMultiEditJob:
    edits = (
        {"old_string": "a = 1", "new_string": "a = 2", "replace_all": True},
        {"old_string": "bb", "new_string": "c", "match_mode": "exact"},
    )

    def test_records_the_edits_in_the_state(self):
        job = _multi(self.edits, instruction="tidy", expected_hash=HASH)
        state = job.state
        assert (job.operation, state.operation, state.file_path) == (
            "multi_edit",
            "multi_edit",
            "src/a.py",
        )
        assert (state.instruction_given, state.replace_all) == (True, True)
        assert (state.old_chars, state.new_chars) == (7, 6)
        assert (state.old_preview, state.new_preview) == ("a = 1", "a = 2")
        assert state.match_mode == "mixed"
        assert job.expected_hash == HASH and len(job.specs) == 2

    def test_one_match_mode_for_every_edit_is_recorded_as_that_mode(self):
        edits = [{"old_string": "x", "new_string": "y", "match_mode": "exact"}] * 2
        assert _multi(edits).state.match_mode == "exact"

    def test_no_instruction_and_no_replace_all_are_recorded_as_such(self):
        state = _multi([{"old_string": "x", "new_string": "y"}]).state
        assert (state.instruction_given, state.replace_all, state.match_mode) == (
            False,
            False,
            "auto",
        )

    def test_an_invalid_call_keeps_its_error_and_no_edits(self):
        job = _multi(self.edits, dry_run=1)
        assert _message(job) == "dry_run must be true or false, got 1."
        assert job.specs == ()

    def test_an_expected_hash_that_is_no_string_is_refused(self):
        assert _message(_multi(self.edits, expected_hash=b"x")) == (
            "expected_hash must be a sha256 hex string."
        )

    def test_an_instruction_that_is_no_string_is_refused_and_a_string_is_not(self):
        assert _message(_multi(self.edits, instruction=5)) == "instruction must be a string."
        assert _multi(self.edits, instruction="tidy").error is None

    def test_edits_that_are_no_list_are_refused(self):
        for edits in ("a = 1", {"old_string": "a"}, 7):
            assert _message(_multi(edits)) == (
                "edits must be a list of {old_string, new_string} objects."
            )

    def test_no_edits_are_refused(self):
        assert _message(_multi([])) == "edits is empty: give at least one edit."

    def test_a_later_edit_that_would_create_the_file_is_refused_by_number(self):
        edits = [{"old_string": "x", "new_string": "y"}, {"old_string": "", "new_string": "z"}]
        job = _multi(edits)
        assert isinstance(job.error, MultiEditFailed)
        assert str(job.error) == (
            "Edit 2 of 2 failed (bad_request); nothing was written.\n"
            "Edit 2: old_string is empty; only the first edit may create or replace the whole "
            "file.\n"
            "Fix edit 2 and send all 2 edits again (edits run in order, each on the result of "
            "the ones before it)."
        )
