"""The structured output of each MCP tool: what a client reads besides the text.

Each model is the tool's published output schema; the answers (:mod:`._answers`) fill them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ReadOutput(BaseModel):
    file_path: str
    start_line: int = Field(description="first line shown (1-based)")
    end_line: int = Field(description="last line shown (start_line - 1 when none)")
    total_lines: int
    sha256: str = Field(description="sha256 of the file's bytes as read")
    truncated: bool = Field(description="more lines follow end_line")
    text: str = Field(
        description="the lines shown, each as its number, a tab and the line (never copy "
        "the number and the tab into old_string)"
    )


class EditOutput(BaseModel):
    summary: str
    file_path: str
    replacements: int
    strategy: str
    diff: str
    hash_before: str | None
    hash_after: str | None
    created: bool
    no_change: bool
    corrected_by_fixer: bool
    notes: list[str]
    # The problems the edit introduced (docs/diagnostics.md), as the text's Errors: block.
    diagnostics: list[dict[str, Any]] = Field(default_factory=list)
    diagnostics_note: str | None = None


class RestoredOutput(BaseModel):
    file_path: str
    reversed: str = Field(description="summary of the write that was reversed")
    hash_before: str | None
    hash_after: str | None = Field(description="null when the file was deleted")
    deleted: bool
    created: bool


class UndoOutput(BaseModel):
    operation: str = Field(description="undo or redo")
    summary: str
    restored: list[RestoredOutput]


class PatchOutput(BaseModel):
    summary: str
    files: list[str]
    # Per file, the problems the patch introduced there (only files that have some).
    diagnostics: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
