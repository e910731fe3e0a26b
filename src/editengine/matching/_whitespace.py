"""Whitespace-normalised tier: the same tokens with different spacing or line breaks.

Why one long module: finding the places (walks from a rare token, or one search over the
squeezed file), deciding whether a place may be cut mid-line, and writing new_string over
moved line breaks are the three halves of one rule — any spacing between the same tokens —
and each reads the others' assumptions.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import pairwise
from typing import ClassVar

from editengine._results import Region
from editengine._text import indent_width, leading_whitespace
from editengine.matching._base import (
    MAX_PLACES,
    NAMED_PLACES,
    DoubtfulMatch,
    Match,
    TooManyPlaces,
)
from editengine.matching._lines import (
    LineBlock,
    LineView,
    OldLines,
    line_view,
    may_hold_the_words_of,
    without_blank_edges,
)

_TOKEN = re.compile(r"\w+|[^\w\s]")
_SPACE = re.compile(r"[ \t\r\n\f\v]*")
_SPACE_RUN = re.compile(r"[ \t\r\n\f\v]+")
_SPACE_CHARS = frozenset(" \t\r\n\f\v")
# After a mid-line match these characters mean the expression goes on.
_CONTINUES = frozenset("([.")


def token_key(line: str) -> str:
    return " ".join(_TOKEN.findall(line))


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


class WhitespaceTier:
    """Forgives spacing: ``f(a,b)`` for ``f(a, b)``, ``x=1`` for ``x = 1``, moved line breaks.

    old_string is read as tokens (words and single punctuation marks); between tokens any
    run of whitespace matches any other, and two words must stay apart. Matching walks the
    file from each occurrence of the first token, so there is no regex backtracking and the
    cost stays linear in the file.
    """

    name: ClassVar[str] = "whitespace"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        return self._places(content, old)[0]

    def cut_places(self, content: str, old: str) -> list[Match]:
        """Where old_string's tokens also stand but inside a longer expression: no place to
        edit, yet replacing every *other* occurrence would be a partial ``replace_all``."""
        return self._places(content, old)[1]

    def _places(self, content: str, old: str) -> tuple[list[Match], list[Match]]:
        tokens = _TOKEN.findall(old)
        if len(tokens) < 2:
            return [], []
        # Each token stands in the file wherever the quote does: one missing (a typo) rules
        # out every place, before walking from thousands of the longest token's.
        if not may_hold_the_words_of(content, old):
            return [], []
        # Walk out from the longest token: it occurs least, so few walks start at all.
        pivot = max(range(len(tokens)), key=lambda index: len(tokens[index]))
        if len(tokens[pivot]) < _SHORT_PIVOT:
            pivot = _rarest_short_token(content, tokens)
        anchor = tokens[pivot]
        places: list[tuple[int, int]] = []
        walks = 0
        position = content.find(anchor)
        while position != -1:
            walks += 1
            if walks * len(tokens) > _WALK_BUDGET:
                # One token repeated through the file ("a a a ..."): walking from each of
                # its occurrences is file length times quote length. The squeezed file
                # finds the same places in one linear search.
                places = _squeezed_places(content, tokens)
                break
            start = _walk_back(content, position, tokens[:pivot], anchor)
            end = _walk_forward(content, position, tokens[pivot:]) if start is not None else None
            if start is not None and end is not None:
                places.append((start, end))
                if len(places) > MAX_PLACES:
                    break
            position = content.find(anchor, position + 1)
        if not places:
            return [], []
        view = line_view(content)
        if len(places) > MAX_PLACES:
            raise TooManyPlaces(
                self.name,
                MAX_PLACES,
                tuple(
                    Region(view.line_of_offset(start) + 1, view.line_of_offset(end - 1) + 1)
                    for start, end in places[:NAMED_PLACES]
                ),
            )
        matches: list[Match] = []
        cut: list[Match] = []
        trimmed = without_blank_edges(old)
        for start, end in places:
            if _at_word_edges(content, start, end):
                match = _to_match(view, start, end, trimmed)
                # Overlapping places are kept: two readings of one stretch are an ambiguity.
                if match is not None:
                    matches.append(match)
                else:
                    cut.append(Match(start, end))
        return matches, cut


# Token steps the walks may take before the squeezed file is searched instead.
_WALK_BUDGET = 50_000


@dataclass(frozen=True)
class _Squeezed:
    """The file with every run of spacing taken out, or made one space where it parts two
    words: the text a quote's tokens spell whatever their spacing (see :func:`_spelled`).

    ``starts[i]`` is where piece ``i`` begins in ``text``, ``origins[i]`` where it begins in
    the file; a piece is a stretch of the file without spacing, or an inserted space.
    """

    text: str
    starts: list[int]
    origins: list[int]

    def offset(self, position: int) -> int:
        """The file offset of ``text[position]`` (never an inserted space here)."""
        piece = bisect_right(self.starts, position) - 1
        return self.origins[piece] + position - self.starts[piece]


@lru_cache(maxsize=2)
def _squeeze(content: str) -> _Squeezed:
    parts: list[str] = []
    starts: list[int] = []
    origins: list[int] = []
    length = last = 0
    for run in _SPACE_RUN.finditer(content):
        begin, stop = run.span()
        if begin > last:
            starts.append(length)
            origins.append(last)
            parts.append(content[last:begin])
            length += begin - last
            if stop < len(content) and _is_word(content[begin - 1]) and _is_word(content[stop]):
                starts.append(length)
                origins.append(begin)
                parts.append(" ")
                length += 1
        last = stop
    if last < len(content):
        starts.append(length)
        origins.append(last)
        parts.append(content[last:])
    return _Squeezed("".join(parts), starts, origins)


def _spelled(tokens: list[str]) -> str:
    """The tokens as the squeezed file spells them: a space between two words only."""
    spelled = [tokens[0]]
    for previous, token in pairwise(tokens):
        if _is_word(previous[-1]) and _is_word(token[0]):
            spelled.append(" ")
        spelled.append(token)
    return "".join(spelled)


def _squeezed_places(content: str, tokens: list[str]) -> list[tuple[int, int]]:
    """Every (start, end) where ``tokens`` follow each other with any spacing and two words
    stay apart: the places the walks find, in the same order, in linear time (one past
    :data:`MAX_PLACES` at most)."""
    squeezed = _squeeze(content)
    needle = _spelled(tokens)
    places: list[tuple[int, int]] = []
    position = squeezed.text.find(needle)
    while position != -1 and len(places) <= MAX_PLACES:
        end = squeezed.offset(position + len(needle) - 1) + 1
        places.append((squeezed.offset(position), end))
        position = squeezed.text.find(needle, position + 1)
    return places


# A quote made only of one- and two-character tokens (nested brackets, ``a[i][j]``): the
# longest says nothing about which is rare, and walking from each of thousands of ``(`` is
# file length times quote length. The few distinct tokens are counted instead.
_SHORT_PIVOT = 3
_COUNTED_TOKENS = 8


def _rarest_short_token(content: str, tokens: list[str]) -> int:
    """Index in ``tokens`` of the first occurrence of the distinct token (of the first few)
    the file holds least often."""
    first_index: dict[str, int] = {}
    for index, token in enumerate(tokens):
        first_index.setdefault(token, index)
        if len(first_index) == _COUNTED_TOKENS:
            break
    rarest = min(first_index, key=content.count)
    return first_index[rarest]


def _at_word_edges(content: str, start: int, end: int) -> bool:
    """The match neither starts nor ends inside a word of the file."""
    if start and _is_word(content[start]) and _is_word(content[start - 1]):
        return False
    return not (end < len(content) and _is_word(content[end - 1]) and _is_word(content[end]))


def _walk_forward(content: str, position: int, tokens: list[str]) -> int | None:
    """End offset when ``tokens`` follow each other from ``position`` with any spacing."""
    index = position
    previous_word = False
    for number, token in enumerate(tokens):
        if number:
            spaces = _SPACE.match(content, index)
            after_space = spaces.end() if spaces is not None else index
            if previous_word and _is_word(token[0]) and after_space == index:
                return None
            index = after_space
        if not content.startswith(token, index):
            return None
        index += len(token)
        previous_word = _is_word(token[-1])
    return index


def _walk_back(content: str, position: int, tokens: list[str], following: str) -> int | None:
    """Start offset when ``tokens`` precede ``position`` in order, with any spacing."""
    index = position
    next_word = _is_word(following[0])
    for token in reversed(tokens):
        before_space = index
        while before_space and content[before_space - 1] in _SPACE_CHARS:
            before_space -= 1
        if next_word and _is_word(token[-1]) and before_space == index:
            return None
        start = before_space - len(token)
        if start < 0 or not content.startswith(token, start):
            return None
        index = start
        next_word = _is_word(token[0])
    return index


def _to_match(
    view: LineView, start: int, end: int, trimmed: tuple[OldLines, Callable[[str], str]]
) -> Match | None:
    content = view.text
    first_line = view.line_of_offset(start)
    last_line = view.line_of_offset(end - 1)
    line_start, line_end = view.start(first_line), view.line_end(last_line)
    # Only the spacing next to the quote is looked at, never the whole line: a one-line
    # file of thousands of places must not be sliced once per place.
    blank_from = start
    while blank_from > line_start and content[blank_from - 1].isspace():
        blank_from -= 1
    blank_to = end
    while blank_to < line_end and content[blank_to].isspace():
        blank_to += 1
    if blank_from == line_start and blank_to == line_end:
        trimmed_old, trim_new = trimmed
        count = last_line - first_line + 1
        block_type = LineBlock if len(trimmed_old.lines) == count else _ReflowedBlock
        block = block_type(view, first_line, count, trimmed_old, token_key)
        return block.to_match(trim_new)
    # What _clean_start and _clean_end read of the text before and after: the characters
    # touching the quote and the nearest ones that are not spacing.
    before = content[max(blank_from - 1, line_start) : start]
    after = content[end : min(line_end, max(blank_to + 1, end + 2))]
    if blank_from > line_start and not _clean_start(before, content[start]):
        return None
    if blank_to < line_end and not _clean_end(content, end, after):
        return None
    if view.line_of_offset(end - 1) != first_line:
        quoted = "\n".join(trimmed[0].lines)
        frame = _Frame(leading_whitespace(content[line_start:start]), "")
        return Match(start, end, rewrite=_SplicedMidLine(content[start:end], quoted, frame))
    return Match(start, end)


@dataclass(frozen=True)
class _SplicedMidLine:
    """new_string for a quote that starts or stops inside a line and spans several: the
    file's spacing stays wherever old_string's tokens are kept (a continuation line the
    model indented at another depth included), and only what new_string changes is written,
    with new_string's own spacing. Where the tokens cannot be paired, new_string as sent."""

    region: str
    quoted: str
    frame: _Frame

    def __call__(self, new: str) -> str:
        if new != new.strip() or self.quoted != self.quoted.strip():
            return new
        try:
            text = splice_tokens(self.region, self.quoted, new, self.frame)
        except DoubtfulMatch:
            return new
        return text if _TOKEN.findall(text) == _TOKEN.findall(new) else new


# Where a mid-line quote may begin or stop without cutting an expression or an operator
# in two: ``x=foo`` of ``x = foo(a, b)`` or ``/ Retry`` of ``// Retry`` are not edits we
# may guess at.
_OPENERS = frozenset("([{,;=:")
_CLOSERS = frozenset(")]},;:")


def _clean_start(before: str, first: str) -> bool:
    if before[-1] in " \t":
        previous = before.rstrip()[-1]
        if first == "{":
            return True  # a block or a literal opens: ``) {``, ``else {``, ``= {``
        return previous in _OPENERS or _is_word(first) != _is_word(previous) or _is_word(first)
    if before[-1] in "\"'`" and _is_word(first):
        return True  # starts at the beginning of a string's text
    if before[-1] == "!" and _is_word(first):
        return True  # the operand of a negation: ``!`` applies to whatever is written
    return before[-1] in _OPENERS and (_is_word(first) or first in "\"'([{")


_KEYWORDS = frozenset({
    "if", "elif", "for", "while", "switch", "catch", "with", "return", "yield", "await",
    "case", "match", "in", "of", "and", "or", "not", "else", "do", "try", "function", "fn",
    "func", "def",
})  # fmt: skip


def _last_word(content: str, end: int) -> str:
    start = end
    while start and _is_word(content[start - 1]):
        start -= 1
    return content[start:end]


def _clean_end(content: str, end: int, after: str) -> bool:
    last = content[end - 1]
    following = after.lstrip()
    if following[0] in _CONTINUES:
        # A closed call or subscript may be followed by its result's use (``f(x).y``, a
        # macro's body ``F(a) ((a) + 1)``), and a keyword by its condition (``if (``):
        # nothing is cut there.
        return last in ")]" or (after[0] in " \t" and _last_word(content, end) in _KEYWORDS)
    if after[0] in " \t":
        return True
    if last in ",;:":
        return True  # stopped after a separator: the next element is untouched
    if _is_word(last) and after[0] in "\"'`":
        return True  # stopped at the end of a string's text
    if last in "([{" and after[0] in ")]}":
        return True  # cut between an empty pair of brackets: ``items(`` of ``items():``
    if _is_word(last) and after[0] == "=" and after[1:2] != "=":
        return True  # a name before its assignment or keyword value: ``context`` of ``context=x``
    if last in ")]}" and after[0] in "\"'`":
        return True  # a call quoted in a string or a comment: ``\`f(x, y)\```
    return after[0] in _CLOSERS  # stopped at the end of a bracketed group's content


class _ReflowedBlock(LineBlock):
    """Line breaks moved: old_string's lines do not pair with the file's, its tokens do.

    A new_string written with the file's breaks (it has a line of the file the quote broke
    differently, or only lines of the file) is written as it is: lines the file has are
    copied from it. Otherwise it is spliced into the file token by token: the file's text,
    breaks and continuation indentation stay wherever old_string's tokens are kept, and only what
    new_string changes is written. Either way the text written must hold new_string's
    tokens, or the tier steps back.
    """

    def realign(self, new: str) -> str:
        ends_with_newline = new.endswith("\n")
        body = new[:-1] if ends_with_newline else new
        if self._keeps_the_quote_s_breaks(body):
            old = "\n".join(self.old.lines)
            frame = _Frame(leading_whitespace(self.file_lines[0]), leading_whitespace(old))
            text = splice_tokens("\n".join(self.file_lines), old, body, frame)
        elif self._in_the_file_s_frame(body):
            # Written against the file's own lines: lines it keeps are copied from the file.
            as_is = OldLines(list(self.file_lines), False)
            text = LineBlock(self.view, self.first, self.count, as_is, self.key).realign(body)
        else:
            first_only = LineBlock(
                self.view, self.first, 1, OldLines(self.old.lines[:1], False), self.key
            )
            text = first_only.realign(body)
        if _TOKEN.findall(text) != _TOKEN.findall(body):
            raise DoubtfulMatch  # the file's text would be lost or changed
        if self.old.trailing_newline:
            # The span ate the newline after its last line: give it back, unless the file
            # ends there without one.
            return text + "\n" if self.first + self.count < len(self.view) else text
        return text + "\n" if ends_with_newline else text

    def _in_the_file_s_frame(self, new: str) -> bool:
        """Every line of new_string that is a line of the file has the file's indentation."""
        indent = {line.strip(): leading_whitespace(line) for line in self.file_lines}
        return all(
            indent[line.strip()] == leading_whitespace(line)
            for line in new.split("\n")
            if line.strip() in indent and line.strip()
        )

    def _keeps_the_quote_s_breaks(self, new: str) -> bool:
        """new_string has a line only the quote has (``call(alpha, beta)``), or, having no
        line only the file has, a line the file does not have: it was written in the quote's
        breaks. A new_string made only of the file's lines was written in the file's."""
        quoted = {line.strip() for line in self.old.lines} - {""}
        in_file = {line.strip() for line in self.file_lines} - {""}
        in_new = {line.strip() for line in new.split("\n")} - {""}
        if in_new & (quoted - in_file):
            return True
        if in_new & (in_file - quoted):
            return False
        return not in_new <= in_file


@dataclass(frozen=True)
class _Frame:
    """Where old_string's first line starts, in the file and in the quote."""

    file_indent: str
    quote_indent: str

    def place(self, inserted: str) -> str:
        """``inserted`` with each line it starts moved from the quote's depth to the
        file's."""
        lines = inserted.split("\n")
        return "\n".join([lines[0], *(self._moved(line) for line in lines[1:])])

    def _moved(self, line: str) -> str:
        if not line.strip():
            return line.strip(" \t")
        whitespace = leading_whitespace(line)
        extra = indent_width(whitespace) - indent_width(self.quote_indent)
        if extra >= 0:
            return self.file_indent + " " * extra + line[len(whitespace) :]
        if "\t" in self.file_indent:
            raise DoubtfulMatch  # shallower than the quote in a tab-indented file: a guess
        depth = max(0, indent_width(self.file_indent) + extra)
        return " " * depth + line[len(whitespace) :]


def splice_tokens(region: str, old: str, new: str, frame: _Frame) -> str:
    """``region`` (the file's text for old_string, the same tokens spaced differently) with
    new_string's changes to old_string's tokens made in place."""
    file_tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(region)]
    old_words = _TOKEN.findall(old)
    if [region[a:b] for a, b in file_tokens] != old_words:
        raise DoubtfulMatch  # not the same tokens: nothing to pair them by
    old_tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(old)]
    new_tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(new)]
    new_words = [new[a:b] for a, b in new_tokens]
    count = len(file_tokens)

    def as_quoted(index: int) -> bool:
        """The file spaces tokens ``index - 1`` and ``index`` as old_string does (at the
        file's depth): there new_string's own spacing is the one meant."""
        file_gap = region[file_tokens[index - 1][1] : file_tokens[index][0]]
        old_gap = old[old_tokens[index - 1][1] : old_tokens[index][0]]
        try:
            return frame.place(old_gap + "|")[:-1] == file_gap
        except DoubtfulMatch:
            return False

    out: list[str] = []
    cursor = 0
    matcher = SequenceMatcher(None, old_words, new_words, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag in ("insert", "replace") and 0 < i1 < count and j1 and as_quoted(i1):
            # What new_string adds or rewrites where the file is spaced as quoted keeps
            # new_string's own spacing on both sides: a space inside a string literal, a
            # comma brought up to the line before, are the edit's, not the file's to undo.
            start = file_tokens[i1 - 1][1]
            if i2 < count and j2 < len(new_tokens) and (tag == "insert" or as_quoted(i2)):
                end = file_tokens[i2][0]
                # Written through the next kept token's first character, so the indentation
                # before it is moved as a line's; that character is the file's, dropped here.
                placed = frame.place(new[new_tokens[j1 - 1][1] : new_tokens[j2][0] + 1])[:-1]
            else:
                end = file_tokens[i2 - 1][1]
                placed = frame.place(new[new_tokens[j1 - 1][1] : new_tokens[j2 - 1][1]])
            out.append(region[cursor:start])
            out.append(placed)
            cursor = end
            continue
        if (
            tag == "delete"
            and i1 > 0
            and i2 < count
            and 0 < j1 < len(new_tokens)
            and as_quoted(i1)
            and as_quoted(i2)
        ):
            # Tokens dropped between two kept ones, where the file is spaced as quoted: the
            # gap left is new_string's own (``d <= 0`` to ``d < 0`` keeps its space).
            start, end = file_tokens[i1 - 1][1], file_tokens[i2][0]
            out.append(region[cursor:start])
            out.append(frame.place(new[new_tokens[j1 - 1][1] : new_tokens[j1][0]]))
            cursor = end
            continue
        if tag == "insert" and i1 < count:
            start = end = file_tokens[i1][0]
            stop = new_tokens[j2][0] if j2 < len(new_tokens) else len(new)
            written = new[new_tokens[j1][0] : stop]
        elif tag == "insert":
            start = end = file_tokens[-1][1]
            written = new[new_tokens[j1 - 1][1] : new_tokens[j2 - 1][1]]
        elif tag == "delete" and i2 < count:
            start, end, written = file_tokens[i1][0], file_tokens[i2][0], ""
        elif tag == "delete":
            start = file_tokens[i1 - 1][1] if i1 else 0
            end, written = file_tokens[i2 - 1][1], ""
        else:
            start, end = file_tokens[i1][0], file_tokens[i2 - 1][1]
            written = new[new_tokens[j1][0] : new_tokens[j2 - 1][1]]
        placed = frame.place(written)
        line_start = region.rfind("\n", 0, start) + 1
        head, newline, tail = written.rpartition("\n")
        at_line_start = not region[line_start:start].strip()
        if tag == "insert" and newline and not tail.strip() and at_line_start:
            # Whole lines inserted before a line of the file: they go before its indentation
            # and start at its depth.
            placed = region[line_start:start] + frame.place(head) + "\n"
            start = end = line_start
        out.append(region[cursor:start])
        out.append(placed)
        cursor = end
    out.append(region[cursor:])
    return "".join(out)
