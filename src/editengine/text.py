"""Text style helpers: BOM, line endings, indentation, line numbers.

Matching always happens on LF-normalised text without a BOM; :class:`NormalizedText`
remembers how to map offsets back and how to write replacement text in the file's style.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

BOM = "\ufeff"


def split_bom(text: str) -> tuple[str, str]:
    """``(bom, rest)``: the UTF-8 BOM a decoded file may start with, and the text after it."""
    if text.startswith(BOM):
        return BOM, text[1:]
    return "", text


def to_lf(text: str) -> str:
    return text.replace("\r\n", "\n") if "\r" in text else text


def dominant_newline(text: str) -> str:
    """``"\\r\\n"`` when most line breaks are CRLF, else ``"\\n"``."""
    crlf = text.count("\r\n")
    if not crlf:
        return "\n"
    return "\r\n" if crlf * 2 >= text.count("\n") else "\n"


@dataclass
class NormalizedText:
    """A file's text as matched (LF, no BOM) with what it needs to restore its style."""

    original: str
    bom: str
    text: str
    newline: str
    # Offsets in ``text`` of every "\n" that was "\r\n" in the original.
    _crlf_positions: list[int] = field(default_factory=list, repr=False)

    @classmethod
    def of(cls, original: str) -> NormalizedText:
        bom, body = split_bom(original)
        if "\r\n" not in body:
            return cls(original, bom, body, "\n")
        newline = dominant_newline(body)
        positions: list[int] = []
        pieces = body.split("\r\n")
        offset = 0
        for piece in pieces[:-1]:
            offset += len(piece)
            positions.append(offset)
            offset += 1
        return cls(original, bom, "\n".join(pieces), newline, positions)

    def original_offset(self, offset: int) -> int:
        """Where LF-text offset ``offset`` lies in the original (BOM included)."""
        shift = bisect.bisect_left(self._crlf_positions, offset) if self._crlf_positions else 0
        return len(self.bom) + offset + shift

    def styled(self, replacement: str) -> str:
        """``replacement`` (LF) written with the file's line endings."""
        if self.newline == "\n":
            return replacement
        return replacement.replace("\n", self.newline)

    def splice(self, spans: list[tuple[int, int, str]]) -> str:
        """Replace ``(start, end, text)`` spans of the LF text inside the original text.

        Everything outside the spans is copied byte for byte from the original, so a
        mixed-ending file keeps every line ending it had.
        """
        out: list[str] = []
        cursor = 0
        for start, end, text in sorted(spans, key=lambda span: span[0]):
            original_start = self.original_offset(start)
            out.append(self.original[cursor:original_start])
            out.append(self.styled(text))
            cursor = self.original_offset(end)
        out.append(self.original[cursor:])
        return "".join(out)


class LineIndex:
    """1-based line numbers for offsets of one text, computed once."""

    def __init__(self, text: str) -> None:
        self._starts = [0]
        position = text.find("\n")
        while position != -1:
            self._starts.append(position + 1)
            position = text.find("\n", position + 1)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def span_lines(self, start: int, end: int) -> tuple[int, int]:
        """First and last line touched by ``[start, end)`` (an empty span touches one line)."""
        last = end - 1 if end > start else start
        return self.line_of(start), self.line_of(last)


def leading_whitespace(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]
