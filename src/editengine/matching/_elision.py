"""Elision tier: ``...`` and ``# ... existing code ...`` lines standing for unchanged code.

Why one long module: splitting the quote at its markers, placing the segments in order and
writing new_string's kept segments back are one algorithm over the same segment list.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from editengine._errors import UnmatchedElision
from editengine._results import Region
from editengine._text import indent_width, leading_whitespace
from editengine.matching._base import MAX_PLACES, NAMED_PLACES, Match, TooManyPlaces
from editengine.matching._lines import (
    LineView,
    find_line_blocks,
    leading_blanks,
    line_view,
    strip_key,
    trim_blank_lines,
    without_padding,
)
from editengine.matching._realign import realign_lines

_COMMENT = r"(?:#|//|--|;|/\*+|<!--|\*|%)"
_ELLIPSIS = r"(?:\.\.\.|…)"
_PHRASE = (
    r"(?:existing|rest of|remaining|unchanged|other|more|previous|same as before|"
    r"code omitted|omitted|etc)"
)
# A marker with an ellipsis: "...", "[...]", "// ...", "# ... existing code ...",
# "(rest of file ...)".
_MARKER = re.compile(
    rf"^(?:{_ELLIPSIS}|\[{_ELLIPSIS}\]"
    rf"|{_COMMENT}\s*{_ELLIPSIS}.*"
    rf"|{_COMMENT}\s*[(\[]?\s*{_PHRASE}\b.*{_ELLIPSIS}.*"
    rf"|[(\[]\s*{_PHRASE}\b.*{_ELLIPSIS}\s*[)\]])$",
    re.IGNORECASE,
)
# A marker in words only ("// rest of code unchanged", "# existing code here"): short, opens
# with a phrase and ends on a word that says what was left out. Real comments that merely
# start alike ("# Otherwise, ...", "# more tests below") are not markers.
_WORDED = re.compile(
    rf"^{_COMMENT}\s*[(\[]?\s*(?P<text>{_PHRASE}\b[\w\s',-]*?)\s*[.)\]]*\s*(?:\*/|-->)?$",
    re.IGNORECASE,
)
_LEFT_OUT = {
    "unchanged", "omitted", "here", "before", "same", "code", "file", "function", "method",
    "class", "implementation", "methods", "functions", "body", "brevity", "existing",
    "remaining", "previous", "lines",
}  # fmt: skip
_MAX_WORDED = 7
# Above this many segments, a quote's lines are looked up in an index of the file's lines
# (built once) rather than searched for with one scan of the file each.
_SCANNED_SEGMENTS = 8
# A bare "..." is also real code (Python's Ellipsis body, a Go variadic on its own line is
# not, but a stub is): only comment markers are refused outright when new_string invents one.
_BARE = re.compile(rf"^{_ELLIPSIS}$")


# A quote's lines are asked about several times per edit (the refusal rule, the split into
# segments, the expansion): answers are remembered.
@lru_cache(maxsize=8192)
def is_marker(line: str) -> bool:
    stripped = line.strip()
    if not stripped or len(stripped) > 120:
        return False
    if _MARKER.match(stripped):
        return True
    worded = _WORDED.match(stripped)
    if worded is None:
        return False
    words = worded["text"].replace(",", " ").split()
    return len(words) <= _MAX_WORDED and words[-1].lower() in _LEFT_OUT


def is_comment_marker(line: str) -> bool:
    return is_marker(line) and not _BARE.match(line.strip())


@dataclass(frozen=True)
class Elided:
    """A text split at its elision markers: segments of lines, markers between them."""

    segments: list[list[str]]
    leading: bool
    trailing: bool

    @classmethod
    def of(cls, lines: Sequence[str]) -> Elided:
        segments: list[list[str]] = [[]]
        for line in lines:
            if is_marker(line):
                segments.append([])
            else:
                segments[-1].append(line)
        leading = not any(line.strip() for line in segments[0]) and len(segments) > 1
        trailing = not any(line.strip() for line in segments[-1]) and len(segments) > 1
        if leading:
            segments.pop(0)
        if trailing and segments:
            segments.pop()
        return cls(segments, leading, trailing)

    @property
    def interior_markers(self) -> int:
        return max(len(self.segments) - 1, 0)


def marker_count(text: str) -> int:
    return sum(1 for line in text.split("\n") if is_marker(line))


class ElisionTier:
    """Forgives elided quotes: old_string skips unchanged code with ``...``-style lines.

    Each run of real lines is found in order (indentation-insensitive, at one consistent
    depth); every marker in new_string is replaced by the exact file lines its counterpart in
    old_string skipped. A new_string with more markers than old_string is refused by the
    cascade before any tier runs.
    """

    name: ClassVar[str] = "elision"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        old_lines = old[:-1].split("\n") if old.endswith("\n") else old.split("\n")
        if not any(is_marker(line) for line in old_lines):
            return []
        elided = Elided.of(old_lines)
        segments = [trim_blank_lines(segment) for segment in elided.segments]
        if not segments or any(not segment for segment in segments):
            return []
        view = line_view(content)
        if len(segments) > _SCANNED_SEGMENTS:
            view.stripped_index  # noqa: B018 - built once, then every segment looks it up
        # A segment quoted again (the same lines between other markers) is looked up once.
        keys = [tuple(segment) for segment in segments]
        found: dict[tuple[str, ...], list[int]] = {}
        grouped: dict[tuple[str, ...], dict[int, list[int]]] = {}
        for key, segment in zip(keys, segments):
            if key not in found:
                found[key] = _placements(view, segment)
        for key, segment in zip(keys[1:], segments[1:]):
            if key not in grouped:
                grouped[key] = _by_depth_shift(view, segment, found[key])
        placements = [found[key] for key in keys]
        by_shift = [grouped[key] for key in keys[1:]]
        chains = _tightest_chains(view, segments, by_shift, placements[0], self.name)
        # Blank lines old_string had beside each marker: matched as part of the gap.
        beside = [
            (leading_blanks(reversed(before)), leading_blanks(after))
            for before, after in zip(elided.segments, elided.segments[1:])
        ]
        # Blank lines old_string had before its first real line and after its last: the
        # span leaves them out, so new_string's copies of them are not written again.
        padding = (
            leading_blanks(elided.segments[0]),
            leading_blanks(reversed(elided.segments[-1])),
        )
        return [
            _ElisionMatch(view, segments, chain, old, beside, padding).to_match()
            for chain in chains
        ]


def _placements(view: LineView, segment: list[str]) -> list[int]:
    return find_line_blocks(view, [strip_key(line) for line in segment], strip_key)


def _tightest_chains(
    view: LineView,
    segments: list[list[str]],
    by_shift: list[dict[int, list[int]]],
    first_starts: list[int],
    tier: str,
) -> list[list[int]]:
    """The chains from each place of the first segment; of chains that end on the same
    lines, the one starting last: the skipped code is the least, as a reader of the quote
    would take it. Chains of one segment each end on their own lines: every place counts.
    Past :data:`MAX_PLACES` different chains the quote is refused."""
    by_tail: dict[tuple[int, ...], list[int]] = {}
    for first_start in first_starts:
        chain = _chain(view, segments, by_shift, first_start)
        if chain is None:
            continue
        # A quote with markers only at its edges is one segment: each place is its own chain.
        tail = tuple(chain[1:]) or (chain[0],)
        if tail not in by_tail or chain[0] > by_tail[tail][0]:
            by_tail[tail] = chain
        if len(by_tail) > MAX_PLACES:
            named = sorted(by_tail.values())[:NAMED_PLACES]
            raise TooManyPlaces(
                tier,
                MAX_PLACES,
                tuple(Region(c[0] + 1, c[-1] + len(segments[-1])) for c in named),
            )
    return sorted(by_tail.values())


def _depth_shift(view: LineView, segment: list[str], start: int) -> int:
    for offset, line in enumerate(segment):
        if line.strip():
            file_line = view.lines[start + offset]
            return indent_width(leading_whitespace(file_line)) - indent_width(
                leading_whitespace(line)
            )
    return 0


def _by_depth_shift(view: LineView, segment: list[str], starts: list[int]) -> dict[int, list[int]]:
    """A segment's places grouped by how much deeper the file has them than the quote,
    each group in file order."""
    groups: dict[int, list[int]] = {}
    for start in starts:
        groups.setdefault(_depth_shift(view, segment, start), []).append(start)
    return groups


def _chain(
    view: LineView,
    segments: list[list[str]],
    by_shift: list[dict[int, list[int]]],
    first_start: int,
) -> list[int] | None:
    """Start lines of each segment, each the nearest after the previous at the same depth.

    Places are grouped by depth beforehand, so each step is one bisection: scanning past
    the places at other depths made a file full of them quadratic.
    """
    shift = _depth_shift(view, segments[0], first_start)
    chain = [first_start]
    cursor = first_start + len(segments[0])
    for segment, groups in zip(segments[1:], by_shift):
        starts = groups.get(shift, [])
        index = bisect.bisect_left(starts, cursor)
        if index == len(starts):
            return None
        chain.append(starts[index])
        cursor = starts[index] + len(segment)
    return chain


@dataclass(frozen=True)
class _ElisionMatch:
    view: LineView
    segments: list[list[str]]
    chain: list[int]
    old: str
    beside: list[tuple[int, int]]  # blank lines old_string had before / after each marker
    padding: tuple[int, int] = (0, 0)  # blank lines old_string had at its start / its end

    def to_match(self) -> Match:
        first = self.chain[0]
        last = self.chain[-1] + len(self.segments[-1]) - 1
        start = self.view.start(first)
        end = self.view.line_end(last)
        eats_newline = self.old.endswith("\n") and last + 1 < len(self.view)
        if eats_newline:
            end += 1

        def rewrite(new: str) -> str:
            text = self.expand(new[:-1] if new.endswith("\n") else new)
            if self.old.endswith("\n"):
                # The span ate the newline old_string quoted: give it back. At the end of a
                # file without one, the quote's newline is not the file's, and new_string's
                # stands for it: nothing is added.
                return text + "\n" if eats_newline else text
            return text + "\n" if new.endswith("\n") else text

        return Match(start, end, 1.0, rewrite, verbatim=self.verbatim())

    def verbatim(self) -> bool:
        """Every quoted line is the file's, indentation included (line ends aside)."""
        return all(
            line.rstrip() == self.view.lines[start + offset].rstrip()
            for start, segment in zip(self.chain, self.segments)
            for offset, line in enumerate(segment)
        )

    def gaps(self) -> list[list[str]]:
        """The file lines each interior marker of old_string stood for."""
        out = []
        for index in range(len(self.chain) - 1):
            gap_start = self.chain[index] + len(self.segments[index])
            out.append(self.view.lines[gap_start : self.chain[index + 1]])
        return out

    def expand(self, new: str) -> str:
        new_lines = without_padding(_drop_edge_markers(new.split("\n")), *self.padding)
        gaps = self.gaps()
        markers = [index for index, line in enumerate(new_lines) if is_marker(line)]
        if not markers and _spells_out(new_lines, gaps):
            return self._realign_spelled_out(new_lines, gaps)
        if len(markers) != len(gaps):
            raise UnmatchedElision(
                f"new_string has {len(markers)} elision marker(s) between real lines "
                f"where old_string has {len(gaps)}; writing it would delete or invent "
                "the code the markers stand for.",
                hint="Use the same '...' markers in new_string as in old_string, one for each "
                "skipped stretch, or quote the skipped code in full.",
            )
        old_real = [line for segment in self.segments for line in segment]
        file_real = [
            line
            for start, segment in zip(self.chain, self.segments)
            for line in self.view.lines[start : start + len(segment)]
        ]
        real_new = [line for line in new_lines if not is_marker(line)]
        style = self.view.indent_of_block(
            self.chain[0], self.chain[-1] + len(self.segments[-1]) - self.chain[0]
        )
        aligned = iter(realign_lines(old_real, file_real, real_new, strip_key, style))
        absorbed = _blank_lines_quoted_beside_markers(new_lines, markers, self.beside)
        out: list[str] = []
        gap_of = {index: gap for index, gap in zip(markers, gaps)}
        for index in range(len(new_lines)):
            if index in gap_of:
                out.extend(gap_of[index])
                continue
            written = next(aligned)
            if index not in absorbed:
                out.append(written)
        return "\n".join(out)

    def _realign_spelled_out(self, new_lines: list[str], gaps: list[list[str]]) -> str:
        """new_string wrote out what old_string skipped: align it with the whole region."""
        # The skipped lines are the file's; new_string spells them out in the quote's frame,
        # so they are compared there: else a quote shifted as a whole would pair them with
        # lines at another depth and leave them unmoved.
        shift = _depth_shift(self.view, self.segments[0], self.chain[0])
        region_old: list[str] = []
        for index, segment in enumerate(self.segments):
            region_old.extend(segment)
            if index < len(gaps):
                region_old.extend(_in_quote_frame(line, shift, segment) for line in gaps[index])
        first = self.chain[0]
        last = self.chain[-1] + len(self.segments[-1])
        region_file = self.view.lines[first:last]
        style = self.view.indent_of_block(first, last - first)
        return "\n".join(realign_lines(region_old, region_file, new_lines, strip_key, style))


def _in_quote_frame(line: str, shift: int, quoted: list[str]) -> str:
    """A file line moved back by ``shift`` columns, where old_string was quoted that much
    shallower (or deeper) than the file: with spaces, or with whole tabs where the quote and
    the line are indented with tabs only; left as it is otherwise."""
    whitespace = leading_whitespace(line)
    if not shift or not line.strip():
        return line
    if any("\t" in leading_whitespace(q) for q in quoted):
        tabs, rest = divmod(shift, _TAB_WIDTH)
        only_tabs = all(set(leading_whitespace(q)) <= {"\t"} for q in quoted)
        if rest or not only_tabs or set(whitespace) != {"\t"}:
            return line  # a shift that is no whole number of tabs: no frame to move into
        return "\t" * max(0, len(whitespace) - tabs) + line[len(whitespace) :]
    return " " * max(0, indent_width(whitespace) - shift) + line[len(whitespace) :]


# The columns ``indent_width`` gives a tab, so a shift it measured is counted back in tabs.
_TAB_WIDTH = 4


def _drop_edge_markers(lines: list[str]) -> list[str]:
    """Markers at the very edges stand for code outside the span, which stays as it is."""
    while (
        lines
        and (is_marker(lines[0]) or not lines[0].strip())
        and any(is_marker(line) for line in lines[: _first_real(lines) + 1])
    ):
        lines = lines[1:]
    while (
        lines
        and (is_marker(lines[-1]) or not lines[-1].strip())
        and any(is_marker(line) for line in lines[_last_real(lines) :])
    ):
        lines = lines[:-1]
    return lines


def _first_real(lines: list[str]) -> int:
    return next((i for i, line in enumerate(lines) if line.strip() and not is_marker(line)), 0)


def _last_real(lines: list[str]) -> int:
    return next(
        (i for i in range(len(lines) - 1, -1, -1) if lines[i].strip() and not is_marker(lines[i])),
        len(lines) - 1,
    )


def _blank_lines_quoted_beside_markers(
    new_lines: list[str], markers: list[int], beside: list[tuple[int, int]]
) -> set[int]:
    """Blank lines new_string keeps around a marker as old_string quoted them there.

    old_string's segments were matched without their blank edges, so the blank lines it
    quoted next to a marker stand in the skipped stretch, which is written from the file
    (whitespace and all, however many blank lines it holds, none included): kept in
    new_string they are not written again. Blank lines the quote did not have there are
    new_string's own.
    """
    absorbed: set[int] = set()
    for index, (quoted_before, quoted_after) in zip(markers, beside):
        # Lines walked outward from the marker lazily: slicing new_string's lines at every
        # marker made a quote of thousands of markers quadratic.
        above = (new_lines[k] for k in range(index - 1, -1, -1))
        below = (new_lines[k] for k in range(index + 1, len(new_lines)))
        before = min(leading_blanks(above), quoted_before)
        after = min(leading_blanks(below), quoted_after)
        absorbed.update(range(index - before, index))
        absorbed.update(range(index + 1, index + 1 + after))
    return absorbed


def _spells_out(new_lines: list[str], gaps: list[list[str]]) -> bool:
    """Every skipped stretch appears in new_string, in order, line for line."""
    keys = [line.strip() for line in new_lines if line.strip()]
    position = 0
    for gap in gaps:
        wanted = [line.strip() for line in gap if line.strip()]
        if not wanted:
            continue
        found = _find_run(keys, wanted, position)
        if found < 0:
            return False
        position = found + len(wanted)
    return True


def _find_run(keys: list[str], wanted: list[str], start: int) -> int:
    for index in range(start, len(keys) - len(wanted) + 1):
        if keys[index : index + len(wanted)] == wanted:
            return index
    return -1


def refuse_invented_markers(old: str, new: str) -> None:
    """Refuse a new_string whose ``...`` markers have no counterpart in old_string.

    Written literally, such a marker would replace the code it stands for with a comment.
    """
    new_comment = sum(1 for line in new.split("\n") if is_comment_marker(line))
    old_comment = sum(1 for line in old.split("\n") if is_comment_marker(line))
    extra_bare = marker_count(new) - new_comment - (marker_count(old) - old_comment)
    lost_lines = {line.strip() for line in old.split("\n") if line.strip()} - {
        line.strip() for line in new.split("\n")
    }
    if new_comment > old_comment or (extra_bare > 0 and lost_lines):
        raise UnmatchedElision(
            "new_string contains an elision marker ('...' or '// ... existing code ...') that "
            "old_string does not have; written to the file it would delete the code it stands "
            "for.",
            hint="Write out the code in full in new_string, or put the same marker in "
            "old_string over the lines it skips.",
        )
