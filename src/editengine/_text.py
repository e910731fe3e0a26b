"""Text style helpers: BOM, line endings, indentation, line numbers.

Matching always happens on LF-normalised text without a BOM; :class:`NormalizedText`
remembers how to map offsets back and how to write replacement text in the file's style.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

BOM = "\ufeff"


def split_bom(text: str) -> tuple[str, str]:
    """``(bom, rest)``: the UTF-8 BOM a decoded file may start with, and the text after it."""
    if text.startswith(BOM):
        return BOM, text[1:]
    return "", text


def to_lf(text: str) -> str:
    """Every line break as ``"\\n"``: CRLF, and a lone CR (old Mac files) too."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def dominant_newline(text: str) -> str:
    """The file's most frequent line break: ``"\\r\\n"``, ``"\\n"`` or a lone ``"\\r"``.

    Ties go to CRLF, then LF.
    """
    crlf = text.count("\r\n")
    lone_cr = text.count("\r") - crlf
    if not crlf and not lone_cr:
        return "\n"
    lf = text.count("\n") - crlf
    if lone_cr > crlf and lone_cr > lf:
        return "\r"
    return "\r\n" if crlf >= lf else "\n"


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
        if "\r" not in body:  # one-character search is much faster
            return cls(original, bom, body, "\n")
        newline = dominant_newline(body)
        positions: list[int] = []
        pieces = body.split("\r\n")
        offset = 0
        for piece in pieces[:-1]:
            offset += len(piece)
            positions.append(offset)
            offset += 1
        # A lone CR is a line break too (matched as LF, one character for one, so offsets
        # need no shift); the original's CRs are copied back by ``splice``.
        text = "\n".join(pieces)
        if "\r" in text:
            text = text.replace("\r", "\n")
        return cls(original, bom, text, newline, positions)

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
        if len(spans) == 1:
            # Two slices and one join: searching the file for the span's text again (to use
            # str.replace) cost two more scans of it, slow ones for a long span.
            start, end, text = spans[0]
            original_start, original_end = self.original_offset(start), self.original_offset(end)
            return "".join(
                (self.original[:original_start], self.styled(text), self.original[original_end:])
            )
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
    """1-based line numbers for offsets of one text.

    Offsets are usually asked for in increasing order (spans of one edit), so counting
    newlines onward from the last answer keeps a whole edit linear and in C.
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._offset = 0
        self._line = 1

    def line_of(self, offset: int) -> int:
        if offset < self._offset:
            # Step back from the last answer, not from the start: overlapping spans go back
            # a little each time, and restarting made thousands of them quadratic.
            self._line -= self._text.count("\n", offset, self._offset)
        else:
            self._line += self._text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line

    def span_lines(self, start: int, end: int) -> tuple[int, int]:
        """First and last line touched by ``[start, end)`` (an empty span touches one line)."""
        last = end - 1 if end > start else start
        return self.line_of(start), self.line_of(last)


def leading_whitespace(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def indent_width(whitespace: str, tab_width: int = 4) -> int:
    """Columns of a run of leading whitespace, tabs advancing to the next tab stop."""
    column = 0
    for char in whitespace:
        column = column + tab_width - column % tab_width if char == "\t" else column + 1
    return column


# Typographic characters a model (or a word processor) puts where code has ASCII. Every entry
# maps one character to one character, so offsets in the translated text equal the original's.
_PUNCTUATION = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-",
    "\u2212": "-",
    "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2009": " ", "\u200a": " ", "\u2002": " ",
    "\u2003": " ", "\u3000": " ",
}  # fmt: skip


_TYPOGRAPHIC = re.compile("[" + "".join(_PUNCTUATION) + "]")


def ascii_punctuation(text: str) -> str:
    """Curly quotes, dashes and exotic spaces replaced by ASCII, length preserved."""
    if text.isascii():
        return text
    # str.translate looks every character up in a dict: 270 ms on a 100,000-line file.
    # The regex scans in C and calls back only for the (rare) typographic characters.
    return _TYPOGRAPHIC.sub(_ascii_of, text)


def _ascii_of(found: re.Match[str]) -> str:
    return _PUNCTUATION[found.group()]


def has_typographic_punctuation(text: str) -> bool:
    return _TYPOGRAPHIC.search(text) is not None


_ONE_LEVEL_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    '"': '"',
    "'": "'",
    "\\": "\\",
    "`": "`",
    "$": "$",
}


def unescape_once(text: str) -> str:
    """Undo one level of string escaping, as when a model JSON-escapes its text twice.

    ``\\\\n`` becomes a newline and ``\\\\\\\\n`` a literal backslash-n, so source code that
    really contains escape sequences survives.
    """
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    length = len(text)
    while index < length:
        char = text[index]
        if char == "\\" and index + 1 < length and text[index + 1] in _ONE_LEVEL_ESCAPES:
            out.append(_ONE_LEVEL_ESCAPES[text[index + 1]])
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


def unescape_greedy(text: str) -> str:
    """Collapse any run of backslashes before an escapable character into that character."""
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    length = len(text)
    while index < length:
        if text[index] == "\\":
            end = index
            while end < length and text[end] == "\\":
                end += 1
            if end < length and text[end] in "ntr\"'`$\n":
                out.append(_ONE_LEVEL_ESCAPES.get(text[end], text[end]))
                index = end + 1
                continue
            out.append(text[index:end])
            index = end
            continue
        out.append(text[index])
        index += 1
    return "".join(out)
