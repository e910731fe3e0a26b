"""Line views and block search, shared by the tolerant tiers.

``LineView`` indexes a text's lines once; ``find_line_blocks`` finds every run of file
lines whose keys equal old_string's keys in linear time; ``LineBlock`` turns a found run into
a :class:`Match` whose rewrite re-indents new_string into the file's frame (the
indentation style is :mod:`~editengine.matching._indent_style`'s, the re-indentation
:mod:`~editengine.matching._realign`'s).

Why one long module: the view's memoised indexes (offsets counted on demand, stripped
lines, the words it has looked up) are what every tier shares; the block search and the
block that rewrites a found run read those indexes directly.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, compress, count, repeat
from operator import add
from threading import Lock

from editengine.matching import _search as search
from editengine.matching import _spaces as spaces
from editengine.matching._base import Match
from editengine.matching._indent_style import IndentStyle, outside_block_comments
from editengine.matching._realign import FixLine, KeyFunction, realign_lines


def strip_key(line: str) -> str:
    return line.strip()


# Reads of the text the pieces looked up by may_hold_all may cost, all questions together.
_LOOK_UP_READS = 2
# Pieces looked up at most by one may_hold_all (the longest of those not looked up before).
_LOOKED_UP = 64
# A question answered by counting costs about what listing this many lines' offsets does
# (a Python call against a thousandth of a C pass): thousands of questions near each other
# are answered from the list.
_QUESTIONS_COUNTED = 1024
# Whole-line places of one key checked one by one before the view's line index takes over.
_INDEXED_AFTER = 256
# Answers one view's memo keeps: a view lives as long as its text is edited, and each
# edit asks new questions (its own words and lines), so an unbounded memo grows by every
# failing edit of an unchanged file. The oldest answers go first; one edit asks far fewer.
_MEMO_ENTRIES = 1024


class _Memo(dict[tuple[object, ...], object]):
    """A dict that forgets its oldest entries past ``_MEMO_ENTRIES`` (insertion order)."""

    def __setitem__(self, key: tuple[object, ...], value: object) -> None:
        super().__setitem__(key, value)
        while len(self) > _MEMO_ENTRIES:
            # Another thread may have taken the oldest one already: pop it quietly.
            self.pop(next(iter(self)), None)


class LineView:
    """A text split into lines, with offsets; indexes are built only when a tier needs them.

    Everything done eagerly runs in C (``split``, ``accumulate``, ``str.find``), so a hit in a
    100,000-line file does not pay for a Python loop over its lines.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        # Answers of lines_stripped_equal, and other per-text lookups the tiers and the
        # closest-region search would otherwise repeat (each one a scan of the file).
        self.memo: dict[tuple[object, ...], object] = _Memo()
        # A line and the offset it starts at, in one tuple so that a view shared between
        # threads is never read half updated: the next offset asked for is counted from
        # there. An edit asks for a few offsets near each other, and a list of every
        # line's offset (100,000 integers made, and freed with the view) costs more.
        self._known: tuple[int, int] = (0, 0)
        self._lines_counted = 0
        # Characters may_hold_all may still read (a missing piece reads the whole text).
        self._look_up_budget = _LOOK_UP_READS * len(text)

    def __len__(self) -> int:
        return len(self.lines)

    @cached_property
    def _bounds(self) -> list[int]:
        """Offset of each line's first character, and one past the text's end: one C pass,
        made once counting from known lines has read as many lines as the file has."""
        return list(accumulate(map(add, map(len, self.lines), repeat(1)), initial=0))

    def _counted(self, lines: int) -> bool:
        """Count ``lines`` more read; whether counting still costs less than the bounds.

        Each question also counts a share of the file: a tier asking for thousands of
        offsets near each other is answered from the list after the first thousand.
        """
        self._lines_counted += lines + max(1, len(self.lines) // _QUESTIONS_COUNTED)
        return self._lines_counted <= len(self.lines)

    @property
    def real_lines(self) -> int:
        """Lines that exist in the file: the empty string after a final newline is not one,
        and a quote's blank line matched there would add a line to the file."""
        return len(self.lines) - 1 if self.text.endswith("\n") else len(self.lines)

    def start(self, number: int) -> int:
        """Offset of line ``number``'s first character (0-based line)."""
        bounds: list[int] | None = self.__dict__.get("_bounds")
        if bounds is not None:  # first: tiers ask thousands of times once it is made
            return bounds[number]
        return self._counted_start(number)

    def line_end(self, number: int) -> int:
        """Offset just past line ``number``'s text (before its newline)."""
        bounds: list[int] | None = self.__dict__.get("_bounds")
        if bounds is not None:
            return bounds[number + 1] - 1
        return self._counted_start(number + 1) - 1

    def _counted_start(self, number: int) -> int:
        if not 0 <= number <= len(self.lines):
            return self._bounds[number]
        known, offset = self._known
        if not self._counted(abs(number - known)):
            return self._bounds[number]
        if number >= known:
            offset += sum(map(len, self.lines[known:number])) + number - known
        else:
            offset -= sum(map(len, self.lines[number:known])) + known - number
        if number < len(self.lines):  # one past the text's end is no line to count from
            self._known = (number, offset)
        return offset

    def line_of_offset(self, offset: int) -> int:
        """0-based line holding ``offset``."""
        bounds = self.__dict__.get("_bounds")
        if bounds is not None or offset < 0:
            return bisect_right(self._bounds, offset, 0, len(self.lines)) - 1
        known, known_offset = self._known
        if offset >= known_offset:
            number = known + self.text.count("\n", known_offset, offset)
        else:
            number = known - self.text.count("\n", offset, known_offset)
        if not self._counted(abs(number - known)):
            return bisect_right(self._bounds, offset, 0, len(self.lines)) - 1
        self._known = (number, self.text.rfind("\n", 0, min(offset, len(self.text))) + 1)
        return number

    @cached_property
    def stripped(self) -> list[str]:
        return list(map(str.strip, self.lines))

    @cached_property
    def stripped_index(self) -> dict[str, list[int]]:
        index: dict[str, list[int]] = {}
        for number, key in enumerate(self.stripped):
            index.setdefault(key, []).append(number)
        return index

    def may_hold_all(self, pieces: Iterable[str]) -> bool:
        """``False`` when the text lacks one of ``pieces``; ``True`` when it holds them all,
        or when the view's looking has read ``_LOOK_UP_READS`` times the text (what is left
        goes unread: every tier and check of an edit together pay at most that).

        A cheap necessary condition for a tier's whole-file pass. Answers are remembered,
        since the tiers and checks after one ask for the same words: those are asked
        first, then the others are looked up longest first (the likeliest to be missing),
        each ``str.find`` stopping at its first place.
        """
        unknown = []
        for piece in set(pieces):
            position = self.memo.get(("first_place", piece))
            if position == -1:
                return False
            if position is None:
                unknown.append(piece)
        # A quote of thousands of words: the longest few are enough to look up.
        longest = heapq.nsmallest(_LOOKED_UP, unknown, key=lambda piece: (-len(piece), piece))
        for piece in longest:
            if self._look_up_budget < 0:
                break
            position = search.find(self.text, piece)
            self.memo[("first_place", piece)] = position
            if position == -1:
                return False
            self._look_up_budget -= position + len(piece)
        return True

    def lines_stripped_equal(
        self, key: str, *, limit: int | None = None, text: str | None = None
    ) -> list[int] | None:
        """0-based lines whose stripped text is ``key`` (non-empty), found by ``str.find``.

        ``None`` when there are more than ``limit`` of them. ``text``: search this text
        instead, a one-for-one translation of the view's (same line offsets).
        """
        if text is not None:
            return self._lines_stripped_equal(key, limit, text)
        memo_key = ("stripped_equal", key, limit)
        if memo_key not in self.memo:
            self.memo[memo_key] = self._lines_stripped_equal(key, limit, self.text)
        found = self.memo[memo_key]
        return None if found is None else list(found)  # type: ignore[call-overload]  # the memo holds a tuple of line numbers under this key

    def look_up_stripped_equal(self, keys: Iterable[str], limit: int) -> None:
        """Answer ``lines_stripped_equal(key, limit=limit)`` for every key in one pass.

        A search per key scans the whole text; for several keys one pass over the stripped
        lines costs less. A line is found by ``str.find`` exactly when its stripped text is
        the key (a key has no newline and no whitespace at its ends), so the answers are
        the ones the searches would give, ``None`` included: that is answered when the key
        stands on more than ``limit`` lines and the search would find it once more after
        the line that passed the limit.
        """
        wanted = {key for key in keys if key and ("stripped_equal", key, limit) not in self.memo}
        if not wanted:
            return
        places: dict[str, list[int]] = {key: [] for key in wanted}
        stripped = self.stripped
        for number in compress(count(), map(wanted.__contains__, stripped)):
            places[stripped[number]].append(number)
        for key, lines in places.items():
            answer: list[int] | None = lines
            if len(lines) > limit + 1:
                answer = None
            elif len(lines) == limit + 1:
                after = self.line_end(lines[limit])
                if after < len(self.text) and search.find(self.text, key, after) != -1:
                    answer = None
            self.memo[("stripped_equal", key, limit)] = answer

    def _lines_stripped_equal(self, key: str, limit: int | None, text: str) -> list[int] | None:
        found: list[int] = []
        position = search.find(text, key)
        while position != -1:
            if limit is not None and len(found) > limit:
                return None
            if limit is None and text is self.text and len(found) == _INDEXED_AFTER:
                # A line repeated thousands of times: one pass building the index of every
                # line costs less than checking each place in Python.
                return list(self.stripped_index.get(key, ()))
            line_start = text.rfind("\n", 0, position) + 1
            line_end = text.find("\n", position + len(key))
            if line_end == -1:
                line_end = len(text)
            if (
                not text[line_start:position].strip()
                and not text[position + len(key) : line_end].strip()
            ):
                found.append(self.line_of_offset(position))
            position = search.find(text, key, line_end)
            if line_end == len(text):
                break
        return found

    def keys(self, key: KeyFunction) -> list[str]:
        return list(map(key, self.lines))

    def indent_near(self, number: int, radius: int = 300) -> IndentStyle:
        """How the file indents around line ``number``."""
        return IndentStyle.of(self.lines[max(0, number - radius) : number + radius])

    def indent_of_block(self, first: int, count: int, radius: int = 300) -> IndentStyle:
        """How the file indents lines ``[first, first + count)``.

        The neighbourhood decides the level width, but the lines' own character wins: a
        tab-indented function pasted into a file of spaces (or the reverse) is written
        the way it already is, not the way the rest of the file is.
        """
        near = self.indent_near(first, radius)
        block = outside_block_comments(self.lines[first : first + count])
        leads = [line[0] for line in block if line[:1] in (" ", "\t")]
        tabs = leads.count("\t")
        spaces = len(leads) - tabs
        if tabs > spaces and not near.uses_tabs:
            return IndentStyle(True, 1)
        if spaces > tabs and near.uses_tabs:
            around = self.lines[max(0, first - radius) : first + radius]
            return IndentStyle.of(
                [line for line in around if line.startswith(" ")], fallback=IndentStyle(False, 4)
            )
        return near


def _same_text(kept: str, text: str) -> bool:
    """``kept == text``, refused early on the ends: the next version of a file often has the
    same length and differs near its end, and comparing megabytes costs milliseconds."""
    return (
        len(kept) == len(text)
        and kept[-_ENDS:] == text[-_ENDS:]
        and kept[:_ENDS] == text[:_ENDS]
        and kept == text
    )


_ENDS = 256

# Views of the last few texts, newest first: the tiers of one edit, and the already-applied
# checks after them, share one. Found by identity before equality: an ``lru_cache`` keyed by
# the text would hash it, 9 ms for a 100,000-line file the edit never hashes otherwise.
_KEPT_VIEWS = 4
_recent_views: list[LineView] = []
_recent_views_lock = Lock()


# Words this long are looked up before a tier's whole-file pass; shorter ones are everywhere.
_LOOKED_UP_WORD = re.compile(r"\w{3,}")
_QUOTE_ENDS = 4096


def may_hold_the_words_of(text: str, quote: str) -> bool:
    """Whether ``text`` may hold every word of ``quote`` (``False`` when one is missing).

    Tiers that forgive only punctuation or spacing find a quote only where each of its
    words stands verbatim: a typo or a miss rules their whole-file pass out with one read
    of the file, shared by the tiers through the view's memo.
    """
    # A long quote's head and tail are enough (a word cut there is still a piece of it).
    head = _LOOKED_UP_WORD.findall(quote, 0, _QUOTE_ENDS)
    tail = _LOOKED_UP_WORD.findall(quote, max(_QUOTE_ENDS, len(quote) - _QUOTE_ENDS))
    return line_view(text).may_hold_all(head + tail)


def line_view(text: str) -> LineView:
    """The (memoised) view of ``text``: tiers of one cascade run share it."""
    with _recent_views_lock:
        view = next((view for view in _recent_views if view.text is text), None)
        if view is None:
            view = next((view for view in _recent_views if _same_text(view.text, text)), None)
        if view is None:
            view = LineView(text)
        else:
            _recent_views.remove(view)
        _recent_views.insert(0, view)
        del _recent_views[_KEPT_VIEWS:]
        return view


@dataclass(frozen=True)
class OldLines:
    """old_string split into lines; a final newline is remembered, not matched."""

    lines: list[str]
    trailing_newline: bool

    @classmethod
    def of(cls, old: str) -> OldLines:
        trailing = old.endswith("\n")
        body = old[:-1] if trailing else old
        return cls(body.split("\n"), trailing)


def without_blank_edges(old: str) -> tuple[OldLines, Callable[[str], str]]:
    """old_string without blank lines at its edges, and how to take them off new_string."""
    old_lines = OldLines.of(old)
    lines = trim_blank_lines(old_lines.lines)
    head = leading_blanks(old_lines.lines)
    tail = len(old_lines.lines) - head - len(lines)

    def trim_new(new: str) -> str:
        ending = "\n" if new.endswith("\n") else ""
        new_lines = new[: len(new) - len(ending)].split("\n")
        return "\n".join(without_padding(new_lines, head, tail)) + ending

    return OldLines(lines, old_lines.trailing_newline), trim_new


def find_line_blocks(
    view: LineView, old_keys: Sequence[str], key: KeyFunction, *, translated: str | None = None
) -> list[int]:
    """0-based first lines of every run of file lines whose keys equal ``old_keys``.

    Anchors on old_string's longest key, found with ``str.find``; each anchor is checked
    against the rest of old_string, so the cost is linear in the file. ``translated``: the
    view's text mapped one character for one (same offsets) so that ``key`` of a line is
    that line of ``translated``, stripped: anchors are then found in it by ``str.find``
    too, instead of keying every line of the file.
    """
    limit = view.real_lines
    if not any(old_keys) or len(old_keys) > limit:
        return []
    anchor_offset = max(range(len(old_keys)), key=lambda offset: len(old_keys[offset]))
    anchor = old_keys[anchor_offset]
    if key is strip_key and "stripped_index" in view.__dict__:
        # Already built for a quote of many segments: a lookup instead of a scan each, on
        # the key the file holds least often (a common first line must not be checked
        # at each of its places for every segment that starts with it).
        index = view.stripped_index
        anchor_offset = min(
            range(len(old_keys)), key=lambda offset: len(index.get(old_keys[offset], ()))
        )
        anchor_lines = index.get(old_keys[anchor_offset], [])
        lines = view.lines

        def equal(number: int, expected: str) -> bool:
            return key(lines[number]) == expected
    elif key is strip_key or translated is not None:
        anchor_lines = view.lines_stripped_equal(anchor, text=translated) or []
        lines = view.lines

        def equal(number: int, expected: str) -> bool:
            return key(lines[number]) == expected
    else:
        file_keys = view.keys(key)
        anchor_lines = [number for number, value in enumerate(file_keys) if value == anchor]

        def equal(number: int, expected: str) -> bool:
            return file_keys[number] == expected

    size = len(old_keys)
    starts: list[int] = []
    for position in anchor_lines:
        start = position - anchor_offset
        if start < 0 or start + size > limit:
            continue
        if all(equal(start + k, old_keys[k]) for k in range(size)):
            starts.append(start)
    return starts


@dataclass(frozen=True)
class LineBlock:
    """A run of file lines ``[first, first + count)`` matched by old_string's lines."""

    view: LineView
    first: int
    count: int
    old: OldLines
    key: KeyFunction = strip_key
    similarity: float = 1.0
    fix_line: FixLine | None = None

    def to_match(self, transform_new: Callable[[str], str] | None = None) -> Match:
        start = self.view.start(self.first)
        last = self.first + self.count - 1
        end = self.view.line_end(last)
        if self.old.trailing_newline and last + 1 < len(self.view):
            end += 1  # the newline old_string quoted belongs to the span

        def rewrite(new: str) -> str:
            if transform_new is not None:
                new = transform_new(new)
            return self.realign(new)

        return Match(start, end, self.similarity, rewrite)

    @property
    def file_lines(self) -> list[str]:
        return self.view.lines[self.first : self.first + self.count]

    def realign(self, new: str) -> str:
        """new_string written in the file's frame: see :func:`realign_lines`."""
        ends_with_newline = new.endswith("\n")
        body = new[:-1] if ends_with_newline else new
        if body == "" and not ends_with_newline:
            return ""
        old_lines, new_body = _indented_as_the_file(self.old.lines, self.file_lines, body)
        new_lines = with_quoted_padding(old_lines, new_body.split("\n"))
        aligned = realign_lines(
            old_lines,
            self.file_lines,
            new_lines,
            self.key,
            self.view.indent_of_block(self.first, self.count),
            self.fix_line,
        )
        text = "\n".join(aligned)
        if self.old.trailing_newline:
            if self.first + self.count < len(self.view):
                return text + "\n"  # the span ate one newline; give it back even if new forgot it
            # The quote's final newline is one the file does not have (its last line has
            # none): new_string's final newline stands for it, and is not added either.
            return text
        return text + "\n" if ends_with_newline else text


def _indented_as_the_file(
    old_lines: Sequence[str], file_lines: Sequence[str], new: str
) -> tuple[Sequence[str], str]:
    """old_string's lines and new_string with indentation spelled in Unicode spaces read as
    ASCII spaces, alike, where the lines matched indent with none (the file may elsewhere):
    the forgiveness that matched them is not carried into the file through new_string."""
    if not any(spaces.carries_unicode_indentation(line) for line in old_lines) or any(
        spaces.carries_unicode_indentation(line) for line in file_lines
    ):
        return old_lines, new
    return [spaces.decoded(line) for line in old_lines], spaces.decoded(new)


def with_quoted_padding(old_lines: Sequence[str], new_lines: list[str]) -> list[str]:
    """new_lines with the blank lines old_string was padded with, where new_string has none.

    A quote padded with blank lines (whitespace and all) that matched only once that
    whitespace was forgiven is a model's padding, not a request: a new_string written
    without it keeps the file's blank lines rather than deleting them.
    """
    if not any(line.strip() for line in new_lines):
        return new_lines
    head = leading_blanks(old_lines)
    tail = leading_blanks(reversed(old_lines)) if head < len(old_lines) else 0
    if head and new_lines[0].strip():
        new_lines = [""] * head + new_lines
    if tail and new_lines[-1].strip():
        new_lines = new_lines + [""] * tail
    return new_lines


def without_padding(lines: Sequence[str], head: int, tail: int) -> list[str]:
    """``lines`` without up to ``head`` blank lines at the start and ``tail`` at the end (one
    line always kept): the blank lines old_string was padded with, which new_string repeats."""
    start, end = 0, len(lines)
    while start < head and end - start > 1 and not lines[start].strip():
        start += 1
    while len(lines) - end < tail and end - start > 1 and not lines[end - 1].strip():
        end -= 1
    return list(lines[start:end])


def trim_blank_lines(lines: Sequence[str]) -> list[str]:
    """``lines`` without the blank (whitespace-only) lines at either end."""
    head = leading_blanks(lines)
    tail = leading_blanks(reversed(lines[head:])) if head < len(lines) else 0
    return list(lines[head : len(lines) - tail])


def leading_blanks(lines: Iterable[str]) -> int:
    """How many lines at the start of ``lines`` are blank (whitespace only)."""
    count = 0
    for line in lines:
        if line.strip():
            break
        count += 1
    return count
