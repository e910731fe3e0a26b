"""Observers see every edit start and finish, with what happened; a broken one changes nothing."""

from __future__ import annotations

import hashlib
import logging

import pytest

from editengine._errors import BadRequest, NoMatch, PathOutsideWorkspace


def test_observer_sees_start_and_finish(make_engine, write, observer):
    path = write("t.py", "alpha\nbeta\n")
    engine = make_engine(telemetry=observer)
    result = engine.edit("t.py", "beta", "gamma", instruction="rename")

    assert [kind for kind, _ in observer.events] == ["started", "finished"]
    assert observer.snapshots[0] == ("started", None, "t.py")
    state = observer.events[-1][1]
    assert state.outcome == "success"
    assert state.error_code is None
    assert state.strategy == "exact" and state.replacements == 1
    assert state.operation == "edit" and state.instruction_given
    assert (state.old_chars, state.new_chars) == (4, 5)
    assert (state.old_preview, state.new_preview) == ("beta", "gamma")
    assert state.file_bytes == len(b"alpha\nbeta\n") and state.file_lines == 2
    assert state.hash_before == hashlib.sha256(b"alpha\nbeta\n").hexdigest()
    assert state.attempts and state.attempts[-1].outcome == "matched"
    assert state.duration_ms > 0
    assert state.edit_id == result.edit_id
    assert path.read_text() == "alpha\ngamma\n"


def test_previews_are_capped(make_engine, write, observer):
    write("t.py", "x" * 500)
    make_engine(telemetry=observer).edit("t.py", "x" * 500, "y" * 300)
    state = observer.events[-1][1]
    assert len(state.old_preview) == 200 and len(state.new_preview) == 200


def test_errors_are_recorded(make_engine, write, observer):
    write("t.py", "alpha\n")
    with pytest.raises(NoMatch):
        make_engine(telemetry=observer).edit("t.py", "zeta", "x")
    state = observer.events[-1][1]
    assert state.outcome == "error" and state.error_code == "no_match"
    assert state.attempts and all(a.outcome != "matched" for a in state.attempts)


def test_guard_refusals_and_bad_requests_are_recorded(make_engine, observer):
    engine = make_engine(telemetry=observer)
    with pytest.raises(PathOutsideWorkspace):
        engine.edit("../x", "a", "b")
    with pytest.raises(BadRequest):
        engine.edit("x", 1, "b")
    codes = [state.error_code for kind, state in observer.events if kind == "finished"]
    assert codes == ["path_outside_workspace", "bad_request"]


def test_no_change_and_multi_edit_outcomes(make_engine, write, observer):
    write("t.py", "a\nb\n")
    engine = make_engine(telemetry=observer)
    engine.edit("t.py", "a", "a")
    engine.multi_edit(
        "t.py", [{"old_string": "a", "new_string": "c"}, {"old_string": "b", "new_string": "d"}]
    )
    finished = [state for kind, state in observer.events if kind == "finished"]
    assert finished[0].outcome == "no_change"
    assert finished[1].operation == "multi_edit" and finished[1].replacements == 2


def test_several_observers(make_engine, write, observer):
    second = type(observer)()
    write("t.py", "a\n")
    make_engine(telemetry=(observer, second)).edit("t.py", "a", "b")
    assert len(observer.events) == len(second.events) == 2


class Broken:
    def edit_started(self, state):
        raise RuntimeError("sink down")

    def edit_finished(self, state):
        raise RuntimeError("sink down")


def test_raising_observer_never_fails_the_edit(make_engine, write, observer, caplog):
    path = write("t.py", "a\n")
    engine = make_engine(telemetry=[Broken(), observer])
    with caplog.at_level(logging.WARNING, logger="editengine"):
        result = engine.edit("t.py", "a", "b")
    assert path.read_text() == "b\n"
    assert result.replacements == 1
    assert [kind for kind, _ in observer.events] == ["started", "finished"]
    assert "telemetry observer" in caplog.text


def test_raising_observer_does_not_mask_the_edit_error(make_engine, write):
    write("t.py", "a\n")
    with pytest.raises(NoMatch):
        make_engine(telemetry=Broken()).edit("t.py", "zzz", "b")


async def test_async_edits_are_observed(make_engine, write, observer):
    write("t.py", "a\n")
    await make_engine(telemetry=observer).aedit("t.py", "a", "b")
    assert observer.events[-1][1].outcome == "success"
