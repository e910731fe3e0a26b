"""Line-level machinery shared by the tolerant tiers.

``LineView`` indexes a text's lines once; ``find_line_blocks`` finds every run of file
lines whose keys equal old_string's keys in linear time; ``LineBlock`` turns a found run into
a :class:`Match` whose rewrite re-indents new_string into the file's frame.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache
from itertools import accumulate, repeat
from operator import add

from rapidfuzz.distance import Indel

from editengine.matching import search
from editengine.matching.base import Match
from editengine.text import indent_width, leading_whitespace

KeyFunction = Callable[[str], str]
# (new line, the old line it rewrites, that line in the file) -> new line to write
FixLine = Callable[[str, str, str], str]


def strip_key(line: str) -> str:
    return line.strip()


# Whole-line places of one key checked one by one before the view's line index takes over.
_INDEXED_AFTER = 256


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
        self.memo: dict[tuple[object, ...], object] = {}

    def __len__(self) -> int:
        return len(self.lines)

    @cached_property
    def _bounds(self) -> list[int]:
        """Offset of each line's first character, and one past the text's end: one C pass,
        made only when an offset is asked for (a miss often never asks)."""
        return list(accumulate(map(add, map(len, self.lines), repeat(1)), initial=0))

    @property
    def real_lines(self) -> int:
        """Lines that exist in the file: the empty string after a final newline is not one,
        and a quote's blank line matched there would add a line to the file."""
        return len(self.lines) - 1 if self.text.endswith("\n") else len(self.lines)

    def start(self, number: int) -> int:
        """Offset of line ``number``'s first character (0-based line)."""
        return self._bounds[number]

    def line_end(self, number: int) -> int:
        """Offset just past line ``number``'s text (before its newline)."""
        return self._bounds[number + 1] - 1

    @cached_property
    def starts(self) -> list[int]:
        """Offset of each line's first character."""
        return self._bounds[:-1]

    def line_of_offset(self, offset: int) -> int:
        """0-based line holding ``offset``."""
        return bisect_right(self._bounds, offset, 0, len(self.lines)) - 1

    @cached_property
    def stripped(self) -> list[str]:
        return list(map(str.strip, self.lines))

    @cached_property
    def stripped_index(self) -> dict[str, list[int]]:
        index: dict[str, list[int]] = {}
        for number, key in enumerate(self.stripped):
            index.setdefault(key, []).append(number)
        return index

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
        return None if found is None else list(found)  # type: ignore[call-overload]

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


@lru_cache(maxsize=4)
def line_view(text: str) -> LineView:
    """The (memoised) view of ``text``: tiers of one cascade run share it."""
    return LineView(text)


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
        for _ in range(head):
            if len(new_lines) > 1 and not new_lines[0].strip():
                new_lines.pop(0)
        for _ in range(tail):
            if len(new_lines) > 1 and not new_lines[-1].strip():
                new_lines.pop()
        return "\n".join(new_lines) + ending

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
        # Already built for a quote of many segments: a lookup instead of a scan each.
        anchor_lines = view.stripped_index.get(anchor, [])
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


def outside_block_comments(lines: Iterable[str]) -> list[str]:
    """``lines`` that indent code: not the inner lines of ``/* ... */`` comments (their
    whitespace aligns prose under the opening), and not lines led by a single space
    (`` * `` continuation lines and other alignment: never a level)."""
    out: list[str] = []
    inside = False
    for line in lines:
        if inside:
            inside = "*/" not in line
            continue
        if leading_whitespace(line) != " ":
            out.append(line)
        opened = line.rfind("/*")
        inside = opened != -1 and "*/" not in line[opened + 2 :]
    return out


@dataclass(frozen=True)
class IndentStyle:
    """How a text indents: with tabs, or with ``width`` spaces a level."""

    uses_tabs: bool
    width: int

    @classmethod
    def of(cls, lines: Sequence[str], fallback: IndentStyle | None = None) -> IndentStyle:
        tab_lines = space_lines = 0
        steps: Counter[int] = Counter()
        previous = 0
        for line in outside_block_comments(lines):
            if not line.strip():
                continue
            whitespace = leading_whitespace(line)
            if whitespace.startswith("\t"):
                tab_lines += 1
            elif whitespace.startswith(" "):
                space_lines += 1
            width = len(whitespace.expandtabs(4))
            if width != previous:
                steps[abs(width - previous)] += 1
            previous = width
        if tab_lines > space_lines:
            return cls(True, 1)
        plausible = [(count, -step) for step, count in steps.items() if 2 <= step <= 8]
        if plausible:
            return cls(False, -max(plausible)[1])
        if fallback is not None and not (fallback.uses_tabs and space_lines):
            return fallback
        # Space-indented lines with no telling step: four columns a level, which is also
        # what a tab stands for when tabs and spaces are compared.
        return cls(False, 4)

    def levels(self, whitespace: str) -> float:
        """Indentation depth of ``whitespace`` in levels of this style."""
        if self.uses_tabs:
            tabs = len(whitespace) - len(whitespace.lstrip("\t"))
            rest = whitespace[tabs:]
            return tabs + indent_width(rest) / 4
        return indent_width(whitespace) / self.width

    def render(self, levels: float) -> str:
        if levels <= 0:
            return ""
        if self.uses_tabs:
            whole = math.floor(levels + 1e-9)
            return "\t" * whole + " " * round((levels - whole) * 4)
        return " " * round(levels * self.width)


COLUMNS = IndentStyle(False, 1)


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
        new_lines = with_quoted_padding(self.old.lines, body.split("\n"))
        aligned = realign_lines(
            self.old.lines,
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


def realign_lines(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    key: KeyFunction,
    file_style: IndentStyle,
    fix_line: FixLine | None = None,
) -> list[str]:
    """Write ``new_lines`` where ``old_lines`` matched ``file_lines`` (paired one to one).

    The model may have quoted old_string at the wrong depth, with tabs for spaces, or with
    every line flattened, and new_string in the same wrong frame or already in the file's.
    Each new line is moved by the *difference* between the old line it stands for and that
    line in the file, so its relative indentation is kept and nothing is indented twice; when
    new_string is already at the file's depth it is not moved at all. New lines equal to an
    old line (by ``key``) and left at its depth are copied from the file byte for byte, so
    what the edit did not mean to change does not change. ``fix_line(new, old, file)``
    may repair a rewritten line from how its old line differs from the file's.
    """
    model_style = _model_style(old_lines, file_lines, new_lines, key, file_style)
    if not (model_style.uses_tabs or file_style.uses_tabs):
        # Spaces on both sides: count columns. Levels only translate tabs to spaces, and a
        # guessed level width would turn a 2-column shift into a 4-column one.
        model_style = file_style = COLUMNS

    def model_levels(line: str) -> float:
        return model_style.levels(leading_whitespace(line))

    def file_levels(line: str) -> float:
        return file_style.levels(leading_whitespace(line))

    shifts = _line_shifts(old_lines, file_lines, model_levels, file_levels, key)
    common = Counter(shifts.values()).most_common(1)[0][0] if shifts else 0.0
    pairing = Correspondence.of(
        [key(line) for line in old_lines], [key(line) for line in new_lines]
    )
    equal_pairs, counterpart = pairing.kept, pairing.counterpart
    whole = _first_line_lost_its_indent(
        old_lines, file_lines, new_lines, pairing, model_levels, file_levels
    )
    if whole is not None:
        shifts, common, new_in_file_frame = _Shifts(), whole, False
    else:
        new_in_file_frame = _new_is_in_file_frame(
            old_lines, file_lines, new_lines, equal_pairs, model_levels, file_levels, shifts, common
        )

    def depth_source(index: int) -> int:
        """The old line whose shift moves new line ``index``: an inserted line at the depth
        of the line after it (and not of the one before) belongs with the line after."""
        before, after = counterpart[index], pairing.following.get(index)
        if after is None or after not in shifts:
            return before
        depth = model_levels(new_lines[index])
        if _close(depth, model_levels(old_lines[after])) and not _close(
            depth, model_levels(old_lines[before])
        ):
            return after
        return before

    out: list[str] = []
    for index, line in enumerate(new_lines):
        if not line.strip():
            # A blank line the file already has stays as the file has it, whitespace and all.
            kept_blank = pairing.kept_blank.get(index)
            blank = (
                file_lines[kept_blank]
                if kept_blank is not None and kept_blank < len(file_lines)
                else ""
            )
            out.append(blank if not blank.strip() else "")
            continue
        shift = 0.0 if new_in_file_frame else shifts.get(depth_source(index), common)
        rewritten_from = pairing.rewritten.get(index)
        if (
            rewritten_from is not None
            and rewritten_from in shifts
            and not _close(shifts[rewritten_from], common)
            and _close(model_levels(line), file_levels(file_lines[rewritten_from]))
        ):
            # This line alone was quoted at an odd depth and its rewrite is already at the
            # file's: moving it by the odd shift would push it off.
            shift = 0.0
        elif rewritten_from is not None and rewritten_from not in shifts:
            # A misquoted line rewritten at the misquote's own depth: the misquote's depth
            # was part of the mistake, so move the line to the file's.
            misquoted, actual = old_lines[rewritten_from], file_lines[rewritten_from]
            if (
                misquoted.strip()
                and actual.strip()
                and _close(model_levels(line), model_levels(misquoted))
            ):
                shift = file_levels(actual) - model_levels(misquoted)
        target = max(model_levels(line) + shift, 0.0)
        old_index = equal_pairs.get(index)
        if old_index is not None:
            file_line = file_lines[old_index]
            if _close(file_levels(file_line), target) or _close(
                model_levels(line), model_levels(old_lines[old_index])
            ):
                out.append(file_line)
                continue
        if fix_line is not None and index in pairing.rewritten:
            old_index = pairing.rewritten[index]
            line = fix_line(line, old_lines[old_index], file_lines[old_index])
        if shift == 0 and model_style == file_style:
            out.append(line)  # nothing to move: keep its whitespace as written, tabs and all
            continue
        if rewritten_from is not None:
            source_ws = leading_whitespace(file_lines[rewritten_from])
            if leading_whitespace(new_lines[index]) == leading_whitespace(
                old_lines[rewritten_from]
            ) and _close(file_style.levels(source_ws), target):
                # A rewrite at its line's own depth takes that line's whitespace byte for
                # byte: a tab followed by alignment spaces is not re-rendered as two tabs.
                out.append(source_ws + line.lstrip(" \t"))
                continue
        out.append(file_style.render(target) + line.lstrip(" \t"))
    return out


def _model_style(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    key: KeyFunction,
    file_style: IndentStyle,
) -> IndentStyle:
    """How the model indented, read from the lines that show it.

    Lines quoted with the file's own whitespace (a block comment's aligned text, say), and
    their copies in new_string, say nothing about the model's indentation and would outvote
    the lines that do: the quoted lines it re-indented and the lines it wrote.
    """
    paired = [
        (old, file)
        for old, file in zip(old_lines, file_lines)
        if old.strip() and file.strip() and key(old) == key(file)
    ]
    as_in_file = {key(old) for old, file in paired if old == file}
    evidence = [old for old, file in paired if old != file]
    evidence += [line for line in new_lines if line.strip() and key(line) not in as_in_file]
    if evidence:
        return IndentStyle.of(evidence, fallback=file_style)
    if paired:
        return file_style  # every line quoted as the file has it: the same frame
    return IndentStyle.of([*old_lines, *new_lines], fallback=file_style)


class _Shifts(dict[int, float]):
    """old line index -> (file depth - old depth); a missing index gets the nearest known
    (the lower one on a tie)."""

    def get(self, index: int, default: float = 0.0) -> float:  # type: ignore[override]
        if index in self:
            return self[index]
        if not self:
            return default
        # Bisect the sorted indexes: a min over every key per line made a long quote with
        # many blank lines quadratic.
        known = self._sorted()
        at = bisect_left(known, index)
        if at == 0:
            return self[known[0]]
        if at == len(known):
            return self[known[-1]]
        below, above = known[at - 1], known[at]
        return self[below] if index - below <= above - index else self[above]

    def _sorted(self) -> list[int]:
        cached = self.__dict__.get("_keys")
        if cached is None or len(cached) != len(self):
            cached = self.__dict__["_keys"] = sorted(self)
        return cached


def _line_shifts(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
    key: KeyFunction,
) -> _Shifts:
    """Per paired line, how much deeper the file has it; only lines quoted right count (a
    misquoted line's indentation may be part of the misquote)."""
    shifts = _Shifts()
    for index, (old_line, file_line) in enumerate(zip(old_lines, file_lines)):
        if old_line.strip() and file_line.strip() and key(old_line) == key(file_line):
            shifts[index] = round(file_levels(file_line) - model_levels(old_line), 4)
    return shifts


@dataclass(frozen=True)
class Correspondence:
    """Which old line each new line stands for.

    ``kept``: new lines equal to an old line (non-blank only). ``rewritten``: new lines
    that replace an old line one for one. ``counterpart``: for every new line, the old line
    whose depth it follows — itself, the line it replaces, or the line before an insertion.
    ``following``: for an inserted line, the old line after the insertion, if any.
    ``kept_blank``: blank new lines that stand where old_string had a blank line.
    """

    kept: dict[int, int]
    rewritten: dict[int, int]
    counterpart: list[int]
    following: dict[int, int]
    kept_blank: dict[int, int]

    @classmethod
    def of(cls, old_keys: Sequence[str], new_keys: Sequence[str]) -> Correspondence:
        kept: dict[int, int] = {}
        rewritten: dict[int, int] = {}
        counterpart = [0] * len(new_keys)
        following: dict[int, int] = {}
        kept_blank: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in line_opcodes(old_keys, new_keys):
            for j in range(j1, j2):
                if tag == "equal":
                    counterpart[j] = i1 + (j - j1)
                    if new_keys[j]:
                        kept[j] = counterpart[j]
                    else:
                        kept_blank[j] = counterpart[j]
                elif tag == "replace":
                    counterpart[j] = min(i1 + (j - j1), i2 - 1)
                    if i2 - i1 == j2 - j1:
                        rewritten[j] = counterpart[j]
                else:  # insert: follow the line before it, or the first line
                    counterpart[j] = max(i1 - 1, 0)
                    if i1 < len(old_keys):
                        following[j] = i1
            if tag == "replace" and i2 - i1 != j2 - j1:
                # Lines were added or dropped as well as rewritten: pair by likeness, not by
                # position, or a line inserted before a rewrite would take its old line.
                for j, i in _pair_by_likeness(old_keys[i1:i2], new_keys[j1:j2]):
                    rewritten[j1 + j] = i1 + i
        return cls(kept, rewritten, counterpart, following, kept_blank)


# difflib's matcher grows with the cube of the lines on code with many repeated lines
# (blank lines, "}", "return None"): 0.5 s at 1,000 lines. Above this many lines a side,
# a bit-parallel LCS in C (rapidfuzz) aligns the lines instead.
_DIFFLIB_MAX_LINES = 300
# A rewritten line is looked for among this many old lines after the last one paired: a
# hunk rewriting thousands of lines would otherwise compare every pair.
_LIKENESS_WINDOW = 64


def line_opcodes(
    old_keys: Sequence[str], new_keys: Sequence[str]
) -> list[tuple[str, int, int, int, int]]:
    """``SequenceMatcher.get_opcodes()`` of two line lists, in near-linear time when long."""
    if max(len(old_keys), len(new_keys)) <= _DIFFLIB_MAX_LINES:
        matcher = SequenceMatcher(None, list(old_keys), list(new_keys), autojunk=False)
        return list(matcher.get_opcodes())
    out: list[tuple[str, int, int, int, int]] = []
    changed: list[int] | None = None  # [i1, i2, j1, j2] of the current run of changes
    for op in Indel.opcodes(list(old_keys), list(new_keys)):
        if op.tag != "equal":
            if changed is None:
                changed = [op.src_start, op.src_end, op.dest_start, op.dest_end]
            else:
                changed[1], changed[3] = op.src_end, op.dest_end
            continue
        if changed is not None:
            out.append(_change(*changed))
            changed = None
        out.append(("equal", op.src_start, op.src_end, op.dest_start, op.dest_end))
    if changed is not None:
        out.append(_change(*changed))
    return out


def _change(i1: int, i2: int, j1: int, j2: int) -> tuple[str, int, int, int, int]:
    tag = "replace" if i2 > i1 and j2 > j1 else "delete" if i2 > i1 else "insert"
    return (tag, i1, i2, j1, j2)


def _pair_by_likeness(old_keys: Sequence[str], new_keys: Sequence[str]) -> list[tuple[int, int]]:
    """(new, old) index pairs, in order, of lines at least 60% alike (best first-come)."""
    pairs: list[tuple[int, int]] = []
    start = 0
    for j, new_key in enumerate(new_keys):
        if not new_key:
            continue
        scored = [
            (Indel.normalized_similarity(old_keys[i], new_key), -i, i)
            for i in range(start, min(len(old_keys), start + _LIKENESS_WINDOW))
            if old_keys[i]
        ]
        best = max(scored, default=None)
        if best is not None and best[0] >= 0.6:
            pairs.append((j, best[2]))
            start = best[2] + 1
    return pairs


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _first_line_lost_its_indent(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    pairing: Correspondence,
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
) -> float | None:
    """The file's depth for old_string's first line, when new_string moves as a whole by it.

    A quote copied from the middle of a line often loses the first line's indentation
    only: ``def f():`` at column 0, the body at the file's depth. When new_string starts at
    column 0 too and every later line it keeps or rewrites sits exactly that much shallower
    than its old line, new_string was written in one consistent frame from column 0, and
    moving only its first line would leave the body shallower than its header.
    """
    if not (old_lines and new_lines and old_lines[0].strip() and file_lines[0].strip()):
        return None
    depth = file_levels(file_lines[0])
    if _close(depth, 0.0) or not new_lines[0].strip():
        return None
    if not (_close(model_levels(old_lines[0]), 0.0) and _close(model_levels(new_lines[0]), 0.0)):
        return None
    later = [(o, f) for o, f in zip(old_lines[1:], file_lines[1:]) if o.strip() and f.strip()]
    if not later or not all(_close(model_levels(o), file_levels(f)) for o, f in later):
        return None
    stands_for = {**pairing.rewritten, **pairing.kept}
    pairs = [
        (new_lines[n], old_lines[o])
        for n, o in stands_for.items()
        if n > 0 and o > 0 and new_lines[n].strip() and old_lines[o].strip()
    ]
    if pairs and all(_close(model_levels(n) + depth, model_levels(o)) for n, o in pairs):
        return depth
    return None


def _new_is_in_file_frame(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    equal_pairs: dict[int, int],
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
    shifts: _Shifts,
    shift: float,
) -> bool:
    """Was new_string written at the file's depth even though old_string was not?

    Kept lines vote, each with its own line's shift: a line quoted at the file's depth
    (a column-0 fence, say) says nothing about which frame new_string is in.
    """
    if _close(shift, 0.0):
        return False
    votes_file = votes_old = 0
    for new_index, old_index in equal_pairs.items():
        own_shift = shifts.get(old_index, shift)
        if _close(own_shift, 0.0):
            continue
        file_level = file_levels(file_lines[old_index])
        new_level = model_levels(new_lines[new_index])
        if _close(new_level, file_level):
            votes_file += 1
        elif _close(new_level + own_shift, file_level):
            votes_old += 1
    if votes_file or votes_old:
        return votes_file > votes_old
    first_new = next((line for line in new_lines if line.strip()), None)
    first_pair = next(
        ((o, f) for o, f in zip(old_lines, file_lines) if o.strip() and f.strip()), None
    )
    if first_new is None or first_pair is None:
        return False
    old_line, file_line = first_pair
    new_level = model_levels(first_new)
    return _close(new_level, file_levels(file_line)) and not _close(
        new_level, model_levels(old_line)
    )
