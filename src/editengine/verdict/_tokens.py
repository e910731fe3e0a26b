"""Tokens and hunks: what the verdict compares.

Texts are read as words and single punctuation marks; spacing does not count. Two token
lists differ in :class:`Hunk` s (:func:`hunks`), the unit every later step works in. A
request that cannot be placed mechanically raises :class:`CannotCarry`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

_TOKEN = re.compile(r"\w+|[^\w\s]")


_NAME = re.compile(r"[^\W\d]\w*")


# Literal words a misquote may "rename" that are values, not names: carrying a True -> False
# misquote into inserted text would change what the agent's code does.
_LITERALS = frozenset({"True", "False", "None", "true", "false", "null", "nil", "undefined"})


class CannotCarry(Exception):
    """The request cannot be placed on the search mechanically; ``str()`` says why."""


class NotQuoted(CannotCarry):
    """The requested change falls on text of old_string the search does not quote at all:
    no search text can stand for it, whatever the fixer's replace says."""


@dataclass(frozen=True)
class Hunk:
    """``a[src_start:src_end]`` becomes ``b[dest_start:dest_end]`` (token indices)."""

    src_start: int
    src_end: int
    dest_start: int
    dest_end: int


@dataclass(frozen=True)
class Tokens:
    """A text's tokens and where each one stands in it."""

    text: str
    words: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> Tokens:
        found = list(_TOKEN.finditer(text))
        return cls(
            text,
            tuple(m.group() for m in found),
            tuple(m.start() for m in found),
            tuple(m.end() for m in found),
        )

    def gap_start(self, index: int) -> int:
        """Where the text before token ``index`` begins: just after the token before it."""
        return self.ends[index - 1] if index > 0 else 0

    def gap_end(self, index: int) -> int:
        """Where token ``index`` begins (the text's end after the last token)."""
        return self.starts[index] if index < len(self.words) else len(self.text)


def token_list(text: str) -> list[str]:
    return _TOKEN.findall(text)


def same_tokens(a: str, b: str) -> bool:
    return token_list(a) == token_list(b)


def hunks(a: Sequence[str], b: Sequence[str]) -> list[Hunk]:
    """The changes from ``a`` to ``b`` (a longest-common-subsequence alignment); a deletion
    next to an insertion is one hunk, a replacement."""
    out: list[Hunk] = []
    run: list[int] | None = None
    for op in Indel.opcodes(list(a), list(b)):
        if op.tag == "equal":
            if run is not None:
                out.append(Hunk(*run))
                run = None
        elif run is None:
            run = [op.src_start, op.src_end, op.dest_start, op.dest_end]
        else:
            run[1], run[3] = op.src_end, op.dest_end
    if run is not None:
        out.append(Hunk(*run))
    return out


def begins_line(tokens: Tokens, index: int) -> bool:
    return "\n" in tokens.text[tokens.gap_start(index) : tokens.gap_end(index)]


def token_line_starts(tokens: Tokens) -> list[int]:
    """Indices of the tokens that begin a line (after the first)."""
    return [i for i in range(1, len(tokens.words)) if begins_line(tokens, i)]


def token_code(word: str, codes: dict[str, str]) -> str:
    """One character per distinct token, so strings of them align token by token."""
    if word not in codes:
        number = len(codes)
        codes[word] = chr(0xE000 + number) if number < 6400 else chr(0xF0000 + number - 6400)
    return codes[word]


def is_name(word: str) -> bool:
    return bool(_NAME.fullmatch(word)) and word not in _LITERALS
