"""Parser for SEARCH/REPLACE blocks (aider's "diff" edit format).

::

    path/to/file.py
    ```python
    <<<<<<< SEARCH
    old lines
    =======
    new lines
    >>>>>>> REPLACE
    ```

The file path is the nearest of the (up to three) lines above the block, walking up only
across fence lines; a block without one inherits the previous block's path. Markers are
5-9 characters (``<<<<<<< SEARCH``, ``=======``, ``>>>>>>> REPLACE``), compared stripped;
a second ``=======`` may also close the block. Prose and fences around blocks are ignored.
An empty SEARCH appends REPLACE to the file, creating it if needed.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection

from editengine._errors import PatchError
from editengine.patch._model import FileOperation, Hunk, Patch, join_lines, split_patch_lines

HEAD = re.compile(r"^<{5,9} SEARCH>?\s*$")
DIVIDER = re.compile(r"^={5,9}\s*$")
UPDATED = re.compile(r"^>{5,9} REPLACE\s*$")
FENCE = "```"
_LABEL = re.compile(r"^(?:file|path|filename|file name)\s*:\s*(\S.*)$", re.IGNORECASE)


def parse(text: str, *, known_paths: Collection[str] = ()) -> Patch:
    """The file operations of SEARCH/REPLACE blocks; :class:`PatchError` names the line.

    ``known_paths`` (the files the answer is about) lets a path written as a bare file
    name find its file, as aider does; an empty SEARCH keeps its path as written.
    """
    lines = split_patch_lines(text)
    blocks: list[tuple[str, Hunk]] = []
    path: str | None = None
    i = 0
    while i < len(lines):
        if not HEAD.match(lines[i].strip()):
            i += 1
            continue
        head = i + 1
        named = _find_path(lines[max(0, i - 3) : i])
        if named is not None:
            path = named
        if path is None:
            raise PatchError(
                "Bad/missing filename: the SEARCH block has no file path above it.",
                line=head,
                hint="Put the file's path alone on the line before the block (or its fence).",
            )
        search, i = _section(lines, i + 1, head, DIVIDER, "=======")
        replace, i = _section(lines, i + 1, head, DIVIDER, ">>>>>>> REPLACE` or `=======", UPDATED)
        i += 1
        search = _unwrap(search, path)
        replace = _unwrap(replace, path)
        before, after = join_lines(search), join_lines(replace)
        target = path if not before else _known(path, known_paths)
        blocks.append((target, Hunk(before, after, head)))
    if not blocks:
        raise PatchError(
            "no SEARCH/REPLACE block found.",
            line=1,
            hint="Write each edit as: the file path, '<<<<<<< SEARCH', the exact lines to "
            "change, '=======', the new lines, '>>>>>>> REPLACE'.",
        )
    return Patch("search_replace", tuple(_operations(blocks)))


def _section(
    lines: list[str],
    start: int,
    head: int,
    closer: re.Pattern[str],
    expected: str,
    other: re.Pattern[str] | None = None,
) -> tuple[list[str], int]:
    """Lines from ``start`` up to the closing marker, and the marker's index."""
    body: list[str] = []
    i = start
    while i < len(lines):
        stripped = lines[i].strip()
        if closer.match(stripped) or (other is not None and other.match(stripped)):
            return body, i
        if HEAD.match(stripped) or (other is None and UPDATED.match(stripped)):
            break
        body.append(lines[i])
        i += 1
    last = len(lines) - 1 if lines[-1] == "" and len(lines) > 1 else len(lines)
    at = min(i + 1, last)  # the line where the marker was due (the last line at the end)
    raise PatchError(
        f"Expected `{expected}` to continue the block that starts at line {head}.",
        line=at,
        hint="Close every block: '<<<<<<< SEARCH', old lines, '=======', new lines, "
        "'>>>>>>> REPLACE'.",
    )


def _find_path(above: list[str]) -> str | None:
    """The path on the nearest line above a block, walking up only across fence lines."""
    for line in reversed(above):
        candidate = _path_of(line)
        if candidate:
            return candidate
        if not line.strip().startswith(FENCE):
            return None
    return None


def _path_of(line: str) -> str | None:
    text = line.strip()
    if not text or text == "...":
        return None
    if text.startswith(FENCE):
        rest = text.lstrip("`").strip()
        return rest if rest and ("." in rest or "/" in rest) else None
    text = text.rstrip(":").lstrip("#").strip()
    quoted = len(text) > 2 and text[0] == text[-1] == "`"  # `my file.py`: a name as written
    text = text.strip("`*").strip()
    labelled = _LABEL.match(text)
    if labelled:
        text = labelled.group(1).strip().strip("`*").strip()
    if not text or (any(c.isspace() for c in text) and not (quoted or labelled)):
        # A path line is a path and nothing else: "Add this at the end of src/app.py:" is
        # prose that names one, not a folder "Add this at the end of src".
        return None
    return text


def _unwrap(lines: list[str], path: str) -> list[str]:
    """Drop a copied file-path line or a fence the model put inside the block."""
    if lines and lines[0].strip() in (path, posixpath.basename(path)) and len(lines) > 1:
        lines = lines[1:]
    if len(lines) >= 2 and lines[0].startswith(FENCE) and lines[-1].strip() == FENCE:
        lines = lines[1:-1]
    return lines


def _known(path: str, known: Collection[str]) -> str:
    """``path`` itself when it is a known file (or unknown to all); else the one known file
    with that name."""
    if not known or path in known:
        return path
    same_name = [p for p in known if posixpath.basename(p) == posixpath.basename(path)]
    return same_name[0] if len(same_name) == 1 else path


def _operations(blocks: list[tuple[str, Hunk]]) -> list[FileOperation]:
    """Blocks grouped by file, files in order of first mention, blocks in order."""
    grouped: dict[str, list[Hunk]] = {}
    for path, hunk in blocks:
        grouped.setdefault(path, []).append(hunk)
    return [
        FileOperation(
            "update",
            path,
            hunks[0].line,
            hunks=tuple(hunks),
            creates_if_missing=hunks[0].is_addition,
        )
        for path, hunks in grouped.items()
    ]
