"""The report's shape: what :meth:`Aggregator.result` returns and ``--json`` writes.

Every section is a ``TypedDict``, so the renderers (text, HTML, comparison) are checked
against the keys the aggregator really writes. The outcome lists are read from the
``Literal`` types the engine fills, so a new outcome cannot be left out of a report.
"""

from __future__ import annotations

from typing import Literal, TypedDict, get_args

from editengine._results import TierOutcome
from editengine._state import EditOutcome, FixerOutcome

REPORT_SCHEMA = 1

TIER_OUTCOMES: tuple[TierOutcome, ...] = get_args(TierOutcome)
FIXER_OUTCOMES: tuple[FixerOutcome, ...] = get_args(FixerOutcome)
EDIT_OUTCOMES: tuple[EditOutcome, ...] = get_args(EditOutcome)

ThresholdSource = Literal["given", "recorded", "inferred", "unknown"]

# (low ms, high ms, count): one bar of a latency histogram.
Bar = tuple[float, float, int]


class LatencySummary(TypedDict, total=False):
    """``count`` always; the rest only when something was counted."""

    count: int
    mean: float
    min: float
    max: float
    p50: float
    p90: float
    p95: float
    p99: float
    exact: bool


class InputSection(TypedDict):
    files: int
    unreadable_files: int
    lines: int
    events: int
    malformed: int
    unknown_events: int
    filtered_out: int
    first_ts: str | None
    last_ts: str | None
    json_backend: str


class EditsSection(TypedDict):
    started: int
    finished: int
    outcomes: dict[str, int]
    success: int
    no_change: int
    errors: int
    success_rate: float | None
    ambiguous: int
    ambiguity_rate: float | None
    dry_run: int
    instruction_given: int
    corrected_by_fixer: int
    duration_ms: LatencySummary
    duration_bars: list[Bar]


class _ErrorRowRequired(TypedDict):
    error_code: str
    count: int
    share_of_edits: float | None
    fixer_tried: int


class ErrorRow(_ErrorRowRequired, total=False):
    # syntax_broken only: the refusals of the syntax guard, by the tier that placed the edit.
    by_tier: dict[str, int]


class StrategyRow(TypedDict):
    strategy: str
    count: int
    share_of_edits: float | None
    duration_ms: LatencySummary


class SimilaritySection(TypedDict):
    attempts: int
    threshold: float | None
    threshold_source: ThresholdSource
    thresholds_recorded: dict[str, int]
    bin_width: float
    bins: dict[str, list[int]]  # outcome -> 101 counts, bins 0.00 .. 1.00


class _TierRowRequired(TypedDict):
    tier: str
    tries: int
    wins: int
    win_rate: float | None
    outcomes: dict[str, int]
    mean_position: float | None
    elapsed_ms_total: float
    elapsed_ms: LatencySummary


# The key "pass" cannot be a class attribute; the functional syntax allows it.
_TierPass = TypedDict("_TierPass", {"pass": str})


class TierRow(_TierRowRequired, _TierPass, total=False):
    similarity: SimilaritySection


class ModelRow(TypedDict):
    model: str
    calls: int
    cache_hits: int
    input_tokens: int
    output_tokens: int
    cached_input_tokens: int
    cached_output_tokens: int
    price_per_million: list[float] | None
    cost_usd: float | None


class FixerSection(TypedDict):
    calls: int
    call_rate: float | None
    outcomes: dict[str, int]
    success_rate: float | None
    rescued_edits: int
    timeouts: int
    timeout_rate: float | None
    cache_hits: int
    cache_hit_rate: float | None
    windowed: int
    prompt_chars_mean: float | None
    deadline_ms: float | None
    deadlines_recorded: dict[str, int]
    latency_ms: LatencySummary
    latency_ms_success: LatencySummary
    latency_ms_timeout: LatencySummary
    latency_ms_cache_hit: LatencySummary
    latency_bars: list[Bar]
    # The same bars split by how the call ended (cache misses), on the same grid.
    latency_bars_by_outcome: dict[str, list[Bar]]
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    by_model: list[ModelRow]
    # failed_validation calls by why the correction was refused ("unrecorded": an engine
    # that did not say).
    refusal_reasons: dict[str, int]
    # Calls carrying a request_key; of those, repeats of an earlier identical request, and
    # the repeats that were not answered from the cache.
    keyed_calls: int
    repeated_requests: int
    repeated_misses: int


class SizeRow(TypedDict):
    bucket: str
    edits: int
    duration_ms: LatencySummary


class DayRow(TypedDict):
    """One UTC day of the period."""

    day: str  # YYYY-MM-DD
    edits: int
    successes: int  # success or no change
    success_rate: float | None
    errors: int
    fixer_calls: int
    fixer_corrected: int
    duration_p95_ms: float | None
    ambiguous: int  # edits that ended ambiguous
    cost_usd: float | None  # the fixer's cost that day; None: a model without a price


class HalfRow(TypedDict):
    """The earlier or the later half of the days with data (for the change of a figure)."""

    first_day: str
    last_day: str
    duration_p95_ms: float | None


class RecommendationDict(TypedDict):
    kind: str
    message: str
    evidence: dict[str, object]


class Report(TypedDict):
    schema: int
    percentiles: str
    input: InputSection
    edits: EditsSection
    errors: list[ErrorRow]
    strategies: list[StrategyRow]
    tiers: list[TierRow]
    fixer: FixerSection
    by_file_size: list[SizeRow]
    days: list[DayRow]
    halves: list[HalfRow]  # [earlier, later] with two or more days, else []
    recommendations: list[RecommendationDict]


MetricKind = Literal["count", "rate", "ms", "usd"]
# Which way is better: "up" (more is better), "down" (less is better), "none" (neutral).
Direction = Literal["up", "down", "none"]


class ComparisonRow(TypedDict):
    metric: str
    kind: MetricKind
    better: Direction
    a: float | None
    b: float | None
    delta: float | None
    # A change no larger than this is within the runs' spread: shown, coloured neither way
    # (None: no threshold known, every change counts).
    noise: float | None
