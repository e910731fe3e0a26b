"""Where old_string most nearly is: what a NoMatch tells the agent."""

from __future__ import annotations

from rapidfuzz import fuzz

from editengine._results import Region
from editengine.matching._anchor import block_similarity, fuzzy_starts, voted_starts
from editengine.matching._lines import line_view

_SNIPPET_LINES = 12


def closest_regions(content: str, old: str, *, limit: int = 3) -> tuple[Region, ...]:
    """Up to ``limit`` regions most similar to old_string, best first, with their text."""
    keys = [line.strip() for line in old.strip("\n").split("\n")]
    if not any(keys) or not content:
        return ()
    view = line_view(content)
    size = len(keys)
    starts = set(voted_starts(view, keys, min_votes=1))
    if len(starts) < limit:
        starts.update(fuzzy_starts(view, keys, limit=limit, cutoff=40))
    scored = []
    for start in starts:
        start = max(0, min(start, len(view) - size))
        window = view.stripped[start : start + size]
        scored.append((block_similarity(keys, window), -start, start))
    scored.sort(reverse=True)
    regions: list[Region] = []
    if size == 1 and (not scored or scored[0][0] < _LONG_LINE_CUTOFF / 100):
        # A fragment of a minified line is nothing like the whole line: the stretch of a
        # long line most like it is the place to show.
        regions.extend(_in_long_lines(view.lines, keys[0], limit))
        if regions:
            return tuple(regions)
    taken: list[tuple[int, int]] = []
    for similarity, _, start in scored:
        end = min(start + size, len(view)) - 1
        if any(start <= other_end and end >= other_start for other_start, other_end in taken):
            continue
        taken.append((start, end))
        text = "\n".join(view.lines[start : min(end + 1, start + _SNIPPET_LINES)])
        regions.append(Region(start + 1, end + 1, similarity, text))
        if len(regions) == limit:
            break
    return tuple(regions)


# Lines at least this long (and several times the quote) are searched for the stretch most
# like a one-line quote; at most this many of them, longest first, so a miss stays cheap.
_LONG_LINE = 500
_LONG_LINES_SEARCHED = 8
_LONG_LINE_CUTOFF = 60.0
_CONTEXT_CHARS = 20


def _in_long_lines(lines: list[str], key: str, limit: int) -> list[Region]:
    """The stretches of long lines most like ``key``: the line, and its text around them."""
    if len(key) < 8:
        return []
    long_lines = sorted(
        (index for index, line in enumerate(lines) if len(line) >= max(_LONG_LINE, 4 * len(key))),
        key=lambda index: -len(lines[index]),
    )[:_LONG_LINES_SEARCHED]
    found = []
    for index in long_lines:
        line = lines[index]
        aligned = fuzz.partial_ratio_alignment(key, line, score_cutoff=_LONG_LINE_CUTOFF)
        if aligned is None:
            continue
        start = max(0, aligned.dest_start - _CONTEXT_CHARS)
        end = min(len(line), aligned.dest_end + _CONTEXT_CHARS)
        found.append((aligned.score, index, line[start:end]))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [Region(index + 1, index + 1, score / 100, text) for score, index, text in found[:limit]]
