"""What the tool-call front end needs of an engine: its public operations, as a protocol.

:class:`~editengine.tools.ToolCalls`, the text editor, the ``apply_patch_call`` handler and
``read`` are handed an engine and call only these, so the front end never imports the
engine package (not even for a type checker) and never touches an engine's private state:
:class:`~editengine.EditEngine` composes a ``ToolCalls`` over itself, and any object with
these members can stand in for it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from editengine._edits import EditSpec
from editengine._results import EditResult
from editengine.files import Workspace
from editengine.tools._tool_answers import Written


class Undone(Protocol):
    """An undo's outcome, as far as a tool answers with it."""

    def text(self) -> str: ...


class EngineOperations(Protocol):
    """The engine's public members a tool call reaches."""

    @property
    def root(self) -> Path: ...

    @property
    def workspace(self) -> Workspace: ...

    @property
    def max_file_bytes(self) -> int: ...

    def read_file(self, file_path: str | os.PathLike[str]) -> str: ...

    def edit(
        self,
        file_path: str | os.PathLike[str],
        old_string: str,
        new_string: str,
        *,
        instruction: str | None = None,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        match_mode: str = "auto",
        expected_hash: str | None = None,
    ) -> EditResult: ...

    async def aedit(
        self,
        file_path: str | os.PathLike[str],
        old_string: str,
        new_string: str,
        *,
        instruction: str | None = None,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        match_mode: str = "auto",
        expected_hash: str | None = None,
    ) -> EditResult: ...

    def multi_edit(
        self,
        file_path: str | os.PathLike[str],
        edits: Sequence[EditSpec | Mapping[str, Any]],
        *,
        instruction: str | None = None,
        expected_hash: str | None = None,
    ) -> EditResult: ...

    async def amulti_edit(
        self,
        file_path: str | os.PathLike[str],
        edits: Sequence[EditSpec | Mapping[str, Any]],
        *,
        instruction: str | None = None,
        expected_hash: str | None = None,
    ) -> EditResult: ...

    def apply_patch(
        self, patch: str, *, format: str = "auto", instruction: str | None = None
    ) -> Written: ...

    def undo(self, path: str | os.PathLike[str] | None = None, *, steps: int = 1) -> Undone: ...
