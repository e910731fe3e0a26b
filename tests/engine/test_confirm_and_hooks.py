"""The confirm callback approves, rejects or rewrites an edit; on_edited runs after writes."""

from __future__ import annotations

import logging

import pytest

from editengine._edits import ConfirmRequest, Decision
from editengine._errors import BadRequest, EditRejected, NoMatch, StaleFile


def test_confirm_sees_the_diff_before_anything_is_written(make_engine, write, workspace):
    path = write("c.py", "x = 1\n")
    seen: list[ConfirmRequest] = []

    def confirm(request: ConfirmRequest) -> bool:
        seen.append(request)
        assert path.read_text() == "x = 1\n"  # nothing written yet
        return True

    result = make_engine(confirm=confirm).edit("c.py", "x = 1", "x = 2")

    (request,) = seen
    assert request.file_path == "c.py"
    assert request.absolute_path == str(workspace / "c.py")
    assert "-x = 1\n+x = 2\n" in request.diff
    assert request.summary == "Will replace 1 occurrence in c.py (exact match)"
    assert (request.old_text, request.new_text) == ("x = 1\n", "x = 2\n")
    assert path.read_text() == "x = 2\n"
    assert not result.modified_by_user


@pytest.mark.parametrize("answer", [False, Decision.reject("not now"), None, 0, object()])
def test_rejection_writes_nothing(make_engine, write, workspace, answer):
    path = write("c.py", "x = 1\n")
    engine = make_engine(confirm=lambda request: answer)
    with pytest.raises(EditRejected) as caught:
        engine.edit("c.py", "x = 1", "x = 2")
    assert path.read_bytes() == b"x = 1\n"
    assert sorted(p.name for p in workspace.iterdir()) == ["c.py"]
    assert caught.value.code == "rejected"
    if answer == Decision.reject("not now"):
        assert "not now" in str(caught.value)


@pytest.mark.parametrize(
    "answer", ["x = 42  # chosen by the user\n", Decision.modify("x = 42  # chosen by the user\n")]
)
def test_modified_content_is_written_instead(make_engine, write, answer):
    path = write("c.py", "x = 1\n")
    result = make_engine(confirm=lambda request: answer).edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 42  # chosen by the user\n"
    assert result.modified_by_user
    assert "+x = 42  # chosen by the user" in result.diff
    assert result.summary.endswith("with the user's modifications")
    assert result.new_text == "x = 42  # chosen by the user\n"


def test_approve_decision(make_engine, write):
    path = write("c.py", "x = 1\n")
    make_engine(confirm=lambda request: Decision.approve()).edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 2\n"


def test_confirm_is_skipped_for_dry_runs_and_no_ops(make_engine, write):
    write("c.py", "x = 1\n")
    calls = []
    engine = make_engine(confirm=lambda request: calls.append(request) or False)
    engine.edit("c.py", "x = 1", "x = 2", dry_run=True)
    engine.edit("c.py", "x = 1", "x = 1")
    assert calls == []


def test_file_changed_while_waiting_for_approval_is_stale(make_engine, write):
    path = write("c.py", "x = 1\n")

    def confirm(request):
        path.write_text("x = 1\ny = 'typed meanwhile'\n")
        return True

    with pytest.raises(StaleFile, match="waited for approval"):
        make_engine(confirm=confirm).edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 1\ny = 'typed meanwhile'\n"


def test_confirm_does_not_hold_the_lock(make_engine, write):
    """An approval can take minutes: other files' and other edits' locks are not held."""
    path = write("c.py", "x = 1\n")
    other = write("d.py", "a\n")
    inner = make_engine(lock_timeout=1)

    def confirm(request):
        inner.edit("d.py", "a", "b")  # would time out if this file's lock were shared/held
        return inner.read_file("c.py") == "x = 1\n"

    make_engine(confirm=confirm).edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 2\n" and other.read_text() == "b\n"


async def test_async_confirm_with_aedit(make_engine, write):
    path = write("c.py", "x = 1\n")

    async def confirm(request):
        return "x = 3\n"

    result = await make_engine(confirm=confirm).aedit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 3\n"
    assert result.modified_by_user


def test_async_confirm_with_sync_edit_outside_a_loop(make_engine, write):
    path = write("c.py", "x = 1\n")

    async def confirm(request):
        return False

    with pytest.raises(EditRejected):
        make_engine(confirm=confirm).edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 1\n"


async def test_async_confirm_with_sync_edit_inside_a_loop_is_refused(make_engine, write):
    path = write("c.py", "x = 1\n")

    async def confirm(request):
        return True

    with pytest.raises(BadRequest, match="aedit"):
        make_engine(confirm=confirm).edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 1\n"


def test_on_edited_runs_after_the_write(make_engine, write):
    path = write("c.py", "x = 1\n")
    seen = []
    engine = make_engine(on_edited=[lambda result: seen.append((result.summary, path.read_text()))])
    engine.edit("c.py", "x = 1", "x = 2")
    assert seen == [("Replaced 1 occurrence in c.py (exact match)", "x = 2\n")]


def test_on_edited_not_called_without_a_write(make_engine, write):
    write("c.py", "x = 1\n")
    seen = []
    engine = make_engine(on_edited=seen.append)
    engine.edit("c.py", "x = 1", "x = 2", dry_run=True)
    engine.edit("c.py", "x = 1", "x = 1")
    with pytest.raises(NoMatch):
        engine.edit("c.py", "nope", "zzz = 3")
    assert seen == []


def test_failing_on_edited_is_logged_and_never_undoes_the_write(make_engine, write, caplog):
    path = write("c.py", "x = 1\n")
    after = []

    def broken(result):
        raise RuntimeError("diagnostics server down")

    engine = make_engine(on_edited=[broken, after.append])
    with caplog.at_level(logging.WARNING, logger="editengine"):
        result = engine.edit("c.py", "x = 1", "x = 2")
    assert path.read_text() == "x = 2\n"
    assert after == [result]
    assert "on_edited callback" in caplog.text


async def test_async_on_edited_is_awaited(make_engine, write):
    write("c.py", "x = 1\n")
    seen = []

    async def hook(result):
        seen.append(result.file_path)

    await make_engine(on_edited=[hook]).aedit("c.py", "x = 1", "x = 2")
    assert seen == ["c.py"]


def test_to_acp_diff_content(engine, write, workspace):
    write("c.py", "x = 1\n")
    result = engine.edit("c.py", "x = 1", "x = 2")
    assert result.to_acp() == {
        "type": "diff",
        "path": str(workspace / "c.py"),
        "oldText": "x = 1\n",
        "newText": "x = 2\n",
    }


def test_rejected_creation_leaves_no_file_and_no_folders(make_engine, workspace):
    seen = []
    engine = make_engine(confirm=lambda request: seen.append(request) or False)
    with pytest.raises(EditRejected):
        engine.edit("new/pkg/mod.py", "", "x = 1\n")
    assert seen[0].created and seen[0].summary == "Will create new/pkg/mod.py (1 line)"
    assert list(workspace.iterdir()) == []


def test_multi_edit_is_confirmed_once_with_the_combined_diff(make_engine, write):
    path = write("m.py", "a = 1\nb = 2\n")
    seen = []
    engine = make_engine(confirm=lambda request: seen.append(request) or True)
    engine.multi_edit(
        "m.py",
        [
            {"old_string": "a = 1", "new_string": "a = 3"},
            {"old_string": "b = 2", "new_string": "b = 4"},
        ],
    )
    assert len(seen) == 1
    assert "+a = 3" in seen[0].diff and "+b = 4" in seen[0].diff
    assert path.read_text() == "a = 3\nb = 4\n"
