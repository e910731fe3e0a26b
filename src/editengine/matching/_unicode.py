"""Unicode punctuation tier: curly quotes, dashes and non-breaking spaces."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, count
from operator import not_
from typing import ClassVar

from rapidfuzz.distance import Indel

from editengine._text import ascii_punctuation, has_typographic_punctuation
from editengine.matching import _search as search
from editengine.matching._base import Match, refuse_past_max_places
from editengine.matching._lines import (
    LineBlock,
    LineView,
    OldLines,
    find_line_blocks,
    line_view,
    may_hold_the_words_of,
)


def _punctuation_key(line: str) -> str:
    return ascii_punctuation(line).strip()


class UnicodePunctuationTier:
    """Forgives typographic punctuation on either side: ``“x”`` for ``"x"``, ``–`` for ``-``.

    Both texts are compared with ASCII punctuation (offsets are unchanged: every mapping is
    one character to one). Typographic characters the model typed but the file never uses
    are turned back into ASCII in new_string too. When that finds nothing, an em dash or
    ellipsis the file never uses is read as ``--`` or ``...`` and the search runs again.
    """

    name: ClassVar[str] = "unicode_punctuation"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        if not old:
            return []  # an empty quote stands everywhere: no place, and no endless search
        found = self._find_one_for_one(content, old)
        if found:
            return found
        spelled = {char: ascii for char, ascii in SPELLED_OUT.items() if char in old}
        spelled = {char: ascii for char, ascii in spelled.items() if char not in content}
        if not spelled:
            return []
        # An em dash or ellipsis the file writes as ``--`` or ``...``: offsets move, so the
        # quote is spelled out first and searched again, and new_string is spelled alike.
        table = str.maketrans(spelled)
        return [
            _spelled_alike(match, table)
            for match in self._find_one_for_one(content, old.translate(table), spelled=True)
        ]

    def _find_one_for_one(self, content: str, old: str, *, spelled: bool = False) -> list[Match]:
        typographic = has_typographic_punctuation(old) or has_typographic_punctuation(content)
        if not (typographic or spelled):
            return []
        foreign = {
            char: ascii_punctuation(char)
            for char in set(old)
            if has_typographic_punctuation(char) and char not in content
        }
        table = str.maketrans(foreign)

        def transform(new: str) -> str:
            return new.translate(table) if foreign else new

        # Typography is never a word character: the quote's words stand in the file as
        # they are, wherever it matches, on one offset or line for line.
        if not may_hold_the_words_of(content, old):
            return []
        plain_old = ascii_punctuation(old)
        plain_content = _plain_text(line_view(content))
        matches: list[Match] = []
        position = search.find(plain_content, plain_old)
        while position != -1:
            end = position + len(plain_old)
            region = content[position:end]
            matches.append(
                Match(
                    position,
                    end,
                    1.0,
                    _keeping_typography(transform, old, region),
                )
            )
            position = search.find(plain_content, plain_old, end)
        if matches:
            return matches
        return _line_blocks(content, plain_content, old, transform)


def _plain_text(view: LineView) -> str:
    """The view's text with ASCII punctuation: what ``ascii_punctuation`` makes of it.

    Only the lines that are not ASCII are mapped (a few hundred in 100,000 lines of code),
    from the lines the view has already split: a regex pass over every character of the
    file costs several times more. Kept in the view's memo, since the already-applied check
    maps the same file again for new_string.
    """
    memo_key = ("ascii_punctuation",)
    if memo_key not in view.memo:
        lines = view.lines
        foreign = list(compress(count(), map(not_, map(str.isascii, lines))))
        if foreign:
            mapped = list(lines)
            for number in foreign:
                mapped[number] = ascii_punctuation(lines[number])
            view.memo[memo_key] = "\n".join(mapped)
        else:
            view.memo[memo_key] = view.text
    return view.memo[memo_key]  # type: ignore[return-value]  # the memo holds a str under this key


def _line_blocks(
    content: str, plain_content: str, old: str, transform: Callable[[str], str]
) -> list[Match]:
    """Runs of whole lines equal to old_string's lines once both are ASCII and stripped.

    The runs are found in the translated text with the ``str.find`` anchors of the
    line-trimmed tier (same lines, same offsets: the mapping is one character for one),
    instead of translating and keying each of the file's lines.
    """
    old_lines = OldLines.of(old)
    old_keys = [_punctuation_key(line) for line in old_lines.lines]
    view = line_view(content)
    firsts = find_line_blocks(view, old_keys, _punctuation_key, translated=plain_content)
    refuse_past_max_places(UnicodePunctuationTier.name, firsts, len(old_keys))
    return [
        LineBlock(
            view, first, len(old_keys), old_lines, _punctuation_key, fix_line=_fix_line
        ).to_match(transform)
        for first in firsts
    ]


# Typographic characters that ASCII text writes with more than one character.
SPELLED_OUT = {"\u2014": "--", "\u2026": "..."}


def _spelled_alike(match: Match, table: dict[int, str]) -> Match:
    inner = match.rewrite

    def rewrite(new: str) -> str:
        spelled = new.translate(table)
        return inner(spelled) if inner else spelled

    return Match(match.start, match.end, match.similarity, rewrite, match.verbatim)


def _fix_line(new_line: str, old_line: str, file_line: str) -> str:
    indent = new_line[: len(new_line) - len(new_line.lstrip())]
    return indent + keep_typography(new_line.strip(), old_line.strip(), file_line.strip())


def keep_typography(new: str, old: str, file_text: str) -> str:
    """new_string with the file's typography where it repeats what old_string quoted.

    ``old`` and ``file_text`` are the same text up to punctuation (one character for one),
    so every character new_string copied from old_string can be taken from the file.
    """
    if len(old) != len(file_text) or old == file_text:
        return new
    # An edit changes a stretch: what new_string kept before and after it is aligned at
    # once, and only the stretch between is aligned character by character (in C).
    head = _common_prefix_length(old, new)
    tail = _common_prefix_length(old[head:][::-1], new[head:][::-1])
    out = list(new)
    out[:head] = file_text[:head]
    if tail:
        out[len(new) - tail :] = file_text[len(old) - tail :]
    for op in Indel.opcodes(old[head : len(old) - tail], new[head : len(new) - tail]):
        if op.tag == "equal":
            out[head + op.dest_start : head + op.dest_end] = file_text[
                head + op.src_start : head + op.src_end
            ]
    return "".join(out)


def _common_prefix_length(a: str, b: str) -> int:
    """Length of the longest common prefix, by halving: slices compare in C."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _keeping_typography(
    transform: Callable[[str], str], old: str, region: str
) -> Callable[[str], str]:
    """new_string's rewrite for one matched region: the region's own typography kept."""
    return lambda new: keep_typography(transform(new), transform(old), region)
