"""Streaming aggregation of telemetry into the report, and the recommendations drawn from it.

Memory is bounded: events are read one line at a time and folded into counters and
histograms; nothing is kept per edit (``edit.finished`` carries what the per-edit figures
need, ``tier.tried`` and ``fixer.called`` are aggregated directly).

>>> aggregate = Aggregator()
>>> aggregate.consume_paths(["telemetry/"])        # doctest: +SKIP
>>> report = aggregate.result()                    # a JSON-ready dict
"""

from __future__ import annotations

import gzip
import io
import json
import json.scanner
import math
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from editengine.errors import BadRequest, FileNotFound
from editengine.telemetry.histogram import (
    RELATIVE_ERROR,
    SIMILARITY_BINS,
    LogHistogram,
    similarity_bin,
)
from editengine.telemetry.wellformed import well_formed

try:  # optional accelerator
    import orjson as _orjson

    JSON_BACKEND = "orjson"
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None
    JSON_BACKEND = "json"


def _line_parser() -> Any:
    """``parse(line: bytes) -> object``, raising ValueError on anything but one JSON value.

    Without orjson, the json module's C scanner is called directly: ``json.loads`` spends
    more time detecting the encoding and matching whitespace than decoding short lines.
    """
    if _orjson is not None:
        return _orjson.loads
    scan_once = json.scanner.make_scanner(json.JSONDecoder())  # type: ignore[attr-defined]
    slow = json.loads

    def parse(line: bytes) -> Any:
        try:
            text = line.decode()
            value, end = scan_once(text, 0)
        except (StopIteration, UnicodeDecodeError):
            return slow(line)  # leading whitespace or a real error: let json say which
        if end < len(text) and text[end:].strip():
            raise ValueError("extra data after the JSON value")
        return value

    return parse


REPORT_SCHEMA = 1

TIER_OUTCOMES = ("matched", "no_candidates", "ambiguous", "refused", "skipped")
FIXER_OUTCOMES = (
    "corrected",
    "no_change",
    "failed_validation",
    "invalid_answer",
    "timeout",
    "error",
)
FILE_SIZE_BUCKETS = ((100, "<100 lines"), (1_000, "100-999"), (10_000, "1k-9.9k"))
_LARGEST_BUCKET = ">=10k lines"
_UNKNOWN_SIZE = "unknown"
AMBIGUOUS_CODE = "ambiguous"

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
    cache_min_calls: int = 200
    cache_low_rate: float = 0.05
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


@dataclass(frozen=True)
class Recommendation:
    """One data-backed suggestion: a stable ``kind``, a sentence, and the figures behind it."""

    kind: str
    message: str
    evidence: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "evidence": dict(self.evidence)}


# -- time bounds ------------------------------------------------------------------------------


def parse_time(text: str) -> tuple[str, float]:
    """An ISO 8601 date/time or epoch seconds -> (fixed-width UTC string, epoch seconds).

    A time without an offset is taken as UTC. Raises BadRequest with an example otherwise.
    """
    text = text.strip()
    try:
        epoch = float(text)
    except ValueError:
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise BadRequest(
                f"Cannot read the time {text!r}.",
                hint="Give ISO 8601 (2026-11-22, 2026-11-22T05:00:00Z) or epoch seconds.",
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        epoch = moment.timestamp()
    try:
        moment = datetime.fromtimestamp(epoch, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):  # 1e400, nan, year 300000
        raise BadRequest(
            f"The time {text!r} is out of range.",
            hint="Give ISO 8601 (2026-11-22, 2026-11-22T05:00:00Z) or epoch seconds.",
        ) from None
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), epoch


# -- reading ----------------------------------------------------------------------------------


def expand_paths(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files named directly, plus every ``*.jsonl*`` / ``*.ndjson*`` file under directories.

    Rotated backups (``x.jsonl.1``) and gzipped files (``x.jsonl.gz``) are included;
    ``.lock`` files are not. A missing path raises FileNotFound.
    """
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                name = child.name
                telemetry_like = ".jsonl" in name or ".ndjson" in name
                if child.is_file() and telemetry_like and not name.endswith(".lock"):
                    files.append(child)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFound(
                f"Telemetry input {str(path)!r} does not exist.",
                path=str(path),
                hint="Pass JSON Lines files (plain or gzipped) or directories holding them.",
            )
    return files


def _open_lines(path: Path) -> IO[bytes]:
    with path.open("rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        # BufferedReader iterates lines in C (GzipFile's readline is slower per line); a
        # modest buffer loses little of a truncated file's last lines.
        return io.BufferedReader(gzip.GzipFile(path, "rb"), buffer_size=1 << 16)  # type: ignore[arg-type]
    return path.open("rb", buffering=1 << 20)


# -- aggregation ------------------------------------------------------------------------------


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
        self.outcomes = dict.fromkeys(TIER_OUTCOMES, 0)
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
        self.dry_run = 0
        self.instruction_given = 0
        self.corrected_by_fixer = 0
        self.duration = LogHistogram()
        self.strategies: dict[str, LogHistogram] = {}
        self.by_size: dict[str, LogHistogram] = {}
        self.tiers: dict[tuple[str, str], _TierStats] = {}
        self.fixer_calls = 0
        self.fixer_outcomes = dict.fromkeys(FIXER_OUTCOMES, 0)
        self.fixer_windowed = 0
        self.fixer_prompt_chars = 0
        self.fixer_latency = LogHistogram()  # cache misses
        self.fixer_latency_success = LogHistogram()
        self.fixer_latency_timeout = LogHistogram()
        self.fixer_latency_cached = LogHistogram()
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
                with _open_lines(path) as stream:
                    self.consume_lines(stream)
            except (OSError, EOFError, zlib.error):
                # A truncated or corrupt gzip (say, still being written): keep what was read.
                self.unreadable_files += 1

    def consume_lines(self, lines: Iterable[bytes | str]) -> None:
        """Fold JSON Lines; blank lines are ignored, bad ones counted as ``malformed``."""
        handlers = self._handlers
        since, until = self._since, self._until
        loads = _line_parser()
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
        if data.get("dry_run"):
            self.dry_run += 1
        if data.get("instruction_given"):
            self.instruction_given += 1
        if data.get("corrected_by_fixer"):
            self.corrected_by_fixer += 1
        self.duration.add(duration)
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
        if data.get("windowed"):
            self.fixer_windowed += 1
        self.fixer_prompt_chars += prompt_chars
        deadline = data.get("deadline_ms")
        if deadline is not None:
            deadline = float(deadline)
            self.fixer_deadlines[deadline] = self.fixer_deadlines.get(deadline, 0) + 1
        model_name = data.get("model") or "unknown"
        model = self.models.get(model_name)
        if model is None:
            model = self.models[model_name] = _ModelStats()
        model.calls += 1
        if cached:
            model.cache_hits += 1
            model.saved_input += tokens_in
            model.saved_output += tokens_out
            self.fixer_latency_cached.add(latency)
            return
        model.input_tokens += tokens_in
        model.output_tokens += tokens_out
        self.fixer_latency.add(latency)
        if outcome in ("corrected", "no_change"):
            self.fixer_latency_success.add(latency)
        elif outcome == "timeout":
            self.fixer_latency_timeout.add(latency)

    # -- result -------------------------------------------------------------------------------

    def result(self) -> dict[str, Any]:
        """The full aggregate as a JSON-ready dict (what ``--json`` writes)."""
        report: dict[str, Any] = {
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
        }
        report["recommendations"] = [r.to_dict() for r in recommend(report, self.options)]
        return report

    def _edits_section(self) -> dict[str, Any]:
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

    def _errors_section(self) -> list[dict[str, Any]]:
        return [
            {
                "error_code": code,
                "count": count,
                "share_of_edits": _rate(count, self.edits),
                "fixer_tried": self.error_codes_fixed_tried.get(code, 0),
            }
            for code, count in sorted(self.error_codes.items(), key=lambda kv: (-kv[1], kv[0]))
        ]

    def _strategies_section(self) -> list[dict[str, Any]]:
        return [
            {
                "strategy": name,
                "count": hist.count,
                "share_of_edits": _rate(hist.count, self.edits),
                "duration_ms": hist.summary(),
            }
            for name, hist in sorted(self.strategies.items(), key=lambda kv: -kv[1].count)
        ]

    def _tiers_section(self) -> list[dict[str, Any]]:
        out = []
        order = sorted(self.tiers.items(), key=lambda kv: (kv[0][1] != "original", _mean_pos(kv)))
        for (tier, pass_), stats in order:
            entry: dict[str, Any] = {
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

    def _similarity(self, tier: str, stats: _TierStats) -> dict[str, Any]:
        matched = stats.similarity.get("matched")
        given = self.options.similarity_thresholds.get(tier)
        threshold: float | None
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

    def _fixer_section(self) -> dict[str, Any]:
        calls = self.fixer_calls
        cache_hits = sum(m.cache_hits for m in self.models.values())
        by_model = []
        total_cost: float | None = 0.0
        for name, m in sorted(self.models.items(), key=lambda kv: -kv[1].calls):
            price = _price_for(name, self.options.prices)
            cost = None
            if price is not None:
                cost = (m.input_tokens * price[0] + m.output_tokens * price[1]) / 1_000_000
            elif m.input_tokens or m.output_tokens:
                total_cost = None
            if cost is not None and total_cost is not None:
                total_cost += cost
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
            "input_tokens": sum(m.input_tokens for m in self.models.values()),
            "output_tokens": sum(m.output_tokens for m in self.models.values()),
            "cost_usd": total_cost if calls else 0.0,
            "by_model": by_model,
        }

    def _size_section(self) -> list[dict[str, Any]]:
        names = [name for _, name in FILE_SIZE_BUCKETS] + [_LARGEST_BUCKET, _UNKNOWN_SIZE]
        return [
            {"bucket": name, "edits": self.by_size[name].count, **_pct(self.by_size[name])}
            for name in names
            if name in self.by_size
        ]


def _pct(hist: LogHistogram) -> dict[str, Any]:
    return {"duration_ms": hist.summary()}


def _mean_pos(item: tuple[tuple[str, str], _TierStats]) -> float:
    stats = item[1]
    return stats.position_total / stats.tries if stats.tries else math.inf


def _most_common(counts: Mapping[float, int]) -> float:
    """The value seen most often (the larger one on a tie)."""
    return max(counts.items(), key=lambda item: (item[1], item[0]))[0]


def _counts(counts: Mapping[float, int]) -> dict[str, int]:
    """``{"0.9": 120}``: JSON keys must be strings."""
    return {f"{value:g}": count for value, count in sorted(counts.items())}


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
) -> dict[str, Any]:
    """Read every file (plain or gzipped JSON Lines, or directories of them); the report dict."""
    aggregator = Aggregator(options)
    aggregator.consume_paths(paths)
    return aggregator.result()


# -- recommendations --------------------------------------------------------------------------


def recommend(
    report: Mapping[str, Any], options: ReportOptions | None = None
) -> list[Recommendation]:
    """Every recommendation whose evidence clears its threshold; quiet otherwise."""
    options = options or ReportOptions()
    t = options.thresholds
    original = [tier for tier in report["tiers"] if tier["pass"] == "original"]
    out: list[Recommendation] = []
    out.extend(_never_wins(original, t))
    out.extend(_move_earlier(original, t))
    out.extend(_threshold_edges(original, t))
    out.extend(_fixer_deadline(report["fixer"], t, options.fixer_deadline_ms))
    out.extend(_fixer_quality(report["fixer"], t))
    out.extend(_ambiguity(report["edits"], t))
    return out


def _never_wins(tiers: list[dict[str, Any]], t: Thresholds) -> Iterator[Recommendation]:
    for tier in tiers:
        if tier["tries"] >= t.tier_min_tries and tier["wins"] == 0:
            cost = tier["elapsed_ms_total"]
            yield Recommendation(
                "tier_never_wins",
                f"Tier {tier['tier']!r} never won in {tier['tries']} tries and cost "
                f"{cost:.1f} ms in all ({cost / tier['tries']:.3f} ms a try): drop it from "
                "the cascade or move it last.",
                {"tier": tier["tier"], "tries": tier["tries"], "elapsed_ms_total": cost},
            )


def _move_earlier(tiers: list[dict[str, Any]], t: Thresholds) -> Iterator[Recommendation]:
    for tier in tiers:
        win_rate = tier["win_rate"] or 0.0
        if tier["wins"] < t.reorder_min_wins or win_rate < t.reorder_min_win_rate:
            continue
        earlier = [
            other
            for other in tiers
            if other["mean_position"] < tier["mean_position"]
            and other["tries"] >= t.tier_min_tries
            and (other["win_rate"] or 0.0) < t.reorder_max_earlier_win_rate
            and other["elapsed_ms_total"] > 0
        ]
        if not earlier:
            continue
        per_win = sum(o["elapsed_ms_total"] / o["tries"] for o in earlier)
        names = ", ".join(repr(o["tier"]) for o in earlier)
        yield Recommendation(
            "tier_move_earlier",
            f"Tier {tier['tier']!r} wins {win_rate:.0%} of the edits that reach it "
            f"({tier['wins']} wins), while tried before it {names} each win under "
            f"{t.reorder_max_earlier_win_rate:.0%}: trying it earlier would save about "
            f"{per_win:.3f} ms an edit it wins ({per_win * tier['wins']:.0f} ms in this data). "
            "Only do so if it is not looser than the tiers it would overtake.",
            {
                "tier": tier["tier"],
                "wins": tier["wins"],
                "win_rate": win_rate,
                "overtakes": [o["tier"] for o in earlier],
                "saving_ms_per_win": per_win,
            },
        )


def _threshold_edges(tiers: list[dict[str, Any]], t: Thresholds) -> Iterator[Recommendation]:
    band_bins = round(t.near_band * 100)
    for tier in tiers:
        sim = tier.get("similarity")
        if not sim or sim["attempts"] < t.fuzzy_min_attempts or sim["threshold"] is None:
            continue
        edge = round(sim["threshold"] * 100)
        refused = sim["bins"].get("refused", [0] * SIMILARITY_BINS)
        matched = sim["bins"].get("matched", [0] * SIMILARITY_BINS)
        under = sum(refused[max(0, edge - band_bins) : edge])
        above = sum(matched[edge : edge + band_bins])
        refused_total, matched_total = sum(refused), sum(matched)
        low = sim["threshold"] - t.near_band
        high = sim["threshold"] + t.near_band
        basis = f"threshold {sim['threshold']:.2f} ({sim['threshold_source']})"
        if under >= t.near_min_count and under >= t.near_refused_share * refused_total:
            yield Recommendation(
                "threshold_refusals_near",
                f"Tier {tier['tier']!r}: {under} of {refused_total} refusals scored "
                f"{low:.2f}-{sim['threshold']:.2f}, just under the {basis}. Review the "
                "similarity histogram: lowering the threshold would accept them, with the "
                "risk of editing a near-duplicate.",
                {
                    "tier": tier["tier"],
                    "refused_near": under,
                    "refused": refused_total,
                    "threshold": sim["threshold"],
                },
            )
        # An inferred threshold *is* the lowest accept, so accepts always crowd just above
        # it: only a threshold given or recorded can say that accepts sit close to the edge.
        known = sim["threshold_source"] in ("given", "recorded")
        if known and above >= t.near_min_count and above >= t.near_accepted_share * matched_total:
            yield Recommendation(
                "threshold_accepts_near",
                f"Tier {tier['tier']!r}: {above} of {matched_total} accepted matches scored "
                f"{sim['threshold']:.2f}-{high:.2f}, just above the {basis}. Raising the "
                "threshold would refuse them; check a sample before moving it.",
                {
                    "tier": tier["tier"],
                    "accepted_near": above,
                    "accepted": matched_total,
                    "threshold": sim["threshold"],
                },
            )


def _fixer_deadline(
    fixer: Mapping[str, Any], t: Thresholds, deadline_ms: float | None
) -> Iterator[Recommendation]:
    timeouts, calls = fixer["timeouts"], fixer["calls"]
    if timeouts < t.fixer_min_timeouts or (fixer["timeout_rate"] or 0.0) < t.fixer_timeout_rate:
        return
    success = fixer["latency_ms_success"]
    # Given, else recorded by the engine; else inferred: a timed-out call reports about the
    # deadline as its latency, so their median estimates it.
    deadline = deadline_ms or fixer.get("deadline_ms") or fixer["latency_ms_timeout"].get("p50")
    p95 = success.get("p95")
    if not deadline or p95 is None or success["count"] < t.deadline_min_successes:
        return
    evidence = {
        "timeouts": timeouts,
        "calls": calls,
        "deadline_ms": deadline,
        "success_p95_ms": p95,
        "success_p99_ms": success.get("p99"),
    }
    share = f"{timeouts} of {calls} fixer calls ({timeouts / calls:.0%}) timed out"
    if p95 >= t.deadline_close * deadline:
        suggested = 1.5 * deadline
        yield Recommendation(
            "fixer_deadline_raise",
            f"{share}, and successful calls run close to the {deadline:.0f} ms deadline "
            f"(p95 {p95:.0f} ms): slow answers are being cut off. Raise the deadline to about "
            f"{suggested:.0f} ms.",
            {**evidence, "suggested_ms": suggested},
        )
    elif p95 <= t.deadline_far * deadline:
        suggested = 2.0 * p95
        yield Recommendation(
            "fixer_deadline_lower",
            f"{share}, yet successful calls finish well inside the {deadline:.0f} ms deadline "
            f"(p95 {p95:.0f} ms): calls that run long rarely succeed. Lower the deadline to "
            f"about {suggested:.0f} ms to fail faster.",
            {**evidence, "suggested_ms": suggested},
        )


def _fixer_quality(fixer: Mapping[str, Any], t: Thresholds) -> Iterator[Recommendation]:
    calls = fixer["calls"]
    if calls >= t.cache_min_calls and (fixer["cache_hit_rate"] or 0.0) < t.cache_low_rate:
        yield Recommendation(
            "fixer_cache_low",
            f"Only {fixer['cache_hits']} of {calls} fixer calls ({fixer['cache_hit_rate']:.1%}) "
            "were answered from the cache: check that the cache is configured and shared, "
            "and that its key does not include volatile data.",
            {"calls": calls, "cache_hits": fixer["cache_hits"]},
        )
    corrected = fixer["outcomes"].get("corrected", 0)
    if calls >= t.fixer_min_calls and corrected < t.fixer_low_success * calls:
        yield Recommendation(
            "fixer_low_success",
            f"The fixer corrected only {corrected} of {calls} calls ({corrected / calls:.0%}): "
            "review its model, prompt and window size before paying for more calls.",
            {"calls": calls, "corrected": corrected, "outcomes": dict(fixer["outcomes"])},
        )


def _ambiguity(edits: Mapping[str, Any], t: Thresholds) -> Iterator[Recommendation]:
    rate = edits["ambiguity_rate"] or 0.0
    if edits["finished"] >= t.min_edits and rate >= t.ambiguity_rate:
        yield Recommendation(
            "ambiguity_high",
            f"{edits['ambiguous']} of {edits['finished']} edits ({rate:.1%}) failed as "
            "ambiguous: agents should quote more surrounding lines, or pass replace_all "
            "when every occurrence is meant.",
            {"ambiguous": edits["ambiguous"], "edits": edits["finished"]},
        )


# -- comparison -------------------------------------------------------------------------------

_COMPARED = (
    ("edits", ("edits", "finished"), "count"),
    ("success rate", ("edits", "success_rate"), "rate"),
    ("ambiguity rate", ("edits", "ambiguity_rate"), "rate"),
    ("edit p50 ms", ("edits", "duration_ms", "p50"), "ms"),
    ("edit p95 ms", ("edits", "duration_ms", "p95"), "ms"),
    ("edit p99 ms", ("edits", "duration_ms", "p99"), "ms"),
    ("fixer call rate", ("fixer", "call_rate"), "rate"),
    ("fixer success rate", ("fixer", "success_rate"), "rate"),
    ("fixer timeout rate", ("fixer", "timeout_rate"), "rate"),
    ("fixer cache hit rate", ("fixer", "cache_hit_rate"), "rate"),
    ("fixer p50 ms", ("fixer", "latency_ms", "p50"), "ms"),
    ("fixer p95 ms", ("fixer", "latency_ms", "p95"), "ms"),
    ("fixer cost USD", ("fixer", "cost_usd"), "usd"),
)


def _dig(report: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = report
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def compare(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{metric, kind, a, b, delta}`` for two reports, plus each strategy's share."""
    rows = []
    for label, path, kind in _COMPARED:
        rows.append(_row(label, kind, _dig(a, path), _dig(b, path)))
    shares_a = {s["strategy"]: s["share_of_edits"] for s in a["strategies"]}
    shares_b = {s["strategy"]: s["share_of_edits"] for s in b["strategies"]}
    for name in sorted(set(shares_a) | set(shares_b)):
        rows.append(
            _row(f"strategy {name}", "rate", shares_a.get(name, 0.0), shares_b.get(name, 0.0))
        )
    return rows


def _row(label: str, kind: str, a: Any, b: Any) -> dict[str, Any]:
    delta = b - a if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
    return {"metric": label, "kind": kind, "a": a, "b": b, "delta": delta}
