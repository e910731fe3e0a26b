"""One colour per strategy and per outcome, the same on every chart and every page.

A name the table does not know gets a colour picked by a stable hash of the name, so it
too keeps its colour from one chart, page and run to the next.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

# Outcomes: green is good, amber declined (the file untouched), red damage or failure,
# grey neither. Edit, tier, fixer and evaluation outcomes share the scale.
OUTCOME_COLOURS: dict[str, str] = {
    "success": "#2e7d32",
    "matched": "#2e7d32",
    "corrected": "#2e7d32",
    "no_change": "#81c784",
    "refused": "#f9a825",
    "no_candidates": "#bdbdbd",
    "skipped": "#e0e0e0",
    "ambiguous": "#ef6c00",
    "failed_validation": "#8e24aa",
    "invalid_answer": "#6a1b9a",
    "timeout": "#c62828",
    "error": "#ad1457",
    "wrong": "#c62828",
}

# Strategies: the cascade's tiers, and the rules that place an edit without a tier.
STRATEGY_COLOURS: dict[str, str] = {
    "exact": "#1f77b4",
    "unescape": "#17becf",
    "line_trimmed": "#ff7f0e",
    "whitespace": "#9467bd",
    "unicode_punctuation": "#e377c2",
    "unicode": "#e377c2",
    "boundary_trim": "#8c564b",
    "boundary": "#8c564b",
    "elision": "#bcbd22",
    "block_anchor": "#d62728",
    "already_applied": "#7f7f7f",
    "no_op": "#c7c7c7",
    "whole_file": "#aec7e8",
}

# For names no table knows (new tiers, configurations, models): far enough apart to tell.
_SPARE = (
    "#393b79",
    "#637939",
    "#8c6d31",
    "#843c39",
    "#7b4173",
    "#3182bd",
    "#31a354",
    "#756bb1",
    "#636363",
    "#e6550d",
    "#6baed6",
    "#fd8d3c",
    "#74c476",
    "#9e9ac8",
    "#969696",
    "#a55194",
)

# Better / worse, for deltas.
BETTER = "#2e7d32"
WORSE = "#c62828"
NEUTRAL = "#616161"
# Lines drawn over charts: a deadline, a similarity threshold.
MARKER = "#000000"


def colour_of(name: str) -> str:
    """The colour of an outcome or strategy; a stable spare colour for any other name."""
    known = OUTCOME_COLOURS.get(name) or STRATEGY_COLOURS.get(name)
    if known is not None:
        return known
    return _SPARE[zlib.crc32(name.encode()) % len(_SPARE)]


def colours_of(names: Sequence[str]) -> list[str]:
    return [colour_of(name) for name in names]
