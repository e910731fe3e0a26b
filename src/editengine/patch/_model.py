"""The neutral model every patch format is parsed into: a list of file operations.

A SEARCH/REPLACE answer, a unified diff and an ``apply_patch`` patch all become a
:class:`Patch`: ``update`` operations carrying :class:`Hunk` objects (before-text ->
after-text, context included), ``add``, ``delete``, and an update with ``move_to``.
Texts are LF-only; the file's own line endings are restored when the hunk is applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from editengine._text import to_lf

FORMATS: tuple[str, ...] = ("search_replace", "udiff", "apply_patch")
AUTO = "auto"

OperationKind = Literal["update", "add", "delete"]


@dataclass(frozen=True)
class Hunk:
    """One change inside a file: replace ``before`` (context + removed lines) by ``after``.

    ``before == ""`` adds ``after`` at the end of the file (or, with ``anchors``, right after
    the last anchor line). ``anchors`` are lines (``@@ def f():``) that narrow where
    ``before`` is sought, outermost first; ``at_end`` pins the hunk to the end of the file
    (``*** End of File``). ``line`` is the 1-based patch line where the hunk starts;
    ``hint_line`` the old-file line a unified diff header claims (a hint, never trusted over
    the content).
    """

    before: str
    after: str
    line: int
    anchors: tuple[str, ...] = ()
    at_end: bool = False
    hint_line: int | None = None
    # The two texts with every line break as "\n", made once with the hunk: placing it reads
    # these, never normalising the same text again rule after rule.
    before_lf: str = field(init=False, repr=False, compare=False)
    after_lf: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "before_lf", to_lf(self.before))
        object.__setattr__(self, "after_lf", to_lf(self.after))

    @property
    def is_addition(self) -> bool:
        return self.before == ""


@dataclass(frozen=True)
class FileOperation:
    """What a patch does to one file.

    ``update``: apply ``hunks`` in order (then move to ``move_to`` when given);
    ``add``: create the file with ``content``; ``delete``: remove it.
    ``creates_if_missing``: an update made only of additions may create the file (aider's
    empty SEARCH, a diff hunk with no old lines).
    """

    kind: OperationKind
    path: str
    line: int
    hunks: tuple[Hunk, ...] = ()
    content: str | None = None
    move_to: str | None = None
    creates_if_missing: bool = False

    def paths(self) -> tuple[str, ...]:
        return (self.path,) if self.move_to is None else (self.path, self.move_to)


@dataclass(frozen=True)
class Patch:
    """A parsed patch: its format and its file operations, in the order written."""

    format: str
    operations: tuple[FileOperation, ...]

    def paths(self) -> tuple[str, ...]:
        """Every path the patch names, first mention first."""
        seen: dict[str, None] = {}
        for operation in self.operations:
            for path in operation.paths():
                seen.setdefault(path, None)
        return tuple(seen)

    @property
    def hunk_count(self) -> int:
        return sum(len(operation.hunks) for operation in self.operations)


def join_lines(lines: list[str]) -> str:
    """Patch lines (without their newlines) as LF text, each line ended: ``""`` when none."""
    return "".join(line + "\n" for line in lines)


def split_patch_lines(text: str) -> list[str]:
    """The patch's lines without their endings (``\\r\\n``, ``\\n`` or a lone ``\\r``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
