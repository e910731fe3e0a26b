"""What the engine's helpers (patches, undo, the write transaction) may use of it.

The engine hands itself to them as :class:`EngineParts`, a protocol that names the parts
they read, so they import neither ``EngineCore`` nor anything that imports it: no import
circle, not even one hidden behind ``TYPE_CHECKING``. The engine's own configuration types
(:data:`ConfirmCallback`, :class:`EditCascade`) live here for the same reason.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from editengine._edits import ConfirmRequest, Decision
from editengine._journal import Journal
from editengine._read_tracker import ReadTracker
from editengine._results import EditResult, TextEdit
from editengine._state import EditObserver
from editengine.diagnostics import SyntaxGuard
from editengine.engine._callbacks import EditedCallback
from editengine.files import PathLocks, Workspace, WorkspaceDir
from editengine.fixer._protocol import Fixer
from editengine.matching._cascade import AUTO
from editengine.verdict import RelatednessGuard

ConfirmAnswer = bool | str | Decision | None
ConfirmCallback = Callable[[ConfirmRequest], ConfirmAnswer | Awaitable[ConfirmAnswer]]


class EditCascade(Protocol):
    """What the engine needs of a cascade: one pure edit of a text. :class:`Cascade` is one;
    an evaluation may pass its own. ``tiers_for``, when present, lets the engine check
    ``match_mode`` before any file is read; what each tier was held to comes in the trace."""

    def edit(
        self,
        content: str,
        old_string: str,
        new_string: str,
        *,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        match_mode: str = AUTO,
        overwrite: bool = False,
    ) -> TextEdit: ...


class EngineParts(Protocol):
    """The engine as its helpers see it: its workspace, files, locks, journal, policies
    and observers, read-only."""

    @property
    def workspace(self) -> Workspace: ...
    @property
    def root(self) -> Path: ...
    @property
    def files(self) -> WorkspaceDir: ...
    @property
    def journal(self) -> Journal | None: ...
    @property
    def read_tracker(self) -> ReadTracker | None: ...
    @property
    def max_file_bytes(self) -> int: ...
    @property
    def fixer(self) -> Fixer | None: ...
    @property
    def fixer_guard(self) -> RelatednessGuard: ...
    @property
    def cascade(self) -> EditCascade: ...
    @property
    def confirm(self) -> ConfirmCallback | None: ...
    @property
    def on_edited(self) -> tuple[EditedCallback, ...]: ...
    @property
    def syntax_guard(self) -> SyntaxGuard: ...
    @property
    def _observers(self) -> tuple[EditObserver, ...]: ...
    @property
    def _locks(self) -> PathLocks: ...

    def _with_server_diagnostics(self, result: EditResult) -> EditResult: ...
