"""Exact substring: the model quoted the file verbatim."""

from __future__ import annotations

from typing import ClassVar

from editengine.matching.base import Match
from editengine.matching.lines import LineBlock, OldLines, line_view


class ExactTier:
    """Forgives nothing: every non-overlapping verbatim occurrence of old_string.

    A quote that starts at a line's first non-blank character and runs to a line's end is
    a quote of whole lines that left out the first line's indentation: new_string is then
    written line by line in the file's frame (see ``LineBlock``), not pasted after the
    indentation, where a new_string carrying its own indentation would be indented twice.
    """

    name: ClassVar[str] = "exact"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        matches: list[Match] = []
        if not old:
            return matches
        position = content.find(old)
        while position != -1:
            end = position + len(old)
            matches.append(_whole_lines(content, old, position, end) or Match(position, end))
            position = content.find(old, end)
        return matches


def _whole_lines(content: str, old: str, start: int, end: int) -> Match | None:
    line_start = content.rfind("\n", 0, start) + 1
    if line_start == start or content[line_start:start].strip(" \t") or old[0] in " \t":
        return None
    if not (old.endswith("\n") or end == len(content) or content[end] == "\n"):
        return None
    view = line_view(content)
    first = view.line_of_offset(line_start)
    old_lines = OldLines.of(old)
    block = LineBlock(view, first, len(old_lines.lines), old_lines)
    match = block.to_match()
    if match.end != end:
        return None
    return match
