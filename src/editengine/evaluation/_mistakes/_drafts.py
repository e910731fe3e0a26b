"""A request being misquoted: the true edit on a block (:class:`Quote`) and the draft a
mistake changes (:class:`Draft`), rendered as the old_string and new_string a model sends.

A mistake is ``(rng, Draft, Quote) -> Draft | None`` (:data:`Mistake`): the draft changed the
way one everyday mistake changes it, or ``None`` when it cannot be made on this block.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Quote:
    """The true edit on a block of a file, and what a mistake may look at."""

    old: tuple[str, ...]  # the block as the file has it (lines without terminators)
    new: tuple[str, ...]  # the block after the intended edit
    first_line: int  # 1-based number of the block's first line in the file
    unit: str  # one indentation level of the file: "\t", "  " or "    "
    eol: str  # the file's line ending
    lang: str
    file_lines: tuple[str, ...]  # the whole file, for mistakes that must stay decidable

    @property
    def file_has_fence(self) -> bool:
        return any(line.lstrip().startswith(("```", "~~~")) for line in self.file_lines)


@dataclass(frozen=True)
class Draft:
    """A request being misquoted: lines, their endings, text written around them."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    old_eol: str = "\n"
    new_eol: str = "\n"
    old_before: str = ""
    old_after: str = ""
    new_before: str = ""
    new_after: str = ""
    old_eols: tuple[str, ...] | None = None  # per line break, for mixed endings
    escaped: bool = False  # newlines, tabs and quotes written as backslash sequences
    notes: tuple[str, ...] = field(default=())
    extra_escapes: int = 0  # escaped this many more times (a tool layer that escapes twice)

    @classmethod
    def of(cls, quote: Quote, eol: str = "\n") -> Draft:
        return cls(quote.old, quote.new, eol, eol)

    def noted(self, note: str, **changes: Any) -> Draft:
        return replace(self, notes=(*self.notes, note), **changes)

    def render(self) -> tuple[str, str]:
        """The (old_string, new_string) the model sends."""
        if self.old_eols is not None:
            body = self.old[0] if self.old else ""
            for eol, line in zip(self.old_eols, self.old[1:], strict=True):
                body += eol + line
        else:
            body = self.old_eol.join(self.old)
        old = self.old_before + body + self.old_after
        new = self.new_before + self.new_eol.join(self.new) + self.new_after
        if self.escaped:
            old, new = _escape(old), _escape(new)
        for _ in range(self.extra_escapes):
            old, new = _escape(old), _escape(new)
        return old, new


def _escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("'", "\\'")
        .replace("\t", "\\t")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


Mistake = Callable[[random.Random, Draft, Quote], "Draft | None"]
