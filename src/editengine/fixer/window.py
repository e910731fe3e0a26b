"""Which lines of a large file the fixer shows the model.

A large file is cut to windows of ``context`` lines around the regions the cascade found
closest to the failed search; with no such region, the first lines are shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from editengine.errors import Region


@dataclass(frozen=True)
class LineSpan:
    """Lines ``start``..``end`` (1-based, inclusive)."""

    start: int
    end: int


@dataclass(frozen=True)
class WindowPolicy:
    """When to window, and how much to show.

    ``threshold_lines``: files with more lines than this are windowed.
    ``context_lines``: lines shown before and after each region.
    ``max_regions``: how many of the closest regions (most similar first) get a window.
    """

    threshold_lines: int = 400
    context_lines: int = 40
    max_regions: int = 3

    def applies_to(self, line_count: int) -> bool:
        return line_count > self.threshold_lines

    def spans(self, line_count: int, regions: Sequence[Region]) -> tuple[LineSpan, ...]:
        """Sorted, non-overlapping spans to show for a file of ``line_count`` lines."""
        if line_count <= 0:
            return ()
        ranked = sorted(regions, key=lambda region: -region.similarity)
        wanted = [
            LineSpan(
                max(1, region.start_line - self.context_lines),
                min(line_count, max(region.start_line, region.end_line) + self.context_lines),
            )
            for region in ranked
            if 1 <= region.start_line <= line_count
        ][: self.max_regions]
        if not wanted:
            wanted = [LineSpan(1, min(line_count, 2 * self.context_lines + 1))]
        return _merged(wanted)


def _merged(spans: list[LineSpan]) -> tuple[LineSpan, ...]:
    merged: list[LineSpan] = []
    for span in sorted(spans, key=lambda span: span.start):
        if merged and span.start <= merged[-1].end + 1:
            last = merged.pop()
            span = LineSpan(last.start, max(last.end, span.end))
        merged.append(span)
    return tuple(merged)
