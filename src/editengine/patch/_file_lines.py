"""A file's lines as a hunk's search sees them: offsets, anchors and blocks.

Lines end at CRLF, LF or a lone CR, as the cascade reads them; the text keeps its own
endings. An ``@@`` anchor is found line by line, exactly first, then loosely (spacing and
typographic punctuation aside), and its block ends where the indentation falls back.
"""

from __future__ import annotations

import re

from editengine._text import ascii_punctuation, to_lf


class FileLines:
    """A text's lines (ending at ``\\n``; the text keeps its own endings), found lazily."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.count = line_count(text)
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            starts = [0, *(m.end() for m in _NEWLINE.finditer(self.text))]
            self._starts = starts[: self.count]
        return self._starts

    def offset(self, line: int) -> int:
        return self.starts[line] if line < self.count else len(self.text)

    def line(self, index: int) -> str:
        return self.text[self.offset(index) : self.offset(index + 1)].rstrip("\r\n")

    def find_anchor(self, anchors: tuple[str, ...], cursor: int) -> int | None:
        """The line of the last anchor, each sought after the previous one (from the
        cursor first, then from the top)."""
        position: int | None = None
        for anchor in anchors:
            start = 0 if position is None else position + 1
            found = None
            if position is None and cursor > 0:
                found = self._find_line(anchor, cursor)
            if found is None:
                found = self._find_line(anchor, start)
            if found is None:
                return None
            position = found
        return position

    def _find_line(self, anchor: str, start: int) -> int | None:
        wanted = loose_line(anchor)
        if not wanted:
            return None
        candidates = range(start, self.count)
        for index in candidates:
            if loose_line(self.line(index)) == wanted:
                return index
        for index in candidates:
            if len(wanted) >= 8 and loose_line(self.line(index)).startswith(wanted):
                return index
        return None

    def block_end(self, anchor: int) -> int:
        """The line after the anchor's block: the first non-blank line indented no deeper
        than the anchor (a closing bracket at the anchor's depth still belongs to it)."""
        depth = indent_width(self.line(anchor))
        for index in range(anchor + 1, self.count):
            line = self.line(index)
            if not line.strip():
                continue
            if indent_width(line) <= depth:
                return index + 1 if line.strip()[0] in ")]}" else index
        return self.count

    def trailing_blank_lines(self) -> int:
        count = 0
        for index in range(self.count - 1, -1, -1):
            if self.line(index).strip():
                break
            count += 1
        return count


# A line ends at CRLF, LF or a lone CR, as the cascade reads lines (text.to_lf).
_NEWLINE = re.compile("\r\n|\r|\n")


def loose_line(line: str) -> str:
    return " ".join(ascii_punctuation(line).split())


def indent_width(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def line_count(text: str) -> int:
    """Lines of ``text``: a final line without its newline counts."""
    if not text:
        return 0
    text = to_lf(text)
    return text.count("\n") + (0 if text.endswith("\n") else 1)
