"""Streaming aggregation of telemetry into the report.

Memory is bounded: events are read one line at a time and folded into counters and
histograms; nothing is kept per edit (``edit.finished`` carries what the per-edit figures
need, ``tier.tried`` and ``fixer.called`` are aggregated directly). The per-day series
holds a few counters and one histogram per UTC day.

>>> aggregate = Aggregator()
>>> aggregate.consume_paths(["telemetry/"])        # doctest: +SKIP
>>> report = aggregate.result()                    # a Report (a JSON-ready dict)

Why one long module: it is one fold over the event stream, whose counters share the loop.
"""

from __future__ import annotations

import math
import os
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from editengine.telemetry._histogram import (
    RELATIVE_ERROR,
    SIMILARITY_BINS,
    LogHistogram,
    similarity_bin,
)
from editengine.telemetry._options import ReportOptions
from editengine.telemetry._reading import (
    JSON_BACKEND,
    expand_paths,
    line_parser,
    open_lines,
    parse_time,
)
from editengine.telemetry._recommend import recommend
from editengine.telemetry._shape import (
    FIXER_OUTCOMES,
    REPORT_SCHEMA,
    TIER_OUTCOMES,
    DayRow,
    EditsSection,
    ErrorRow,
    FixerSection,
    HalfRow,
    ModelRow,
    Report,
    SimilaritySection,
    SizeRow,
    StrategyRow,
    ThresholdSource,
    TierRow,
)
from editengine.telemetry._wellformed import well_formed

FILE_SIZE_BUCKETS = ((100, "<100 lines"), (1_000, "100-999"), (10_000, "1k-9.9k"))
_LARGEST_BUCKET = ">=10k lines"
_UNKNOWN_SIZE = "unknown"
AMBIGUOUS_CODE = "ambiguous"


class _TierStats:
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


class _ModelStats:
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


class _DayStats:
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
        self.models: dict[str, _ModelStats] = {}  # the day's fixer calls, for its cost


# The syntax guard's refusals (docs/diagnostics.md): counted by the tier that placed the edit.
SYNTAX_BROKEN_CODE = "syntax_broken"


def _day_of(ts: Any) -> str | None:
    """``YYYY-MM-DD`` of an event's fixed-width UTC timestamp (None for anything else)."""
    return ts[:10] if type(ts) is str and len(ts) >= 10 else None


def _size_bucket(lines: Any) -> str:
    if not isinstance(lines, int):
        return _UNKNOWN_SIZE
    for limit, name in FILE_SIZE_BUCKETS:
        if lines < limit:
            return name
    return _LARGEST_BUCKET


class Aggregator:
    """Folds telemetry events into counters and histograms; ``result()`` gives the report."""

    def __init__(self, options: ReportOptions | None = None) -> None:
        self.options = options or ReportOptions()
        self._since = self._bound(self.options.since)
        self._until = self._bound(self.options.until)
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
        self.tiers: dict[tuple[str, str], _TierStats] = {}
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
        self.days: dict[str, _DayStats] = {}
        self.fixer_deadlines: dict[float, int] = {}  # as recorded in the events
        self.models: dict[str, _ModelStats] = {}
        self._handlers = {
            "edit.started": self._on_started,
            "edit.finished": self._on_finished,
            "tier.tried": self._on_tier,
            "fixer.called": self._on_fixer,
        }

    @staticmethod
    def _bound(value: str | float | None) -> tuple[str, float] | None:
        if value is None:
            return None
        return parse_time(str(value))

    # -- input --------------------------------------------------------------------------------

    def consume_paths(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        for path in expand_paths(paths):
            self.files += 1
            try:
                with open_lines(path) as stream:
                    self.consume_lines(stream)
            except (OSError, EOFError, zlib.error):
                # A truncated or corrupt gzip (say, still being written): keep what was read.
                self.unreadable_files += 1

    def consume_lines(self, lines: Iterable[bytes | str]) -> None:
        """Fold JSON Lines; blank lines are ignored, bad ones counted as ``malformed``."""
        handlers = self._handlers
        since, until = self._since, self._until
        loads = line_parser()
        for line in lines:
            self.lines += 1
            if len(line) < 3 and not line.strip():
                continue
            try:
                data = loads(line)
            except (ValueError, RecursionError):  # bad JSON, or nested past the parser
                self.malformed += 1
                continue
            if type(data) is not dict:
                self.malformed += 1
                continue
            self._consume(data, handlers, since, until)

    def consume(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Fold already-parsed event dicts (e.g. from a MemorySink's ``to_dict()``)."""
        for data in events:
            self.lines += 1
            self._consume(data, self._handlers, self._since, self._until)

    def _consume(self, data: Any, handlers: Any, since: Any, until: Any) -> None:
        name = data.get("event")
        handler = handlers.get(name) if type(name) is str else None
        if handler is None:
            self.unknown += 1
            return
        if not well_formed(data):
            self.malformed += 1
            return
        ts = data.get("ts")
        try:
            if since is not None or until is not None:
                # ISO strings compare as strings (fixed width); epoch numbers as numbers.
                index = 0 if type(ts) is str else 1
                if (
                    ts is None
                    or (since is not None and ts < since[index])
                    or (until is not None and ts >= until[index])
                ):
                    self.filtered_out += 1
                    return
            handler(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            self.malformed += 1
            return
        self.events += 1
        if type(ts) is str:
            if self.first_ts is None or ts < self.first_ts:
                self.first_ts = ts
            if self.last_ts is None or ts > self.last_ts:
                self.last_ts = ts

    # -- handlers -----------------------------------------------------------------------------

    def _day(self, data: Mapping[str, Any]) -> _DayStats | None:
        name = _day_of(data.get("ts"))
        if name is None:
            return None
        day = self.days.get(name)
        if day is None:
            day = self.days[name] = _DayStats()
        return day

    def _on_started(self, data: dict[str, Any]) -> None:
        self.started += 1

    def _on_finished(self, data: dict[str, Any]) -> None:
        outcome = data["outcome"]
        duration = float(data["duration_ms"])
        self.edits += 1
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        code = data.get("error_code")
        if code:
            self.error_codes[code] = self.error_codes.get(code, 0) + 1
            if data.get("fixer_outcome"):
                fixed = self.error_codes_fixed_tried
                fixed[code] = fixed.get(code, 0) + 1
            tier = data.get("syntax_guard_tier")
            if isinstance(tier, str) and tier:
                refusals = self.guard_refusals_by_tier
                refusals[tier] = refusals.get(tier, 0) + 1
        if data.get("dry_run"):
            self.dry_run += 1
        if data.get("instruction_given"):
            self.instruction_given += 1
        if data.get("corrected_by_fixer"):
            self.corrected_by_fixer += 1
        self.duration.add(duration)
        day = self._day(data)
        if day is not None:
            day.edits += 1
            day.duration.add(duration)
            if outcome in ("error", "cancelled"):
                day.errors += 1
                if code == AMBIGUOUS_CODE:
                    day.ambiguous += 1
            else:
                day.successes += 1
        strategy = data.get("strategy")
        if strategy:
            hist = self.strategies.get(strategy)
            if hist is None:
                hist = self.strategies[strategy] = LogHistogram()
            hist.add(duration)
        bucket = _size_bucket(data.get("file_lines"))
        hist = self.by_size.get(bucket)
        if hist is None:
            hist = self.by_size[bucket] = LogHistogram()
        hist.add(duration)

    def _on_tier(self, data: dict[str, Any]) -> None:
        key = (data["tier"], data.get("pass") or "original")
        outcome = data["outcome"]
        elapsed = float(data["elapsed_ms"])
        position = int(data.get("position") or 0)
        similarity = data.get("best_similarity")
        if similarity is not None:
            similarity = float(similarity)
        stats = self.tiers.get(key)
        if stats is None:
            stats = self.tiers[key] = _TierStats()
        stats.tries += 1
        stats.outcomes[outcome] = stats.outcomes.get(outcome, 0) + 1
        stats.elapsed.add(elapsed)
        stats.position_total += position
        if similarity is not None:
            stats.with_similarity += 1
            threshold = data.get("threshold")
            if threshold is not None:
                threshold = round(float(threshold), 4)
                stats.thresholds[threshold] = stats.thresholds.get(threshold, 0) + 1
            bins = stats.similarity.get(outcome)
            if bins is None:
                bins = stats.similarity[outcome] = [0] * SIMILARITY_BINS
            bins[similarity_bin(similarity)] += 1

    def _on_fixer(self, data: dict[str, Any]) -> None:
        outcome = data["outcome"]
        latency = float(data["latency_ms"])
        cached = bool(data.get("cache_hit"))
        tokens_in = int(data.get("input_tokens") or 0)
        tokens_out = int(data.get("output_tokens") or 0)
        prompt_chars = int(data.get("prompt_chars") or 0)
        self.fixer_calls += 1
        self.fixer_outcomes[outcome] = self.fixer_outcomes.get(outcome, 0) + 1
        day = self._day(data)
        if day is not None:
            day.fixer_calls += 1
            if outcome == "corrected":
                day.fixer_corrected += 1
        if data.get("windowed"):
            self.fixer_windowed += 1
        self.fixer_prompt_chars += prompt_chars
        deadline = data.get("deadline_ms")
        if deadline is not None:
            deadline = float(deadline)
            self.fixer_deadlines[deadline] = self.fixer_deadlines.get(deadline, 0) + 1
        if outcome == "failed_validation":
            reason = data.get("refusal_reason") or "unrecorded"
            self.fixer_refusals[reason] = self.fixer_refusals.get(reason, 0) + 1
        key = data.get("request_key")
        if key:
            self.fixer_keyed += 1
            if key in self.fixer_keys:
                self.fixer_repeats += 1
                if not cached:
                    self.fixer_repeat_misses += 1
            else:
                self.fixer_keys.add(key)
        model_name = data.get("model") or "unknown"
        model = self.models.get(model_name)
        if model is None:
            model = self.models[model_name] = _ModelStats()
        day_model = None
        if day is not None:
            day_model = day.models.get(model_name)
            if day_model is None:
                day_model = day.models[model_name] = _ModelStats()
            day_model.calls += 1
        model.calls += 1
        if cached:
            model.cache_hits += 1
            model.saved_input += tokens_in
            model.saved_output += tokens_out
            if day_model is not None:
                day_model.cache_hits += 1
            self.fixer_latency_cached.add(latency)
            return
        model.input_tokens += tokens_in
        model.output_tokens += tokens_out
        if day_model is not None:
            day_model.input_tokens += tokens_in
            day_model.output_tokens += tokens_out
        self.fixer_latency.add(latency)
        by_outcome = self.fixer_latency_by_outcome.get(outcome)
        if by_outcome is None:
            by_outcome = self.fixer_latency_by_outcome[outcome] = LogHistogram()
        by_outcome.add(latency)
        if outcome in ("corrected", "no_change"):
            self.fixer_latency_success.add(latency)
        elif outcome == "timeout":
            self.fixer_latency_timeout.add(latency)

    # -- result -------------------------------------------------------------------------------

    def result(self) -> Report:
        """The full aggregate as a JSON-ready dict (what ``--json`` writes)."""
        report: Report = {
            "schema": REPORT_SCHEMA,
            "percentiles": (
                "nearest rank; exact up to 512 values, else within "
                f"{RELATIVE_ERROR:.2%} relative error"
            ),
            "input": {
                "files": self.files,
                "unreadable_files": self.unreadable_files,
                "lines": self.lines,
                "events": self.events,
                "malformed": self.malformed,
                "unknown_events": self.unknown,
                "filtered_out": self.filtered_out,
                "first_ts": self.first_ts,
                "last_ts": self.last_ts,
                "json_backend": JSON_BACKEND,
            },
            "edits": self._edits_section(),
            "errors": self._errors_section(),
            "strategies": self._strategies_section(),
            "tiers": self._tiers_section(),
            "fixer": self._fixer_section(),
            "by_file_size": self._size_section(),
            "days": self._days_section(),
            "halves": self._halves_section(),
            "recommendations": [],
        }
        report["recommendations"] = [r.to_dict() for r in recommend(report, self.options)]
        return report

    def _days_section(self) -> list[DayRow]:
        return [
            {
                "day": name,
                "edits": day.edits,
                "successes": day.successes,
                "success_rate": _rate(day.successes, day.edits),
                "errors": day.errors,
                "fixer_calls": day.fixer_calls,
                "fixer_corrected": day.fixer_corrected,
                "duration_p95_ms": day.duration.percentile(95),
                "ambiguous": day.ambiguous,
                "cost_usd": _cost(day.models, self.options.prices)[1],
            }
            for name, day in sorted(self.days.items())
        ]

    def _halves_section(self) -> list[HalfRow]:
        """The earlier and the later half of the days (see :func:`periods`), with what days
        alone cannot give: the p95 of all the edits of each half."""
        names = sorted(self.days)
        if len(names) < 2:
            return []
        half = len(names) // 2
        out: list[HalfRow] = []
        for chosen in (names[-2 * half : -half], names[-half:]):
            duration = LogHistogram()
            for name in chosen:
                duration.merge(self.days[name].duration)
            out.append(
                {
                    "first_day": chosen[0],
                    "last_day": chosen[-1],
                    "duration_p95_ms": duration.percentile(95),
                }
            )
        return out

    def _edits_section(self) -> EditsSection:
        edits = self.edits
        success = self.outcomes.get("success", 0)
        no_change = self.outcomes.get("no_change", 0)
        ambiguous = self.error_codes.get(AMBIGUOUS_CODE, 0)
        return {
            "started": self.started,
            "finished": edits,
            "outcomes": dict(sorted(self.outcomes.items())),
            "success": success,
            "no_change": no_change,
            "errors": self.outcomes.get("error", 0),
            "success_rate": _rate(success + no_change, edits),
            "ambiguous": ambiguous,
            "ambiguity_rate": _rate(ambiguous, edits),
            "dry_run": self.dry_run,
            "instruction_given": self.instruction_given,
            "corrected_by_fixer": self.corrected_by_fixer,
            "duration_ms": self.duration.summary(),
            "duration_bars": self.duration.bars(),
        }

    def _errors_section(self) -> list[ErrorRow]:
        rows: list[ErrorRow] = [
            {
                "error_code": code,
                "count": count,
                "share_of_edits": _rate(count, self.edits),
                "fixer_tried": self.error_codes_fixed_tried.get(code, 0),
            }
            for code, count in sorted(self.error_codes.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        for row in rows:
            if row["error_code"] == SYNTAX_BROKEN_CODE and self.guard_refusals_by_tier:
                row["by_tier"] = dict(sorted(self.guard_refusals_by_tier.items()))
        return rows

    def _strategies_section(self) -> list[StrategyRow]:
        return [
            {
                "strategy": name,
                "count": hist.count,
                "share_of_edits": _rate(hist.count, self.edits),
                "duration_ms": hist.summary(),
            }
            for name, hist in sorted(self.strategies.items(), key=lambda kv: -kv[1].count)
        ]

    def _tiers_section(self) -> list[TierRow]:
        out: list[TierRow] = []
        order = sorted(self.tiers.items(), key=lambda kv: (kv[0][1] != "original", _mean_pos(kv)))
        for (tier, pass_), stats in order:
            entry: TierRow = {
                "tier": tier,
                "pass": pass_,
                "tries": stats.tries,
                "wins": stats.outcomes.get("matched", 0),
                "win_rate": _rate(stats.outcomes.get("matched", 0), stats.tries),
                "outcomes": dict(stats.outcomes),
                "mean_position": stats.position_total / stats.tries if stats.tries else None,
                "elapsed_ms_total": stats.elapsed.total,
                "elapsed_ms": stats.elapsed.summary(),
            }
            if stats.with_similarity:
                entry["similarity"] = self._similarity(tier, stats)
            out.append(entry)
        return out

    def _similarity(self, tier: str, stats: _TierStats) -> SimilaritySection:
        matched = stats.similarity.get("matched")
        given = self.options.similarity_thresholds.get(tier)
        threshold: float | None
        source: ThresholdSource
        if given is not None:
            threshold, source = float(given), "given"
        elif stats.thresholds:
            threshold, source = _most_common(stats.thresholds), "recorded"
        elif matched and any(matched):
            lowest = next(i for i, n in enumerate(matched) if n)
            threshold, source = lowest / 100.0, "inferred"
        else:
            threshold, source = None, "unknown"
        return {
            "attempts": stats.with_similarity,
            "threshold": threshold,
            "threshold_source": source,
            "thresholds_recorded": _counts(stats.thresholds),
            "bin_width": 0.01,
            "bins": {outcome: list(bins) for outcome, bins in sorted(stats.similarity.items())},
        }

    def _fixer_section(self) -> FixerSection:
        calls = self.fixer_calls
        cache_hits = sum(m.cache_hits for m in self.models.values())
        by_model: list[ModelRow] = []
        costs, total_cost = _cost(self.models, self.options.prices)
        for name, m in sorted(self.models.items(), key=lambda kv: -kv[1].calls):
            price = _price_for(name, self.options.prices)
            cost = costs[name]
            by_model.append(
                {
                    "model": name,
                    "calls": m.calls,
                    "cache_hits": m.cache_hits,
                    "input_tokens": m.input_tokens,
                    "output_tokens": m.output_tokens,
                    "cached_input_tokens": m.saved_input,
                    "cached_output_tokens": m.saved_output,
                    "price_per_million": list(price) if price else None,
                    "cost_usd": cost,
                }
            )
        return {
            "calls": calls,
            "call_rate": _rate(calls, self.edits),
            "outcomes": dict(self.fixer_outcomes),
            "success_rate": _rate(self.fixer_outcomes.get("corrected", 0), calls),
            "rescued_edits": self.corrected_by_fixer,
            "timeouts": self.fixer_outcomes.get("timeout", 0),
            "timeout_rate": _rate(self.fixer_outcomes.get("timeout", 0), calls),
            "cache_hits": cache_hits,
            "cache_hit_rate": _rate(cache_hits, calls),
            "windowed": self.fixer_windowed,
            "prompt_chars_mean": self.fixer_prompt_chars / calls if calls else None,
            "deadline_ms": _most_common(self.fixer_deadlines) if self.fixer_deadlines else None,
            "deadlines_recorded": _counts(self.fixer_deadlines),
            "latency_ms": self.fixer_latency.summary(),
            "latency_ms_success": self.fixer_latency_success.summary(),
            "latency_ms_timeout": self.fixer_latency_timeout.summary(),
            "latency_ms_cache_hit": self.fixer_latency_cached.summary(),
            "latency_bars": self.fixer_latency.bars(),
            "latency_bars_by_outcome": {
                outcome: hist.bars(span=self.fixer_latency)
                for outcome, hist in sorted(self.fixer_latency_by_outcome.items())
            },
            "input_tokens": sum(m.input_tokens for m in self.models.values()),
            "output_tokens": sum(m.output_tokens for m in self.models.values()),
            "cost_usd": total_cost if calls else 0.0,
            "by_model": by_model,
            "refusal_reasons": dict(
                sorted(self.fixer_refusals.items(), key=lambda kv: (-kv[1], kv[0]))
            ),
            "keyed_calls": self.fixer_keyed,
            "repeated_requests": self.fixer_repeats,
            "repeated_misses": self.fixer_repeat_misses,
        }

    def _size_section(self) -> list[SizeRow]:
        names = [name for _, name in FILE_SIZE_BUCKETS] + [_LARGEST_BUCKET, _UNKNOWN_SIZE]
        return [
            {
                "bucket": name,
                "edits": self.by_size[name].count,
                "duration_ms": self.by_size[name].summary(),
            }
            for name in names
            if name in self.by_size
        ]


def _mean_pos(item: tuple[tuple[str, str], _TierStats]) -> float:
    stats = item[1]
    return stats.position_total / stats.tries if stats.tries else math.inf


def _most_common(counts: Mapping[float, int]) -> float:
    """The value seen most often (the larger one on a tie)."""
    return max(counts.items(), key=lambda item: (item[1], item[0]))[0]


def _counts(counts: Mapping[float, int]) -> dict[str, int]:
    """``{"0.9": 120}``: JSON keys must be strings."""
    return {f"{value:g}": count for value, count in sorted(counts.items())}


def _cost(
    models: Mapping[str, _ModelStats], prices: Mapping[str, tuple[float, float]]
) -> tuple[dict[str, float | None], float | None]:
    """Each model's cost in USD and the total. A model without a price costs ``None``
    (unknown) once it made a call that was not a cache hit, and then so does the total:
    an unknown part makes the sum unknown, never zero."""
    costs: dict[str, float | None] = {}
    total: float | None = 0.0
    for name, m in models.items():
        price = _price_for(name, prices)
        if price is not None:
            costs[name] = (m.input_tokens * price[0] + m.output_tokens * price[1]) / 1_000_000
        elif m.input_tokens or m.output_tokens or m.calls > m.cache_hits:
            costs[name] = None
        else:
            costs[name] = 0.0  # only cache hits: nothing was spent
        cost = costs[name]
        total = None if cost is None or total is None else total + cost
    return costs, total


def _rate(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _price_for(model: str, prices: Mapping[str, tuple[float, float]]) -> tuple[float, float] | None:
    """Exact model name first, else the longest table key the name starts with."""
    if model in prices:
        return prices[model]
    matches = [key for key in prices if model.startswith(key)]
    return prices[max(matches, key=len)] if matches else None


def aggregate_paths(
    paths: Iterable[str | os.PathLike[str]], options: ReportOptions | None = None
) -> Report:
    """Read every file (plain or gzipped JSON Lines, or directories of them); the report dict."""
    aggregator = Aggregator(options)
    aggregator.consume_paths(paths)
    return aggregator.result()
