"""What the engine hands its patch step: :class:`PatchParts`, plain values, never itself.

Undo and the write transaction take the engine's :class:`~editengine.journal._writer.FileWriter`;
a patch takes that writer and the engine's policies as :class:`PatchParts`. None of them
imports ``EngineCore`` or anything that imports it: no import circle, not even one hidden
behind ``TYPE_CHECKING``. The engine's own configuration types (:data:`ConfirmCallback`,
:class:`EditCascade`) live here for the same reason.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from editengine._edits import ConfirmRequest, Decision
from editengine._results import EditResult, TextEdit
from editengine._state import EditObserver
from editengine.diagnostics import SyntaxGuard
from editengine.engine._callbacks import EditedCallback
from editengine.fixer._protocol import Fixer
from editengine.journal._writer import FileWriter
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


@dataclass(frozen=True)
class PatchParts:
    """What a patch uses of the engine, handed to it as values: the engine's write
    transaction (workspace, files, locks, journal, read tracker, size limit), its policies
    (fixer, cascade, approval, syntax guard) and what it tells (observers, ``on_edited``
    hooks, the language servers' diagnostics)."""

    writer: FileWriter
    root: Path
    fixer: Fixer | None
    fixer_guard: RelatednessGuard
    cascade: EditCascade
    confirm: ConfirmCallback | None
    syntax_guard: SyntaxGuard
    on_edited: tuple[EditedCallback, ...]
    observers: tuple[EditObserver, ...]
    server_diagnostics: Callable[[EditResult], EditResult]
