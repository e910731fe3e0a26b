"""What an undo (or redo) did: the files it put back, for a model or a person to read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from editengine.journal._records import JournalEntry


@dataclass(frozen=True)
class RestoredFile:
    """One reversed write: ``file_path`` went from ``hash_before`` back to ``hash_after``."""

    file_path: str
    reversed_entry: JournalEntry
    hash_before: str | None
    hash_after: str | None
    diff: str

    @property
    def deleted(self) -> bool:
        return self.hash_after is None

    @property
    def created(self) -> bool:
        return self.hash_before is None

    def describe(self, operation: str) -> str:
        what = self.reversed_entry.summary or f"{self.reversed_entry.operation} of {self.file_path}"
        if operation == "redo":
            return f"Redid in {self.file_path}: {what}"
        if self.deleted:
            return f"Deleted {self.file_path}, which the undone write had created ({what})"
        return f"Restored {self.file_path} to its content before: {what}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file_path": self.file_path,
            "reversed": self.reversed_entry.to_dict(),
            "hash_before": self.hash_before,
            "hash_after": self.hash_after,
            "deleted": self.deleted,
            "created": self.created,
            "diff": self.diff,
        }


@dataclass(frozen=True)
class UndoResult:
    """What ``engine.undo()`` / ``engine.redo()`` did, newest reversed write first."""

    operation: str
    restored: tuple[RestoredFile, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def summary(self) -> str:
        verb = "Undid" if self.operation == "undo" else "Redid"
        count = len(self.restored)
        files = sorted({item.file_path for item in self.restored})
        return f"{verb} {count} write{'s' if count != 1 else ''}: {', '.join(files)}"

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item.file_path for item in self.restored))

    def text(self) -> str:
        """What a model or a person reads: summary, one line per step, then the diffs."""
        parts = [self.summary + "."]
        parts.extend(item.describe(self.operation) + "." for item in self.restored)
        parts.extend(self.notes)
        parts.extend(item.diff.rstrip("\n") for item in self.restored if item.diff)
        return "\n\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "operation": self.operation,
            "summary": self.summary,
            "restored": [item.to_dict() for item in self.restored],
            "notes": list(self.notes),
        }
