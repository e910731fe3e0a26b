"""multi_edit: in order, in memory, one write, one diff; all or nothing."""

from __future__ import annotations

import pytest

from editengine._edits import EditSpec
from editengine._errors import AmbiguousMatch, BadRequest, FileNotFound, MultiEditFailed, NoMatch

SOURCE = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n"


def five_edits(third_old: str = "c = 3") -> list[dict]:
    return [
        {"old_string": "a = 1", "new_string": "a = 10"},
        {"old_string": "b = 2", "new_string": "b = 20"},
        {"old_string": third_old, "new_string": "c = 30"},
        {"old_string": "d = 4", "new_string": "d = 40"},
        {"old_string": "e = 5", "new_string": "e = 50"},
    ]


def test_all_edits_land_in_one_write_with_one_diff(engine, write):
    path = write("m.py", SOURCE)
    result = engine.multi_edit("m.py", five_edits())
    assert path.read_text() == "a = 10\nb = 20\nc = 30\nd = 40\ne = 50\n"
    assert result.replacements == 5
    assert result.diff.count("@@") == 2  # one hunk, one header pair of @@
    assert (result.additions, result.deletions) == (5, 5)
    assert result.summary == "Applied 5 edits (5 replacements) to m.py (exact match)"


def test_each_edit_sees_the_result_of_the_ones_before(engine, write):
    path = write("m.py", "x = 1\n")
    engine.multi_edit(
        "m.py",
        [
            EditSpec("x = 1", "x = 2"),
            EditSpec("x = 2", "x = 3\ny = 3"),
            {"oldString": "y = 3", "newString": "y = 4", "replaceAll": True},
        ],
    )
    assert path.read_text() == "x = 3\ny = 4\n"


def test_failure_at_edit_three_of_five_writes_nothing_and_names_three(engine, write, workspace):
    path = write("m.py", SOURCE)
    before = path.read_bytes()
    mtime = path.stat().st_mtime_ns

    with pytest.raises(MultiEditFailed) as caught:
        engine.multi_edit("m.py", five_edits(third_old="c = 99"))

    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in workspace.iterdir()) == ["m.py"]
    error = caught.value
    assert error.index == 3
    assert isinstance(error.cause, NoMatch)
    assert "Edit 3 of 5 failed (no_match)" in str(error)
    assert error.to_dict()["index"] == 3
    assert error.to_dict()["cause"]["error_code"] == "no_match"


def test_an_edit_undone_by_an_earlier_one_fails_with_its_number(engine, write):
    path = write("m.py", SOURCE)
    edits = [
        {"old_string": "a = 1", "new_string": "z = 1"},
        {"old_string": "a = 1", "new_string": "q"},
    ]
    with pytest.raises(MultiEditFailed) as caught:
        engine.multi_edit("m.py", edits)
    assert caught.value.index == 2
    assert path.read_text() == SOURCE


def test_ambiguous_edit_is_named(engine, write):
    write("m.py", "x\nx\n")
    with pytest.raises(MultiEditFailed) as caught:
        engine.multi_edit("m.py", [{"old_string": "x", "new_string": "y"}])
    assert caught.value.index == 1
    assert isinstance(caught.value.cause, AmbiguousMatch)


@pytest.mark.parametrize(
    ("edits", "index"),
    [
        ([{"old_string": "a = 1", "new_string": "a"}, {"old_string": "b = 2"}], 2),
        ([{"old_string": "a = 1", "new_string": "a"}, "not an object"], 2),
        ([{"old_string": 1, "new_string": "a"}], 1),
        ([{"old_string": "a", "new_string": "b"}, {"old_string": "", "new_string": "x"}], 2),
    ],
)
def test_malformed_edit_is_named_before_reading(engine, write, edits, index):
    path = write("m.py", SOURCE)
    with pytest.raises(MultiEditFailed) as caught:
        engine.multi_edit("m.py", edits)
    assert caught.value.index == index
    assert isinstance(caught.value.cause, BadRequest)
    assert path.read_text() == SOURCE


@pytest.mark.parametrize("edits", [[], "a", {"old_string": "a", "new_string": "b"}, None])
def test_edits_must_be_a_non_empty_list(engine, write, edits):
    write("m.py", SOURCE)
    with pytest.raises(BadRequest):
        engine.multi_edit("m.py", edits)


def test_first_edit_may_create_the_file(engine, workspace):
    result = engine.multi_edit(
        "new.py",
        [
            {"old_string": "", "new_string": "a = 1\nb = 2\n"},
            {"old_string": "b = 2", "new_string": "b = 3"},
        ],
    )
    assert (workspace / "new.py").read_text() == "a = 1\nb = 3\n"
    assert result.created


def test_missing_file_without_creation_is_file_not_found(engine):
    with pytest.raises(FileNotFound):
        engine.multi_edit("nope.py", [{"old_string": "a", "new_string": "b"}])


def test_dry_run_multi_edit_writes_nothing(engine, write):
    path = write("m.py", SOURCE)
    result = engine.multi_edit("m.py", five_edits(), dry_run=True)
    assert path.read_text() == SOURCE
    assert result.dry_run and result.summary.startswith("Preview (dry run): would apply 5 edits")


def test_edits_that_cancel_out_are_a_no_change(engine, write):
    path = write("m.py", SOURCE)
    mtime = path.stat().st_mtime_ns
    result = engine.multi_edit(
        "m.py",
        [
            {"old_string": "a = 1", "new_string": "a = 2"},
            {"old_string": "a = 2", "new_string": "a = 1"},
        ],
    )
    assert result.no_change
    assert path.stat().st_mtime_ns == mtime
