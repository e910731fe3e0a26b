"""What an aggregation counts: a few counters and histograms, per tier, model and day.

Memory is bounded: nothing is kept per edit. :class:`Counters` is the whole state of an
aggregation: the :class:`~._aggregate.Aggregator` folds events into it, and
:class:`~._sections.ReportSections` reads the report off it.
"""

from __future__ import annotations

from typing import Any

from editengine.telemetry._histogram import (
    LogHistogram,
)
from editengine.telemetry._shape import (
    FIXER_OUTCOMES,
    TIER_OUTCOMES,
)

FILE_SIZE_BUCKETS = ((100, "<100 lines"), (1_000, "100-999"), (10_000, "1k-9.9k"))
LARGEST_BUCKET = ">=10k lines"
UNKNOWN_SIZE = "unknown"
AMBIGUOUS_CODE = "ambiguous"


class TierStats:
    __slots__ = (
        "elapsed",
        "outcomes",
        "position_total",
        "similarity",
        "thresholds",
        "tries",
        "with_similarity",
    )

    def __init__(self) -> None:
        self.tries = 0
        self.outcomes: dict[str, int] = dict.fromkeys(TIER_OUTCOMES, 0)
        self.elapsed = LogHistogram()
        self.position_total = 0
        self.with_similarity = 0
        self.similarity: dict[str, list[int]] = {}
        self.thresholds: dict[float, int] = {}  # as recorded in the events


class ModelStats:
    __slots__ = (
        "cache_hits",
        "calls",
        "input_tokens",
        "output_tokens",
        "saved_input",
        "saved_output",
    )

    def __init__(self) -> None:
        self.calls = 0
        self.cache_hits = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.saved_input = 0
        self.saved_output = 0


class DayStats:
    __slots__ = (
        "ambiguous",
        "duration",
        "edits",
        "errors",
        "fixer_calls",
        "fixer_corrected",
        "models",
        "successes",
    )

    def __init__(self) -> None:
        self.edits = 0
        self.successes = 0
        self.errors = 0
        self.ambiguous = 0
        self.fixer_calls = 0
        self.fixer_corrected = 0
        self.duration = LogHistogram()
        self.models: dict[str, ModelStats] = {}  # the day's fixer calls, for its cost


# The syntax guard's refusals (docs/diagnostics.md): counted by the tier that placed the edit.
SYNTAX_BROKEN_CODE = "syntax_broken"


def day_of(ts: Any) -> str | None:
    """``YYYY-MM-DD`` of an event's fixed-width UTC timestamp (None for anything else)."""
    return ts[:10] if type(ts) is str and len(ts) >= 10 else None


def size_bucket(lines: Any) -> str:
    if not isinstance(lines, int):
        return UNKNOWN_SIZE
    for limit, name in FILE_SIZE_BUCKETS:
        if lines < limit:
            return name
    return LARGEST_BUCKET


class Counters:
    """Every figure an aggregation folds, as plain attributes."""

    def __init__(self) -> None:
        self.files = 0
        self.unreadable_files = 0
        self.lines = 0
        self.events = 0
        self.malformed = 0
        self.unknown = 0
        self.filtered_out = 0
        self.first_ts: str | None = None
        self.last_ts: str | None = None
        self.started = 0
        self.edits = 0
        self.outcomes: dict[str, int] = {}
        self.error_codes: dict[str, int] = {}
        self.error_codes_fixed_tried: dict[str, int] = {}
        self.guard_refusals_by_tier: dict[str, int] = {}
        self.dry_run = 0
        self.instruction_given = 0
        self.corrected_by_fixer = 0
        self.duration = LogHistogram()
        self.strategies: dict[str, LogHistogram] = {}
        self.by_size: dict[str, LogHistogram] = {}
        self.tiers: dict[tuple[str, str], TierStats] = {}
        self.fixer_calls = 0
        self.fixer_outcomes: dict[str, int] = dict.fromkeys(FIXER_OUTCOMES, 0)
        self.fixer_windowed = 0
        self.fixer_refusals: dict[str, int] = {}
        # Request fingerprints seen (fixer calls only: a small share of the events).
        self.fixer_keys: set[str] = set()
        self.fixer_keyed = 0
        self.fixer_repeats = 0
        self.fixer_repeat_misses = 0
        self.fixer_prompt_chars = 0
        self.fixer_latency = LogHistogram()  # cache misses
        self.fixer_latency_success = LogHistogram()
        self.fixer_latency_timeout = LogHistogram()
        self.fixer_latency_cached = LogHistogram()
        self.fixer_latency_by_outcome: dict[str, LogHistogram] = {}  # cache misses
        self.days: dict[str, DayStats] = {}
        self.fixer_deadlines: dict[float, int] = {}  # as recorded in the events
        self.models: dict[str, ModelStats] = {}
