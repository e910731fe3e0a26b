"""Streaming aggregation of telemetry into the report.

Memory is bounded: events are read one line at a time and folded into counters and
histograms; nothing is kept per edit (``edit.finished`` carries what the per-edit figures
need, ``tier.tried`` and ``fixer.called`` are aggregated directly). The per-day series
holds a few counters and one histogram per UTC day.

>>> aggregate = Aggregator()
>>> aggregate.consume_paths(["telemetry/"])        # doctest: +SKIP
>>> report = aggregate.result()                    # a Report (a JSON-ready dict)

The counters are :mod:`._counters`; the report is read off them by :mod:`._sections`.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from editengine.telemetry._counters import (
    AMBIGUOUS_CODE,
    Counters,
    DayStats,
    ModelStats,
    TierStats,
    day_of,
    size_bucket,
)
from editengine.telemetry._histogram import (
    SIMILARITY_BINS,
    LogHistogram,
    similarity_bin,
)
from editengine.telemetry._options import ReportOptions
from editengine.telemetry._reading import (
    expand_paths,
    line_parser,
    open_lines,
    parse_time,
)
from editengine.telemetry._sections import ReportSections
from editengine.telemetry._shape import (
    Report,
)
from editengine.telemetry._wellformed import well_formed


class Aggregator(Counters):
    """Folds telemetry events into counters and histograms; ``result()`` gives the report."""

    def __init__(self, options: ReportOptions | None = None) -> None:
        super().__init__()
        self.options = options or ReportOptions()
        self._since = self._bound(self.options.since)
        self._until = self._bound(self.options.until)
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

    def _day(self, data: Mapping[str, Any]) -> DayStats | None:
        name = day_of(data.get("ts"))
        if name is None:
            return None
        day = self.days.get(name)
        if day is None:
            day = self.days[name] = DayStats()
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
        bucket = size_bucket(data.get("file_lines"))
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
            stats = self.tiers[key] = TierStats()
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
            model = self.models[model_name] = ModelStats()
        day_model = None
        if day is not None:
            day_model = day.models.get(model_name)
            if day_model is None:
                day_model = day.models[model_name] = ModelStats()
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
        return ReportSections(self, self.options).report()


def aggregate_paths(
    paths: Iterable[str | os.PathLike[str]], options: ReportOptions | None = None
) -> Report:
    """Read every file (plain or gzipped JSON Lines, or directories of them); the report dict."""
    aggregator = Aggregator(options)
    aggregator.consume_paths(paths)
    return aggregator.result()
