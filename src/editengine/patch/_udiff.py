"""Parser for unified diffs, tolerant of what models get wrong.

- ``--- a/x`` / ``+++ b/x`` open a file; ``a/``/``b/`` prefixes or none; ``/dev/null`` on
  one side adds or deletes the file; different paths on the two sides move it;
- ``@@ -l,n +l,n @@ heading`` starts a hunk. Its numbers are kept only as a hint (never
  trusted over the content); missing numbers (``@@ ... @@``) or a missing ``@@`` line right
  after the file header are fine; the heading after the second ``@@`` narrows the search;
- a blank line inside a hunk is a context line that lost its leading space; blank lines
  ending a hunk (before prose or the next file) are not part of it;
- prose around the diff, Markdown fences and git's ``diff --git``/``index`` lines are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from editengine._errors import PatchError
from editengine.patch._model import FileOperation, Hunk, Patch, join_lines, split_patch_lines

DEV_NULL = "/dev/null"
_HUNK_HEADER = re.compile(r"^@@(?:\s*-(\d+)(?:,\d+)?\s*\+\d+(?:,\d+)?)?[^@]*(?:@@(.*))?$")


def parse(text: str) -> Patch:
    """The file operations of a unified diff; :class:`PatchError` names the line."""
    lines = split_patch_lines(text)
    files: list[_File] = []
    current: _File | None = None
    hunk: _RawHunk | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if _is_file_header(lines, i):
            current = _File(
                old=_header_path(line, "---"), new=_header_path(lines[i + 1], "+++"), line=i + 1
            )
            files.append(current)
            hunk = None
            i += 2
            continue
        if line.startswith("```"):
            hunk = None
            i += 1
            continue
        if current is not None and line.startswith("@@"):
            match = _HUNK_HEADER.match(line.rstrip())
            if match is None:
                raise PatchError(
                    f"malformed hunk header {line!r}.",
                    line=i + 1,
                    hint="A hunk starts with '@@ -start,count +start,count @@' (or '@@ @@').",
                )
            hint_line = int(match.group(1)) if match.group(1) else None
            heading = (match.group(2) or "").strip()
            hunk = _RawHunk(i + 1, hint_line, heading)
            current.hunks.append(hunk)
            i += 1
            continue
        if line.startswith("\\") and hunk is not None:
            i += 1  # "\ No newline at end of file": the file's own final newline is kept
            continue
        if current is not None and _is_hunk_line(line):
            if hunk is None:
                if line == "" or not current.may_start_hunk_without_header():
                    i += 1
                    continue
                hunk = _RawHunk(i + 1, None, "")  # the model forgot the @@ line
                current.hunks.append(hunk)
            hunk.lines.append((i + 1, line))
            i += 1
            continue
        hunk = None  # prose, git metadata, "\ No newline at end of file"
        i += 1
    if not files:
        raise PatchError(
            "no file header found: a unified diff names each file with a '--- path' line "
            "followed by a '+++ path' line.",
            line=1,
            hint="Start each file's changes with '--- a/path' and '+++ b/path', then '@@' hunks.",
        )
    return Patch("udiff", tuple(_operation(f) for f in files))


@dataclass
class _RawHunk:
    line: int
    hint_line: int | None
    heading: str
    lines: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class _File:
    old: str
    new: str
    line: int
    hunks: list[_RawHunk] = field(default_factory=list)

    def may_start_hunk_without_header(self) -> bool:
        return not self.hunks


def _is_file_header(lines: list[str], i: int) -> bool:
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def _is_hunk_line(line: str) -> bool:
    return line == "" or line[0] in " +-" or not line.strip()


def _header_path(line: str, marker: str) -> str:
    path = line[len(marker) :].split("\t", 1)[0].strip()
    if len(path) >= 2 and path[0] == path[-1] == '"':
        path = path[1:-1]
    return path


def _strip_prefixes(old: str, new: str) -> tuple[str, str]:
    """git's ``a/`` and ``b/`` prefixes off, when the diff uses them."""
    if old.startswith("a/") and (new.startswith("b/") or new == DEV_NULL):
        old = old[2:]
    if new.startswith("b/") and (old.startswith(("a/", DEV_NULL)) or old == new[2:]):
        new = new[2:]
    if old != new and old.startswith("a/") and old[2:] == new:
        old = old[2:]
    return old, new


def _operation(raw: _File) -> FileOperation:
    old, new = _strip_prefixes(raw.old, raw.new)
    hunks = [hunk for hunk in (_hunk(h) for h in raw.hunks) if hunk is not None]
    if old == DEV_NULL and new == DEV_NULL:
        raise PatchError("both sides of the file header are /dev/null.", line=raw.line)
    if new == DEV_NULL:
        # The '-' lines say what is deleted: the file is deleted only if they are its content.
        content = "".join(hunk.before for hunk in hunks)
        return FileOperation("delete", old, raw.line, content=content)
    if not old or not new:
        raise PatchError("the file header has an empty path.", line=raw.line)
    if old == DEV_NULL and all(hunk.is_addition for hunk in hunks):
        content = "".join(hunk.after for hunk in hunks)
        return FileOperation("add", new, raw.line, content=content)
    if old == DEV_NULL:
        old = new  # '-' lines under /dev/null: the model meant the +++ file (as aider reads it)
    if not hunks and old == new:
        raise PatchError(
            f"the diff for {new!r} has no hunk with a '-' or '+' line.",
            line=raw.line,
            hint="Give each change as an '@@' hunk of context, '-' and '+' lines.",
        )
    creates = bool(hunks) and all(hunk.is_addition for hunk in hunks)
    return FileOperation(
        "update",
        old,
        raw.line,
        hunks=tuple(hunks),
        move_to=new if new != old else None,
        creates_if_missing=creates,
    )


def _hunk(raw: _RawHunk) -> Hunk | None:
    lines = list(raw.lines)
    while lines and not lines[-1][1].strip() and not lines[-1][1].startswith(" "):
        lines.pop()  # blank lines ending a hunk separate it from what follows
    before: list[str] = []
    after: list[str] = []
    changed = False
    for _, line in lines:
        if not line.strip() and line[:1] not in ("+", "-"):
            before.append("")  # a blank context line (its leading space often lost)
            after.append("")
        elif line[0] == " ":
            before.append(line[1:])
            after.append(line[1:])
        elif line[0] == "-":
            before.append(line[1:])
            changed = True
        else:
            after.append(line[1:])
            changed = True
    if not changed:
        return None  # only context: nothing to do (aider drops these too)
    anchors = (raw.heading,) if raw.heading else ()
    return Hunk(join_lines(before), join_lines(after), raw.line, anchors, False, raw.hint_line)
