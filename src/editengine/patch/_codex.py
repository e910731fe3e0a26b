"""Parser for the ``apply_patch`` format (OpenAI Codex; OpenCode follows it).

::

    *** Begin Patch
    *** Add File: path            + lines
    *** Delete File: path
    *** Update File: path
    *** Move to: new/path         (optional)
    @@ class Foo                  (optional context anchor; the first chunk may omit @@)
     context
    -removed
    +added
    *** End of File               (optional: the chunk ends the file)
    *** End Patch

Marker lines are compared trimmed, so padded markers pass; a patch wrapped in a shell
heredoc (``cat <<'EOF'`` ... ``EOF``) or a Markdown fence is unwrapped. A completely empty
line inside a chunk is an empty context line (the applier retries without trailing ones).
"""

from __future__ import annotations

import re

from editengine._errors import PatchError
from editengine.patch._model import FileOperation, Hunk, Patch, join_lines, split_patch_lines

BEGIN = "*** Begin Patch"
END = "*** End Patch"
ADD = "*** Add File:"
DELETE = "*** Delete File:"
UPDATE = "*** Update File:"
MOVE = "*** Move to:"
END_OF_FILE = "*** End of File"

_HEREDOC = re.compile(r"""^(?:cat\s+)?<<-?\s*(['"]?)(\w+)\1\s*$""")
_EXPECTED_LINE = (
    "Every line of an Update File chunk starts with ' ' (context), '-' (removed) or "
    "'+' (added); '@@' starts a new chunk."
)


def parse(text: str) -> Patch:
    """The file operations of an ``apply_patch`` patch; :class:`PatchError` names the line."""
    lines = split_patch_lines(text)
    begin, end = _envelope(lines)
    return Patch("apply_patch", tuple(_Parser(lines, begin + 1, end).operations()))


def _envelope(lines: list[str]) -> tuple[int, int]:
    """Indexes of the Begin and End Patch lines (heredoc and fence lines around are skipped)."""
    begin = next((i for i, line in enumerate(lines) if line.strip() == BEGIN), None)
    if begin is None:
        first = next((i for i, line in enumerate(lines) if line.strip()), 0)
        raise PatchError(
            f"expected '{BEGIN}' as the first line, found {_show(lines[first])}.",
            line=first + 1,
            hint=f"Wrap the file operations in '{BEGIN}' ... '{END}'.",
        )
    for prefix_line in lines[:begin]:
        stripped = prefix_line.strip()
        if stripped and not (_HEREDOC.match(stripped) or stripped.startswith("```")):
            raise PatchError(
                f"unexpected text before '{BEGIN}': {_show(prefix_line)}.",
                line=lines.index(prefix_line) + 1,
                hint=f"Send only the patch, starting with '{BEGIN}'.",
            )
    # The last End Patch line: a file's content may quote the marker.
    end = next((i for i in range(len(lines) - 1, begin, -1) if lines[i].strip() == END), None)
    if end is None:
        raise PatchError(
            f"expected '{END}' after the last file operation; the patch ends without it "
            "(was it cut short?).",
            line=len(lines),
            hint=f"Send the whole patch, ending with '{END}'.",
        )
    return begin, end


class _Parser:
    def __init__(self, lines: list[str], start: int, end: int) -> None:
        self.lines = lines
        self.i = start
        self.end = end

    def operations(self) -> list[FileOperation]:
        operations: list[FileOperation] = []
        while self.i < self.end:
            raw = self.lines[self.i]
            header = raw.strip()
            if not header:
                self.i += 1
                continue
            number = self.i + 1
            if header.startswith(ADD):
                operations.append(self._add(_path(header, ADD, number), number))
            elif header.startswith(DELETE):
                self.i += 1
                operations.append(FileOperation("delete", _path(header, DELETE, number), number))
            elif header.startswith(UPDATE):
                operations.append(self._update(_path(header, UPDATE, number), number))
            else:
                raise PatchError(
                    f"{_show(raw)} is not a valid file operation header.",
                    line=number,
                    hint=f"Expected '{ADD} <path>', '{DELETE} <path>', '{UPDATE} <path>' "
                    f"or '{END}'.",
                )
        if not operations:
            raise PatchError(
                "the patch holds no file operation; no files were modified.",
                line=self.end + 1,
                hint=f"Add at least one '{ADD}', '{DELETE}' or '{UPDATE}' section.",
            )
        return operations

    def _add(self, path: str, number: int) -> FileOperation:
        self.i += 1
        body: list[str] = []
        while self.i < self.end and self.lines[self.i].startswith("+"):
            body.append(self.lines[self.i][1:])
            self.i += 1
        return FileOperation("add", path, number, content=join_lines(body))

    def _update(self, path: str, number: int) -> FileOperation:
        self.i += 1
        move_to = None
        if self.i < self.end and self.lines[self.i].strip().startswith(MOVE):
            move_to = _path(self.lines[self.i].strip(), MOVE, self.i + 1)
            self.i += 1
        hunks: list[Hunk] = []
        while self.i < self.end:
            line = self.lines[self.i]
            stripped = line.strip()
            if not stripped and not hunks:
                self.i += 1
                continue
            if stripped.startswith("***") and stripped != END_OF_FILE:
                break  # the next file operation
            if not stripped and self._blank_run_ends_file():
                self.i += 1
                continue
            hunks.append(self._chunk(first=not hunks))
        if not hunks:
            raise PatchError(
                f"the Update File section for {path!r} has no change in it.",
                line=number,
                hint="Follow the header with '@@' and context/'-'/'+' lines, or remove it.",
            )
        return FileOperation("update", path, number, hunks=tuple(hunks), move_to=move_to)

    def _blank_run_ends_file(self) -> bool:
        """Blank lines followed by a header or the end: between sections, not context."""
        j = self.i
        while j < self.end and not self.lines[j].strip():
            j += 1
        return j >= self.end or self.lines[j].strip().startswith("***")

    def _chunk(self, *, first: bool) -> Hunk:
        start = self.i + 1
        anchors: list[str] = []
        while self.i < self.end and self.lines[self.i].strip().startswith("@@"):
            text = self.lines[self.i].strip()[2:].strip()
            if text:
                anchors.append(text)
            self.i += 1
        if not anchors and self.i == start - 1 and not first:
            raise PatchError(
                f"expected '@@' to start the next chunk, found {_show(self.lines[self.i])}.",
                line=start,
                hint=_EXPECTED_LINE,
            )
        before: list[str] = []
        after: list[str] = []
        changed = 0
        at_end = False
        while self.i < self.end:
            line = self.lines[self.i]
            stripped = line.strip()
            if stripped == END_OF_FILE:
                at_end = True
                self.i += 1
                break
            if line.startswith("@@") or (stripped.startswith("@@") and line[:1] not in " +-"):
                break
            if stripped.startswith("***") and line[:1] not in " +-":
                break
            if line == "":
                before.append("")
                after.append("")
            elif line[0] == " ":
                before.append(line[1:])
                after.append(line[1:])
            elif line[0] == "-":
                before.append(line[1:])
                changed += 1
            elif line[0] == "+":
                after.append(line[1:])
                changed += 1
            elif not before and not after:
                raise PatchError(f"unexpected line {_show(line)}.", line=self.i + 1,
                                 hint=_EXPECTED_LINE)  # fmt: skip
            else:
                raise PatchError(
                    f"unexpected line {_show(line)} inside a chunk.",
                    line=self.i + 1,
                    hint=_EXPECTED_LINE + " Begin context lines with a space.",
                )
            self.i += 1
        if not before and not after:
            raise PatchError(
                "a chunk has no lines.",
                line=start,
                hint="Give the chunk's context, '-' and '+' lines after '@@'.",
            )
        if not changed and not at_end:
            raise PatchError(
                "a chunk has only context lines and changes nothing.",
                line=start,
                hint="Mark removed lines with '-' and added lines with '+'.",
            )
        return Hunk(join_lines(before), join_lines(after), start, tuple(anchors), at_end)


def _path(header: str, marker: str, number: int) -> str:
    path = header[len(marker) :].strip()
    if not path:
        raise PatchError(f"'{marker}' needs a path after it.", line=number)
    return path


def _show(line: str) -> str:
    text = line if len(line) <= 80 else line[:77] + "..."
    return repr(text)
