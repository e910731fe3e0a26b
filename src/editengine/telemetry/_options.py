"""What a report counts and how it judges: time bounds, prices, thresholds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# USD per million tokens (input, output): list prices when this table was written.
# Override or extend with --price MODEL=IN,OUT; unknown models get no cost estimate.
DEFAULT_PRICES: Mapping[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-sonnet-4": (3.00, 15.00),
}


@dataclass(frozen=True)
class Thresholds:
    """How much data each recommendation needs before it speaks (see docs/telemetry.md)."""

    tier_min_tries: int = 200
    reorder_min_wins: int = 100
    reorder_min_win_rate: float = 0.20
    reorder_max_earlier_win_rate: float = 0.01
    fuzzy_min_attempts: int = 100
    near_band: float = 0.05
    near_min_count: int = 20
    near_refused_share: float = 0.10
    near_accepted_share: float = 0.20
    fixer_min_timeouts: int = 20
    deadline_min_successes: int = 50
    fixer_timeout_rate: float = 0.05
    deadline_close: float = 0.80
    deadline_far: float = 0.50
    cache_min_calls: int = 200  # no longer read: fixer_cache_low counts repeats instead
    cache_low_rate: float = 0.05  # no longer read
    # fixer_cache_low: at least this many repeats of an earlier identical request, and
    # fewer than this share of them answered from the cache.
    cache_min_repeats: int = 20
    cache_repeat_hit_rate: float = 0.5
    fixer_min_calls: int = 100
    fixer_low_success: float = 0.30
    min_edits: int = 200
    ambiguity_rate: float = 0.05


@dataclass(frozen=True)
class ReportOptions:
    """What to count and how to price it. ``since``/``until`` are ISO 8601 or epoch seconds."""

    since: str | float | None = None
    until: str | float | None = None
    prices: Mapping[str, tuple[float, float]] = field(default_factory=lambda: dict(DEFAULT_PRICES))
    similarity_thresholds: Mapping[str, float] = field(default_factory=dict)
    fixer_deadline_ms: float | None = None
    thresholds: Thresholds = field(default_factory=Thresholds)
