"""ToolCalls runs a call with the engine's public operations only: a stand-in with just those
members answers every tool, and EditEngine's handle_tool_call is that handler over itself."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from editengine import EditEngine, NoMatch
from editengine.files import Workspace
from editengine.tools import ToolCalls


@dataclass(frozen=True)
class _Written:
    summary: str
    notes: tuple[str, ...] = ()
    diff: str = ""


class _Undone:
    def text(self) -> str:
        return "Undid 1 edit."


class PublicOnly:
    """Only the members of tools/_operations.py:EngineOperations; records each call."""

    def __init__(self, root: Path) -> None:
        self.workspace = Workspace(root)
        self.root = self.workspace.root
        self.max_file_bytes = 1_000_000
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def _result(self, file_path: Any) -> Any:
        return _Written(f"Done with {os.fspath(file_path)}")

    def read_file(self, file_path: str | os.PathLike[str]) -> str:
        self.calls.append(("read_file", (file_path,), {}))
        return "a = 1\nb = 2\n"

    def edit(self, file_path: Any, old_string: str, new_string: str, **options: Any) -> Any:
        self.calls.append(("edit", (file_path, old_string, new_string), options))
        if old_string == "missing":
            raise NoMatch("old_string was not found in m.py.")
        return self._result(file_path)

    async def aedit(self, file_path: Any, old_string: str, new_string: str, **options: Any) -> Any:
        self.calls.append(("aedit", (file_path, old_string, new_string), options))
        return self._result(file_path)

    def multi_edit(self, file_path: Any, edits: Sequence[Any], **options: Any) -> Any:
        self.calls.append(("multi_edit", (file_path, tuple(edits)), options))
        return self._result(file_path)

    async def amulti_edit(self, file_path: Any, edits: Sequence[Any], **options: Any) -> Any:
        self.calls.append(("amulti_edit", (file_path, tuple(edits)), options))
        return self._result(file_path)

    def apply_patch(self, patch: str, **options: Any) -> Any:
        self.calls.append(("apply_patch", (patch,), options))
        return self._result("m.py")

    def undo(self, path: Any = None, *, steps: int = 1) -> _Undone:
        self.calls.append(("undo", (path,), {"steps": steps}))
        return _Undone()


@pytest.fixture
def stand_in(tmp_path: Path) -> PublicOnly:
    return PublicOnly(tmp_path)


def test_an_edit_call_reaches_the_public_edit_with_its_guards(stand_in: PublicOnly) -> None:
    arguments = {"file_path": "m.py", "old_string": "a", "new_string": "b"}
    answer = ToolCalls(stand_in).handle_tool_call(
        "edit", {**arguments, "expected_hash": "f" * 64, "replace_all": True}
    )
    assert not answer.is_error and answer.text == "Done with m.py."
    [(method, args, options)] = stand_in.calls
    assert (method, args) == ("edit", ("m.py", "a", "b"))
    assert options["replace_all"] is True and options["expected_hash"] == "f" * 64
    # overwrite goes only to a method that names it; the stand-in's takes **options only
    ToolCalls(stand_in).handle_tool_call("edit", {**arguments, "overwrite": True})
    assert "overwrite" not in stand_in.calls[-1][2]


def test_multiedit_patch_read_and_the_text_editor_reach_public_methods(
    stand_in: PublicOnly,
) -> None:
    handler = ToolCalls(stand_in)
    edits = [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]
    assert not handler.handle_tool_call("multiedit", {"file_path": "m.py", "edits": edits}).is_error
    assert stand_in.calls[-1][0] == "multi_edit" and len(stand_in.calls[-1][1][1]) == 2
    patch = "*** Begin Patch\n*** Update File: m.py\n-a\n+b\n*** End Patch\n"
    assert not handler.handle_tool_call("apply_patch", {"patch": patch}).is_error
    assert stand_in.calls[-1] == ("apply_patch", (patch,), {"format": "auto", "instruction": None})
    read = handler.handle_tool_call("read", {"file_path": "m.py"})
    assert read.text == "     1\ta = 1\n     2\tb = 2"
    undone = handler.handle_tool_call(
        "str_replace_based_edit_tool", {"command": "undo_edit", "path": "m.py"}
    )
    assert undone.text == "Undid 1 edit."
    methods = [method for method, _, _ in stand_in.calls]
    assert methods == ["multi_edit", "apply_patch", "read_file", "undo"]


def test_a_refusal_is_an_answer_not_a_raise(stand_in: PublicOnly) -> None:
    answer = ToolCalls(stand_in).handle_tool_call(
        "edit", {"file_path": "m.py", "old_string": "missing", "new_string": "b"}
    )
    assert answer.is_error and answer.code == "no_match"
    assert answer.text.startswith("Error [no_match]: old_string was not found")


def test_the_async_calls_reach_the_async_methods(stand_in: PublicOnly) -> None:
    handler = ToolCalls(stand_in)
    edit = {"file_path": "m.py", "old_string": "a", "new_string": "b"}
    asyncio.run(handler.ahandle_tool_call("edit", edit))
    asyncio.run(handler.ahandle_tool_call("multiedit", {"file_path": "m.py", "edits": [edit]}))
    assert [call[0] for call in stand_in.calls] == ["aedit", "amulti_edit"]


def test_edit_engine_composes_the_handler_instead_of_inheriting_it(tmp_path: Path) -> None:
    assert ToolCalls not in EditEngine.__mro__
    (tmp_path / "m.py").write_text("a = 1\n")
    engine = EditEngine(tmp_path, journal=False, lock_dir=tmp_path / "locks")
    call: Mapping[str, Any] = {"file_path": "m.py", "old_string": "a = 1", "new_string": "a = 2"}
    mine = engine.handle_tool_call("edit", call)
    assert not mine.is_error and (tmp_path / "m.py").read_text() == "a = 2\n"
    back = {"file_path": "m.py", "old_string": "a = 2", "new_string": "a = 1"}
    theirs = ToolCalls(engine).handle_tool_call("edit", back)
    assert not theirs.is_error and (tmp_path / "m.py").read_text() == "a = 1\n"
    assert theirs.text.splitlines()[0] == mine.text.splitlines()[0]
