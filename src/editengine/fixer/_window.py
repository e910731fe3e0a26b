"""Which part of a large file the fixer shows the model.

A file over the line threshold is cut to windows of ``context`` lines around the regions
the cascade found closest to the failed search; with no such region, the first lines are
shown. A file (or window) over the prompt's byte budget is cut further by :func:`excerpt`:
fewer regions, less context, and at last long lines shortened around the failed search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from editengine._results import Region


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


# Longest line shown whole at each step, in characters; None: no line is shortened.
_CLIP_STEPS: tuple[int | None, ...] = (None, 4_000, 2_000, 1_000, 500, 240)
_NEEDLE_CHARS = 400
# Looking for old_string's likeliest lines when the cascade found none: its longest line,
# cut to this many characters, must be at least this long and this similar (0-100).
_PROBE_CHARS = 200
_MIN_PROBE_CHARS = 8
_PROBE_CUTOFF = 50
# Larger files are not probed: it costs up to ~0.2 s per MB (most in many mid-length lines).
_PROBE_MAX_LINES = 5_000
_PROBE_MAX_CHARS = 3_000_000


@dataclass(frozen=True)
class Excerpt:
    """The numbered file text a prompt shows, and what was left out."""

    text: str
    spans: tuple[LineSpan, ...]
    windowed: bool
    clipped_lines: int = 0

    @property
    def shown_lines(self) -> int:
        return sum(span.end - span.start + 1 for span in self.spans)


def excerpt(
    policy: WindowPolicy,
    lines: Sequence[str],
    regions: Sequence[Region],
    *,
    needle: str = "",
    max_bytes: int | None = None,
) -> Excerpt | None:
    """The file as the prompt shows it, within ``max_bytes`` UTF-8 bytes if given.

    A file within the policy's line threshold and the byte limit is shown whole. Otherwise
    the windows of :meth:`WindowPolicy.spans` are tried, then fewer regions and less context,
    and if even that is too large, long lines are shortened around the part most like
    ``needle`` (old_string), with a marker saying how many characters are not shown. None
    when not one line of the best region fits.
    """
    count = len(lines)
    if count == 0:
        return Excerpt("(the file is empty)", (), False)
    focus = _Focus(lines, needle)
    whole = (LineSpan(1, count),)
    if not policy.applies_to(count):
        found = _render_within(lines, whole, None, focus, max_bytes, windowed=False)
        if found is not None:
            return found
    if not regions:
        # The cascade found nothing alike (a short quote lost in long lines scores low
        # against whole lines): look for the lines holding the part most like old_string.
        regions = _likely_regions(lines, needle, policy.max_regions)
    for cap in _CLIP_STEPS:
        if cap is not None and not policy.applies_to(count):
            found = _render_within(lines, whole, cap, focus, max_bytes, windowed=False)
            if found is not None:
                return found
        for regions_kept, context in _ladder(policy):
            narrowed = WindowPolicy(policy.threshold_lines, context, regions_kept)
            spans = narrowed.spans(count, regions)
            found = _render_within(lines, spans, cap, focus, max_bytes, windowed=True)
            if found is not None:
                return found
    # The best region alone, shortest lines, is still too large: show its first lines.
    best = WindowPolicy(policy.threshold_lines, 0, 1).spans(count, regions)[0]
    for end in range(best.end - 1, best.start - 1, -1):
        found = _render_within(
            lines, (LineSpan(best.start, end),), _CLIP_STEPS[-1], focus, max_bytes, windowed=True
        )
        if found is not None:
            return found
    return None


def _likely_regions(lines: Sequence[str], needle: str, limit: int) -> list[Region]:
    """Lines holding a stretch most like the longest line of ``needle``, best first."""
    probe = max((line.strip() for line in needle.splitlines()), key=len, default="")
    probe = probe[:_PROBE_CHARS]
    too_costly = len(lines) > _PROBE_MAX_LINES or sum(map(len, lines)) > _PROBE_MAX_CHARS
    if len(probe) < _MIN_PROBE_CHARS or too_costly:
        # Many short lines: the cascade's own similarity search already had its chance.
        return []
    found = process.extract(
        probe, lines, scorer=fuzz.partial_ratio, limit=limit, score_cutoff=_PROBE_CUTOFF
    )
    return [Region(index + 1, index + 1, score / 100.0) for _, score, index in found]


def _ladder(policy: WindowPolicy) -> list[tuple[int, int]]:
    """(regions, context lines) to try, from the policy's own down to one bare region."""
    steps = [(policy.max_regions, policy.context_lines)]
    context = policy.context_lines
    while True:
        steps.append((1, context))
        if context == 0:
            break
        context //= 2
    return list(dict.fromkeys(steps))


def _render_within(
    lines: Sequence[str],
    spans: tuple[LineSpan, ...],
    cap: int | None,
    focus: _Focus,
    max_bytes: int | None,
    *,
    windowed: bool,
) -> Excerpt | None:
    if max_bytes is not None and cap is None:
        # Cheap lower bound first: a window far over the limit is not rendered at all.
        rough = sum(len(lines[n - 1]) for span in spans for n in range(span.start, span.end + 1))
        if rough > max_bytes:
            return None
    text, clipped = _numbered(lines, spans, cap, focus)
    if max_bytes is not None and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return None
    return Excerpt(text, spans, windowed, clipped)


def _numbered(
    lines: Sequence[str], spans: Sequence[LineSpan], cap: int | None, focus: _Focus
) -> tuple[str, int]:
    width = len(str(len(lines)))
    out: list[str] = []
    clipped = 0
    previous_end = 0
    for span in spans:
        if span.start > previous_end + 1:
            out.append(f"⋮ lines {previous_end + 1}-{span.start - 1} not shown")
        for number in range(span.start, span.end + 1):
            line = lines[number - 1]
            if cap is not None and len(line) > cap:
                line = _shortened(line, cap, focus.column(number - 1))
                clipped += 1
            out.append(f"{number:>{width}}\t{line}")
        previous_end = span.end
    if previous_end < len(lines):
        out.append(f"⋮ lines {previous_end + 1}-{len(lines)} not shown")
    return "\n".join(out), clipped


def _shortened(line: str, cap: int, center: int) -> str:
    start = max(0, min(center - cap // 2, len(line) - cap))
    end = start + cap
    left = f"{CLIP_MARK_OPEN}{start:,} characters not shown{CLIP_MARK_CLOSE}" if start else ""
    hidden = len(line) - end
    right = f"{CLIP_MARK_OPEN}{hidden:,} characters not shown{CLIP_MARK_CLOSE}" if hidden else ""
    return left + line[start:end] + right


CLIP_MARK_OPEN = "⟪"
CLIP_MARK_CLOSE = "⟫"


class _Focus:
    """Where in a long line the part most like old_string is (computed once per line)."""

    def __init__(self, lines: Sequence[str], needle: str) -> None:
        self._lines = lines
        self._needle = needle.strip()[:_NEEDLE_CHARS]
        self._columns: dict[int, int] = {}

    def column(self, index: int) -> int:
        if index not in self._columns:
            self._columns[index] = self._find(self._lines[index])
        return self._columns[index]

    def _find(self, line: str) -> int:
        if not self._needle:
            return 0
        exact = line.find(self._needle)
        if exact >= 0:
            return exact + len(self._needle) // 2
        alignment = fuzz.partial_ratio_alignment(self._needle, line)
        if alignment is None or alignment.score <= 0:
            return 0
        return (alignment.dest_start + alignment.dest_end) // 2
