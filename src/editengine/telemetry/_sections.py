"""The report's sections, read off the counters an aggregation folded.

Each section of the JSON report (:mod:`._shape`) is one method of :class:`ReportSections`:
edits, errors, strategies, tiers, fixer, file sizes, days and halves, then the
recommendations made from them. Nothing here reads an event; the counters are
:class:`~._counters.Counters`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from editengine.telemetry._counters import (
    AMBIGUOUS_CODE,
    FILE_SIZE_BUCKETS,
    LARGEST_BUCKET,
    SYNTAX_BROKEN_CODE,
    UNKNOWN_SIZE,
    Counters,
    ModelStats,
    TierStats,
)
from editengine.telemetry._histogram import (
    RELATIVE_ERROR,
    LogHistogram,
)
from editengine.telemetry._options import ReportOptions
from editengine.telemetry._reading import (
    JSON_BACKEND,
)
from editengine.telemetry._recommend import recommend
from editengine.telemetry._shape import (
    REPORT_SCHEMA,
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


class ReportSections:
    """The report of ``counts`` under ``options`` (prices, thresholds)."""

    def __init__(self, counts: Counters, options: ReportOptions) -> None:
        self.counts = counts
        self.options = options

    def report(self) -> Report:
        """The full report as a JSON-ready dict (what ``--json`` writes)."""
        report: Report = {
            "schema": REPORT_SCHEMA,
            "percentiles": (
                "nearest rank; exact up to 512 values, else within "
                f"{RELATIVE_ERROR:.2%} relative error"
            ),
            "input": {
                "files": self.counts.files,
                "unreadable_files": self.counts.unreadable_files,
                "lines": self.counts.lines,
                "events": self.counts.events,
                "malformed": self.counts.malformed,
                "unknown_events": self.counts.unknown,
                "filtered_out": self.counts.filtered_out,
                "first_ts": self.counts.first_ts,
                "last_ts": self.counts.last_ts,
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
            for name, day in sorted(self.counts.days.items())
        ]

    def _halves_section(self) -> list[HalfRow]:
        """The earlier and the later half of the days (see :func:`periods`), with what days
        alone cannot give: the p95 of all the edits of each half."""
        names = sorted(self.counts.days)
        if len(names) < 2:
            return []
        half = len(names) // 2
        out: list[HalfRow] = []
        for chosen in (names[-2 * half : -half], names[-half:]):
            duration = LogHistogram()
            for name in chosen:
                duration.merge(self.counts.days[name].duration)
            out.append(
                {
                    "first_day": chosen[0],
                    "last_day": chosen[-1],
                    "duration_p95_ms": duration.percentile(95),
                }
            )
        return out

    def _edits_section(self) -> EditsSection:
        edits = self.counts.edits
        success = self.counts.outcomes.get("success", 0)
        no_change = self.counts.outcomes.get("no_change", 0)
        ambiguous = self.counts.error_codes.get(AMBIGUOUS_CODE, 0)
        return {
            "started": self.counts.started,
            "finished": edits,
            "outcomes": dict(sorted(self.counts.outcomes.items())),
            "success": success,
            "no_change": no_change,
            "errors": self.counts.outcomes.get("error", 0),
            "success_rate": _rate(success + no_change, edits),
            "ambiguous": ambiguous,
            "ambiguity_rate": _rate(ambiguous, edits),
            "dry_run": self.counts.dry_run,
            "instruction_given": self.counts.instruction_given,
            "corrected_by_fixer": self.counts.corrected_by_fixer,
            "duration_ms": self.counts.duration.summary(),
            "duration_bars": self.counts.duration.bars(),
        }

    def _errors_section(self) -> list[ErrorRow]:
        rows: list[ErrorRow] = [
            {
                "error_code": code,
                "count": count,
                "share_of_edits": _rate(count, self.counts.edits),
                "fixer_tried": self.counts.error_codes_fixed_tried.get(code, 0),
            }
            for code, count in sorted(
                self.counts.error_codes.items(), key=lambda kv: (-kv[1], kv[0])
            )
        ]
        for row in rows:
            if row["error_code"] == SYNTAX_BROKEN_CODE and self.counts.guard_refusals_by_tier:
                row["by_tier"] = dict(sorted(self.counts.guard_refusals_by_tier.items()))
        return rows

    def _strategies_section(self) -> list[StrategyRow]:
        return [
            {
                "strategy": name,
                "count": hist.count,
                "share_of_edits": _rate(hist.count, self.counts.edits),
                "duration_ms": hist.summary(),
            }
            for name, hist in sorted(self.counts.strategies.items(), key=lambda kv: -kv[1].count)
        ]

    def _tiers_section(self) -> list[TierRow]:
        out: list[TierRow] = []
        order = sorted(
            self.counts.tiers.items(), key=lambda kv: (kv[0][1] != "original", _mean_pos(kv))
        )
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

    def _similarity(self, tier: str, stats: TierStats) -> SimilaritySection:
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
        calls = self.counts.fixer_calls
        cache_hits = sum(m.cache_hits for m in self.counts.models.values())
        by_model: list[ModelRow] = []
        costs, total_cost = _cost(self.counts.models, self.options.prices)
        for name, m in sorted(self.counts.models.items(), key=lambda kv: -kv[1].calls):
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
            "call_rate": _rate(calls, self.counts.edits),
            "outcomes": dict(self.counts.fixer_outcomes),
            "success_rate": _rate(self.counts.fixer_outcomes.get("corrected", 0), calls),
            "rescued_edits": self.counts.corrected_by_fixer,
            "timeouts": self.counts.fixer_outcomes.get("timeout", 0),
            "timeout_rate": _rate(self.counts.fixer_outcomes.get("timeout", 0), calls),
            "cache_hits": cache_hits,
            "cache_hit_rate": _rate(cache_hits, calls),
            "windowed": self.counts.fixer_windowed,
            "prompt_chars_mean": self.counts.fixer_prompt_chars / calls if calls else None,
            "deadline_ms": _most_common(self.counts.fixer_deadlines)
            if self.counts.fixer_deadlines
            else None,
            "deadlines_recorded": _counts(self.counts.fixer_deadlines),
            "latency_ms": self.counts.fixer_latency.summary(),
            "latency_ms_success": self.counts.fixer_latency_success.summary(),
            "latency_ms_timeout": self.counts.fixer_latency_timeout.summary(),
            "latency_ms_cache_hit": self.counts.fixer_latency_cached.summary(),
            "latency_bars": self.counts.fixer_latency.bars(),
            "latency_bars_by_outcome": {
                outcome: hist.bars(span=self.counts.fixer_latency)
                for outcome, hist in sorted(self.counts.fixer_latency_by_outcome.items())
            },
            "input_tokens": sum(m.input_tokens for m in self.counts.models.values()),
            "output_tokens": sum(m.output_tokens for m in self.counts.models.values()),
            "cost_usd": total_cost if calls else 0.0,
            "by_model": by_model,
            "refusal_reasons": dict(
                sorted(self.counts.fixer_refusals.items(), key=lambda kv: (-kv[1], kv[0]))
            ),
            "keyed_calls": self.counts.fixer_keyed,
            "repeated_requests": self.counts.fixer_repeats,
            "repeated_misses": self.counts.fixer_repeat_misses,
        }

    def _size_section(self) -> list[SizeRow]:
        names = [name for _, name in FILE_SIZE_BUCKETS] + [LARGEST_BUCKET, UNKNOWN_SIZE]
        return [
            {
                "bucket": name,
                "edits": self.counts.by_size[name].count,
                "duration_ms": self.counts.by_size[name].summary(),
            }
            for name in names
            if name in self.counts.by_size
        ]


def _mean_pos(item: tuple[tuple[str, str], TierStats]) -> float:
    stats = item[1]
    return stats.position_total / stats.tries if stats.tries else math.inf


def _most_common(counts: Mapping[float, int]) -> float:
    """The value seen most often (the larger one on a tie)."""
    return max(counts.items(), key=lambda item: (item[1], item[0]))[0]


def _counts(counts: Mapping[float, int]) -> dict[str, int]:
    """``{"0.9": 120}``: JSON keys must be strings."""
    return {f"{value:g}": count for value, count in sorted(counts.items())}


def _cost(
    models: Mapping[str, ModelStats], prices: Mapping[str, tuple[float, float]]
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
