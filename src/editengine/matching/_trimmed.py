"""Line-trimmed and boundary-trimmed tiers: whitespace at the ends of lines or of the quote."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from editengine.matching._base import Match, refuse_past_max_places
from editengine.matching._lines import (
    LineBlock,
    OldLines,
    find_line_blocks,
    line_view,
    strip_key,
)
from editengine.matching._realign import FixLine, KeyFunction


def line_block_matches(
    content: str,
    old: str,
    *,
    tier: str,
    key: KeyFunction = strip_key,
    transform_new: Callable[[str], str] | None = None,
    fix_line: FixLine | None = None,
) -> list[Match]:
    """Every run of whole lines equal to old_string's lines under ``key``, as matches;
    :class:`TooManyPlaces` (for ``tier``) past :data:`MAX_PLACES` of them."""
    old_lines = OldLines.of(old)
    view = line_view(content)
    old_keys = [key(line) for line in old_lines.lines]
    firsts = find_line_blocks(view, old_keys, key)
    refuse_past_max_places(tier, firsts, len(old_keys))
    return [
        LineBlock(view, first, len(old_keys), old_lines, key, fix_line=fix_line).to_match(
            transform_new
        )
        for first in firsts
    ]


class LineTrimmedTier:
    """Forgives wrong indentation, tabs for spaces and trailing whitespace on each line.

    Lines are compared after stripping; new_string is re-indented by the difference between
    old_string's depth and the file's, and lines it kept are copied from the file verbatim.
    """

    name: ClassVar[str] = "line_trimmed"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        matches = line_block_matches(content, old, tier=self.name)
        if matches:
            # A quote whose first line may start mid-line and whose last may stop mid-line
            # also fits wherever those lines merely end and begin that way: a second place.
            matches.extend(_partial_line_blocks(content, old, {m.start for m in matches}))
        return matches


def _partial_line_blocks(content: str, old: str, taken: set[int]) -> list[Match]:
    old_lines = OldLines.of(old)
    keys = [line.strip() for line in old_lines.lines]
    if len(keys) == 1 and keys[0]:
        return _substring_elsewhere(content, keys[0], taken)
    if len(keys) < 2 or not keys[0] or not keys[-1]:
        return []
    view = line_view(content)
    found: list[Match] = []
    position = content.find(keys[-1])
    while position != -1:
        if content[content.rfind("\n", 0, position) + 1 : position].strip():
            position = content.find(keys[-1], position + 1)
            continue  # the last quoted line must begin its file line
        last = view.line_of_offset(position)
        first = last - len(keys) + 1
        if first >= 0 and view.start(first) not in taken:
            file_keys = [line.strip() for line in view.lines[first : last + 1]]
            if (
                file_keys[-1].startswith(keys[-1])
                and file_keys[0].endswith(keys[0])
                and file_keys[1:-1] == keys[1:-1]
            ):
                found.append(Match(view.start(first), view.line_end(last)))
        position = content.find(keys[-1], view.line_end(last) + 1)
    return found


def _strip_blank_edges(text: str) -> tuple[str, int, int]:
    """``text`` without whitespace-only lines at either end; and how many went at each end."""
    lines = text.split("\n")
    head = 0
    while head < len(lines) and not lines[head].strip():
        head += 1
    tail = len(lines)
    while tail > head and not lines[tail - 1].strip():
        tail -= 1
    return "\n".join(lines[head:tail]), head, len(lines) - tail


class BoundaryTrimTier:
    """Forgives blank lines and stray whitespace the model added around old_string.

    The same blank lines are taken off new_string when it has them, so the edit does not
    insert the padding it failed to find.
    """

    name: ClassVar[str] = "boundary_trim"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        # A single final newline is part of a whole-line quote, not padding.
        final_newline = "\n" if old.endswith("\n") else ""
        core, head, tail = _strip_blank_edges(old[: len(old) - len(final_newline)])
        if not core or (head == 0 and tail == 0 and core == core.strip()):
            return []
        core += final_newline

        def trim_new(new: str) -> str:
            ending = "\n" if new.endswith("\n") else ""
            trimmed, new_head, new_tail = _strip_blank_edges(new[: len(new) - len(ending)])
            if new_head >= head and new_tail >= tail:
                return trimmed + ending
            return new

        matches = line_block_matches(content, core, tier=self.name, transform_new=trim_new)
        if matches or "\n" in core.rstrip("\n"):
            return matches
        return _substring_matches(content, core.strip(), trim_new)


def _substring_matches(
    content: str, needle: str, transform_new: Callable[[str], str]
) -> list[Match]:
    matches: list[Match] = []
    position = content.find(needle)
    while position != -1:
        end = position + len(needle)
        matches.append(Match(position, end, 1.0, lambda new: transform_new(new).strip()))
        position = content.find(needle, end)
    return matches


def _substring_elsewhere(content: str, key: str, taken: set[int]) -> list[Match]:
    """Where a one-line quote stands inside a longer line, between word boundaries."""
    view = line_view(content)
    found: list[Match] = []
    position = content.find(key)
    while position != -1:
        end = position + len(key)
        line_start = view.start(view.line_of_offset(position))
        whole_line = line_start in taken and not content[line_start:position].strip()
        before_ok = not (position and _word(content[position - 1]) and _word(key[0]))
        after_ok = not (end < len(content) and _word(content[end]) and _word(key[-1]))
        if not whole_line and before_ok and after_ok:
            found.append(Match(position, end))
        position = content.find(key, position + 1)
    return found


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"
