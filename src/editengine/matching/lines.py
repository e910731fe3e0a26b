"""Line-level machinery shared by the tolerant tiers.

``LineView`` indexes a text's lines once; ``find_line_blocks`` finds every run of file
lines whose keys equal old_string's keys in linear time; ``LineBlock`` turns a found run into
a :class:`Match` whose rewrite re-indents new_string into the file's frame.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from editengine.matching.base import Match
from editengine.text import indent_width, leading_whitespace

KeyFunction = Callable[[str], str]


def strip_key(line: str) -> str:
    return line.strip()


class LineView:
    """A text split into lines, with offsets and lazily built indexes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        starts = [0] * len(self.lines)
        offset = 0
        for number, line in enumerate(self.lines):
            starts[number] = offset
            offset += len(line) + 1
        self.starts = starts

    def __len__(self) -> int:
        return len(self.lines)

    def line_end(self, number: int) -> int:
        """Offset just past line ``number``'s text (before its newline)."""
        return self.starts[number] + len(self.lines[number])

    @cached_property
    def stripped(self) -> list[str]:
        return [line.strip() for line in self.lines]

    @cached_property
    def stripped_index(self) -> dict[str, list[int]]:
        index: dict[str, list[int]] = {}
        for number, key in enumerate(self.stripped):
            index.setdefault(key, []).append(number)
        return index

    def keys(self, key: KeyFunction) -> list[str]:
        if key is strip_key:
            return self.stripped
        return [key(line) for line in self.lines]

    @cached_property
    def indent(self) -> IndentStyle:
        return IndentStyle.of(self.lines)

    def line_of_offset(self, offset: int) -> int:
        """0-based line holding ``offset``."""
        low, high = 0, len(self.starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low


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


def find_line_blocks(view: LineView, old_keys: Sequence[str], key: KeyFunction) -> list[int]:
    """0-based first lines of every run of file lines whose keys equal ``old_keys``.

    Anchors on the rarest non-blank key, so the cost is the occurrences of that key times the
    length of old_string, never the file length times it.
    """
    if not any(old_keys) or len(old_keys) > len(view):
        return []
    if key is strip_key:
        index = view.stripped_index
        file_keys = view.stripped
    else:
        file_keys = view.keys(key)
        index = {}
        for number, file_key in enumerate(file_keys):
            index.setdefault(file_key, []).append(number)
    anchor_offset = min(
        (offset for offset, value in enumerate(old_keys) if value),
        key=lambda offset: len(index.get(old_keys[offset], ())),
    )
    starts: list[int] = []
    size = len(old_keys)
    for position in index.get(old_keys[anchor_offset], ()):
        start = position - anchor_offset
        if start < 0 or start + size > len(file_keys):
            continue
        if all(file_keys[start + k] == old_keys[k] for k in range(size)):
            starts.append(start)
    return starts


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
        for line in lines:
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
        if fallback is not None:
            return fallback
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


@dataclass(frozen=True)
class LineBlock:
    """A run of file lines ``[first, first + count)`` matched by old_string's lines."""

    view: LineView
    first: int
    count: int
    old: OldLines
    key: KeyFunction = strip_key
    similarity: float = 1.0

    def to_match(self, transform_new: Callable[[str], str] | None = None) -> Match:
        start = self.view.starts[self.first]
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
        new_lines = body.split("\n")
        aligned = realign_lines(
            self.old.lines, self.file_lines, new_lines, self.key, self.view.indent
        )
        text = "\n".join(aligned)
        if self.old.trailing_newline and self.first + self.count < len(self.view):
            return text + "\n"  # the span ate one newline; give it back even if new forgot it
        return text + "\n" if ends_with_newline else text


def realign_lines(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    key: KeyFunction,
    file_style: IndentStyle,
) -> list[str]:
    """Write ``new_lines`` where ``old_lines`` matched ``file_lines`` (paired one to one).

    The model may have quoted old_string at the wrong depth, with tabs for spaces, or with
    every line flattened, and new_string in the same wrong frame or already in the file's.
    Each new line is moved by the *difference* between the old line it stands for and that
    line in the file, so its relative indentation is kept and nothing is indented twice; when
    new_string is already at the file's depth it is not moved at all. New lines equal to an
    old line (by ``key``) and left at its depth are copied from the file byte for byte, so
    what the edit did not mean to change does not change.
    """
    model_style = IndentStyle.of([*old_lines, *new_lines], fallback=file_style)

    def model_levels(line: str) -> float:
        return model_style.levels(leading_whitespace(line))

    def file_levels(line: str) -> float:
        return file_style.levels(leading_whitespace(line))

    shifts = _line_shifts(old_lines, file_lines, model_levels, file_levels)
    common = Counter(shifts.values()).most_common(1)[0][0] if shifts else 0.0
    old_keys = [key(line) for line in old_lines]
    new_keys = [key(line) for line in new_lines]
    equal_pairs, counterpart = _correspondence(old_keys, new_keys)
    new_in_file_frame = _new_is_in_file_frame(
        old_lines, file_lines, new_lines, equal_pairs, model_levels, file_levels, common
    )
    out: list[str] = []
    for index, line in enumerate(new_lines):
        if not line.strip():
            out.append("")
            continue
        shift = 0.0 if new_in_file_frame else shifts.get(counterpart[index], common)
        target = max(model_levels(line) + shift, 0.0)
        old_index = equal_pairs.get(index)
        if old_index is not None:
            file_line = file_lines[old_index]
            if _close(file_levels(file_line), target) or _close(
                model_levels(line), model_levels(old_lines[old_index])
            ):
                out.append(file_line)
                continue
        out.append(file_style.render(target) + line.lstrip(" \t"))
    return out


class _Shifts(dict):
    """old line index -> (file depth - old depth); a missing index gets the nearest known."""

    def get(self, index: int, default: float = 0.0) -> float:  # type: ignore[override]
        if index in self:
            return self[index]
        if not self:
            return default
        nearest = min(self, key=lambda known: (abs(known - index), known))
        return self[nearest]


def _line_shifts(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
) -> _Shifts:
    shifts = _Shifts()
    for index, (old_line, file_line) in enumerate(zip(old_lines, file_lines)):
        if old_line.strip() and file_line.strip():
            shifts[index] = round(file_levels(file_line) - model_levels(old_line), 4)
    return shifts


def _correspondence(
    old_keys: Sequence[str], new_keys: Sequence[str]
) -> tuple[dict[int, int], list[int]]:
    """Which old line each new line stands for.

    Returns the kept lines (new index -> old index, non-blank only) and, for every new
    line, the old line whose depth it should follow: itself when kept, the line it
    replaces, or the line before an insertion.
    """
    matcher = SequenceMatcher(None, list(old_keys), list(new_keys), autojunk=False)
    kept: dict[int, int] = {}
    counterpart = [0] * len(new_keys)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                counterpart[j] = i1 + (j - j1)
                if new_keys[j]:
                    kept[j] = counterpart[j]
            elif tag == "replace":
                counterpart[j] = min(i1 + (j - j1), i2 - 1)
            else:  # insert: follow the line before it, or the first line
                counterpart[j] = max(i1 - 1, 0)
    return kept, counterpart


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _new_is_in_file_frame(
    old_lines: Sequence[str],
    file_lines: Sequence[str],
    new_lines: Sequence[str],
    equal_pairs: dict[int, int],
    model_levels: Callable[[str], float],
    file_levels: Callable[[str], float],
    shift: float,
) -> bool:
    """Was new_string written at the file's depth even though old_string was not?"""
    if _close(shift, 0.0):
        return False
    votes_file = votes_old = 0
    for new_index, old_index in equal_pairs.items():
        file_level = file_levels(file_lines[old_index])
        new_level = model_levels(new_lines[new_index])
        if _close(new_level, file_level):
            votes_file += 1
        elif _close(new_level + shift, file_level):
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
