"""Where old_string most nearly is: what a NoMatch tells the agent."""

from __future__ import annotations

from editengine.errors import Region
from editengine.matching.anchor import block_similarity, fuzzy_starts, voted_starts
from editengine.matching.lines import line_view

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
