"""Unified diffs of an edit, with added/deleted line counts.

The diff is computed on LF text without a BOM (what a reader wants to see); only the
changed middle of the file is compared, so a small edit to a large file stays cheap.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from editengine._text import split_bom, to_lf

_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")
_NO_NEWLINE = "\\ No newline at end of file\n"


@dataclass(frozen=True)
class FileDiff:
    text: str
    additions: int
    deletions: int


def unified_diff(
    old: str, new: str, path: str, *, context: int = 3, created: bool = False
) -> FileDiff:
    """The unified diff from ``old`` to ``new`` with ``a/path`` / ``b/path`` headers."""
    old_lines = _lines(old)
    new_lines = _lines(new)
    if old_lines == new_lines:
        note = ""
        if old != new:
            note = "# only line endings or the byte-order mark changed\n"
        return FileDiff(note, 0, 0)

    prefix = _common_prefix(old_lines, new_lines)
    suffix = _common_suffix(old_lines[prefix:], new_lines[prefix:])
    start = max(0, prefix - context)
    old_end = len(old_lines) - max(0, suffix - context)
    new_end = len(new_lines) - max(0, suffix - context)

    body = difflib.unified_diff(
        old_lines[start:old_end],
        new_lines[start:new_end],
        fromfile="/dev/null" if created else f"a/{path}",
        tofile=f"b/{path}",
        n=context,
    )
    out: list[str] = []
    additions = deletions = 0
    for line in body:
        if line.startswith("@@"):
            line = _shift_hunk(line, start)
        elif line.startswith("+") and not line.startswith("+++"):
            additions += 1
        elif line.startswith("-") and not line.startswith("---"):
            deletions += 1
        if not line.endswith("\n"):
            out.append(line + "\n")
            if not line.startswith(("---", "+++", "@@")):
                out.append(_NO_NEWLINE)
            continue
        out.append(line)
    return FileDiff("".join(out), additions, deletions)


def _lines(text: str) -> list[str]:
    return to_lf(split_bom(text)[1]).splitlines(keepends=True)


def _common_prefix(a: list[str], b: list[str]) -> int:
    count = 0
    for left, right in zip(a, b, strict=False):
        if left != right:
            break
        count += 1
    return count


def _common_suffix(a: list[str], b: list[str]) -> int:
    count = 0
    for left, right in zip(reversed(a), reversed(b), strict=False):
        if left != right:
            break
        count += 1
    return count


def _shift_hunk(header: str, offset: int) -> str:
    """difflib numbers lines from the slice it saw; move them to file line numbers."""
    if not offset:
        return header
    match = _HUNK.match(header)
    if not match:
        return header
    # An empty range's start is the line before it, so adding the offset is right for it too.
    old_start, old_len, new_start, new_len = match.groups()
    return (
        f"@@ -{int(old_start) + offset}{old_len or ''} +{int(new_start) + offset}{new_len or ''} @@"
        + header[match.end() :]
    )
