"""What applying a patch gives: each file's change and how each hunk was placed.

Plain values, the same from the pure :func:`~editengine.patch.apply_patch` and the engine's:
a :class:`PatchResult` lists each :class:`FileChange` (added, updated, moved or deleted) and,
per hunk, a :class:`HunkOutcome` (the tier that placed it, the lines it replaced).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from editengine._results import Region, TierAttempt

ChangeKind = Literal["update", "add", "delete"]


@dataclass(frozen=True)
class HunkOutcome:
    """How one hunk was placed: ``strategy`` is the cascade tier (or ``append``/``insert``),
    ``spans`` the replaced lines of the file as the previous hunks left it (1-based)."""

    path: str
    index: int
    line: int
    strategy: str
    spans: tuple[Region, ...] = ()
    no_change: bool = False
    corrected_by_fixer: bool = False
    trace: tuple[TierAttempt, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "hunk": self.index,
            "line": self.line,
            "strategy": self.strategy,
            "spans": [region.to_dict() for region in self.spans],
            "no_change": self.no_change,
            "corrected_by_fixer": self.corrected_by_fixer,
        }


@dataclass(frozen=True)
class FileChange:
    """One touched path: its content before (``None``: did not exist) and after (``None``:
    deleted). ``moved_to``/``moved_from`` link the two sides of a move."""

    path: str
    old_content: str | None
    new_content: str | None
    moved_to: str | None = None
    moved_from: str | None = None

    @property
    def kind(self) -> ChangeKind:
        if self.old_content is None:
            return "add"
        if self.new_content is None:
            return "delete"
        return "update"

    @property
    def no_change(self) -> bool:
        return self.old_content == self.new_content


@dataclass(frozen=True)
class PatchResult:
    """What a patch did (or, for a dry run, would do).

    ``files`` maps every path the patch touched to its new content (``None`` when deleted);
    ``hunks`` says how each hunk was placed. On the engine, ``results`` holds one
    :class:`~editengine.EditResult` per changed file, ``diff`` the combined diff.
    """

    format: str
    files: dict[str, str | None]
    changes: tuple[FileChange, ...]
    hunks: tuple[HunkOutcome, ...]
    summary: str = ""
    diff: str = ""
    dry_run: bool = False
    results: tuple[Any, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def strategy(self) -> str:
        """The strategies the hunks used, in first-use order, joined by ``+``."""
        names: list[str] = []
        for hunk in self.hunks:
            if hunk.strategy not in names:
                names.append(hunk.strategy)
        return "+".join(names) or "no_op"

    @property
    def no_change(self) -> bool:
        return all(change.no_change for change in self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "summary": self.summary,
            "strategy": self.strategy,
            "no_change": self.no_change,
            "dry_run": self.dry_run,
            "files": dict(self.files),
            "hunks": [hunk.to_dict() for hunk in self.hunks],
            "diff": self.diff,
            "notes": list(self.notes),
        }
