"""The report's figures on event sets whose truth is known."""

from __future__ import annotations

import gzip
import json
import math
import random

import pytest

from editengine._errors import BadRequest, FileNotFound
from editengine.telemetry import Aggregator, MemorySink, ReportOptions, Telemetry, compare
from editengine.telemetry._histogram import RELATIVE_ERROR, LogHistogram
from editengine.telemetry._report import aggregate_paths, parse_time
from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic


def nearest_rank(values, p):
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


@pytest.fixture(scope="module")
def known(tmp_path_factory):
    path = tmp_path_factory.mktemp("known") / "t.jsonl"
    truth = write_synthetic(path, SyntheticConfig(edits=3000, seed=11, p_no_match=0.15))
    return truth, aggregate_paths([path])


def test_counts_match_the_truth_exactly(known):
    truth, report = known
    edits = report["edits"]
    assert report["input"]["events"] == truth.events and report["input"]["malformed"] == 0
    assert edits["finished"] == edits["started"] == truth.edits == 3000
    assert edits["outcomes"] == dict(truth.outcomes)
    assert edits["success_rate"] == (truth.outcomes["success"] + truth.outcomes["no_change"]) / 3000
    assert edits["ambiguity_rate"] == truth.error_codes["ambiguous"] / 3000
    assert {e["error_code"]: e["count"] for e in report["errors"]} == dict(truth.error_codes)
    assert {s["strategy"]: s["count"] for s in report["strategies"]} == dict(truth.strategies)
    tiers = {(t["tier"], t["pass"]): t for t in report["tiers"]}
    assert {k: t["tries"] for k, t in tiers.items()} == dict(truth.tier_tries)
    assert {k: t["wins"] for k, t in tiers.items() if t["wins"]} == dict(truth.tier_wins)


def test_fixer_figures_match_the_truth(known):
    truth, report = known
    fixer = report["fixer"]
    calls = sum(truth.fixer_outcomes.values())
    assert fixer["calls"] == calls > 100
    assert {k: v for k, v in fixer["outcomes"].items() if v} == dict(truth.fixer_outcomes)
    assert fixer["timeouts"] == truth.fixer_outcomes["timeout"]
    assert fixer["cache_hits"] == truth.cache_hits
    assert fixer["cache_hit_rate"] == truth.cache_hits / calls
    assert fixer["rescued_edits"] == truth.rescued == report["edits"]["corrected_by_fixer"]
    assert (fixer["input_tokens"], fixer["output_tokens"]) == (
        truth.input_tokens,
        truth.output_tokens,
    )
    expected_cost = (truth.input_tokens * 0.15 + truth.output_tokens * 0.60) / 1e6
    assert fixer["cost_usd"] == pytest.approx(expected_cost)
    latency = fixer["latency_ms"]
    assert latency["exact"] and latency["count"] == len(truth.fixer_latencies)
    for p in (50, 90, 95, 99):
        assert latency[f"p{p}"] == nearest_rank(truth.fixer_latencies, p)


def test_duration_percentiles_are_within_the_documented_error(known):
    truth, report = known
    duration = report["edits"]["duration_ms"]
    assert duration["count"] == 3000 and not duration["exact"]
    assert duration["min"] == min(truth.durations) and duration["max"] == max(truth.durations)
    for p in (50, 90, 95, 99):
        exact = nearest_rank(truth.durations, p)
        assert abs(duration[f"p{p}"] - exact) <= RELATIVE_ERROR * exact + 1e-9


def test_similarity_histogram_holds_every_fuzzy_attempt(known):
    truth, report = known
    (fuzzy,) = [
        t for t in report["tiers"] if t["tier"] == "block_anchor" and t["pass"] == "original"
    ]
    bins = fuzzy["similarity"]["bins"]
    for outcome, values in truth.fuzzy_similarities.items():
        assert sum(bins[outcome]) == len(values)
        assert bins[outcome][90] == sum(1 for v in values if 0.90 <= v < 0.91)
    assert fuzzy["similarity"]["threshold"] == 0.90  # lowest accepted bin
    assert fuzzy["similarity"]["threshold_source"] == "inferred"


def test_small_hand_built_set(edit_paths):
    memory = MemorySink()
    telemetry = Telemetry(sinks=[memory])
    for build in edit_paths.values():
        state = build()
        telemetry.edit_started(state)
        telemetry.edit_finished(state)
    aggregator = Aggregator()
    aggregator.consume(e.to_dict() for e in memory.events)
    report = aggregator.result()
    assert report["edits"]["finished"] == 7
    assert report["edits"]["success_rate"] == 4 / 7
    assert report["edits"]["ambiguity_rate"] == 1 / 7
    fixer = report["fixer"]
    assert (fixer["calls"], fixer["cache_hits"], fixer["timeouts"]) == (3, 1, 1)
    assert fixer["latency_ms"]["p50"] == 1840.0  # cache hits are kept apart
    assert fixer["latency_ms_cache_hit"]["max"] == 0.7
    durations = [build().duration_ms for build in edit_paths.values()]
    assert report["edits"]["duration_ms"]["p50"] == nearest_rank(durations, 50)
    by_model = {m["model"]: m for m in fixer["by_model"]}
    assert by_model["gpt-4o-mini"]["cached_input_tokens"] == 1200
    assert by_model["claude-haiku-4-5"]["cost_usd"] == 0.0
    assert report["recommendations"] == []  # far too little data to say anything


def test_malformed_and_blank_lines_are_skipped_and_counted(tmp_path, edit_paths):
    memory = MemorySink()
    telemetry = Telemetry(sinks=[memory])
    state = edit_paths["exact_hit"]()
    telemetry.edit_started(state)
    telemetry.edit_finished(state)
    good = [json.dumps(e.to_dict()) for e in memory.events]
    bad = [
        '{"event": "edit.finished", "v": 1',
        "not json",
        "[1, 2]",
        "",
        '{"event": "edit.finished", "v": 1, "ts": "2026"}',
        '{"event": "x.y", "v": 1}',
        good[0] + " trailing",
        '{"event": ["edit.finished"], "v": 1}',
    ]
    path = tmp_path / "t.jsonl"
    text = "\n".join(good[:1] + bad + good[1:]) + "\n"
    path.write_bytes(text.encode() + b'{"event": "\xff\xfe"}\n')  # not UTF-8
    report = aggregate_paths([path])
    assert report["input"]["events"] == 3
    assert report["input"]["malformed"] == 6
    assert report["input"]["unknown_events"] == 2
    assert report["edits"]["finished"] == 1


def test_gzipped_input_and_directories_with_rotated_files(tmp_path):
    config = SyntheticConfig(edits=400, seed=5)
    plain = write_synthetic(tmp_path / "a.jsonl", config)
    (tmp_path / "dir").mkdir()
    write_synthetic(tmp_path / "dir" / "b.jsonl.1", config)
    write_synthetic(tmp_path / "dir" / "c.jsonl.gz", config, compress=True)
    (tmp_path / "dir" / "c.jsonl.lock").write_text("")
    (tmp_path / "dir" / "notes.txt").write_text("not telemetry")
    with gzip.open(tmp_path / "dir" / "c.jsonl.gz", "rb") as fh:
        assert fh.readline().startswith(b'{"event":"edit.started"')
    one = aggregate_paths([tmp_path / "a.jsonl"])
    both = aggregate_paths([tmp_path / "dir"])
    assert both["input"]["files"] == 2 and both["input"]["malformed"] == 0
    assert both["edits"]["finished"] == 2 * one["edits"]["finished"] == 2 * plain.edits
    assert both["fixer"]["calls"] == 2 * one["fixer"]["calls"]


def test_a_missing_input_is_a_typed_error(tmp_path):
    with pytest.raises(FileNotFound) as info:
        aggregate_paths([tmp_path / "nope.jsonl"])
    assert info.value.code == "file_not_found"


def test_since_and_until_select_a_period(tmp_path):
    start = 1_790_000_000.0
    config = SyntheticConfig(
        edits=3000, seed=2, start=start, seconds_between_edits=2.0, p_no_match=0.0
    )
    write_synthetic(tmp_path / "t.jsonl", config)
    since_iso, _ = parse_time(str(start + 2 * 1000))
    options = ReportOptions(since=since_iso, until=start + 2 * 2000)
    report = aggregate_paths([tmp_path / "t.jsonl"], options)
    assert report["edits"]["finished"] == report["edits"]["started"] == 1000
    assert report["input"]["first_ts"] >= since_iso
    assert report["input"]["filtered_out"] > 0


def test_times_are_read_in_several_forms():
    assert parse_time("2026-11-22") == parse_time("2026-11-22T00:00:00Z")
    assert parse_time("2026-11-22T01:00:00+01:00")[1] == parse_time("2026-11-22T00:00:00")[1]
    assert parse_time("1790000000")[0] == "2026-09-21T14:13:20.000000Z"
    with pytest.raises(BadRequest, match="ISO 8601"):
        parse_time("yesterday-ish")


def test_vs_compares_two_configurations(tmp_path):
    write_synthetic(tmp_path / "a.jsonl", SyntheticConfig(edits=1500, seed=1, p_ambiguous=0.02))
    write_synthetic(tmp_path / "b.jsonl", SyntheticConfig(edits=1000, seed=2, p_ambiguous=0.20))
    a, b = aggregate_paths([tmp_path / "a.jsonl"]), aggregate_paths([tmp_path / "b.jsonl"])
    rows = {r["metric"]: r for r in compare(a, b)}
    assert rows["edits"]["a"] == 1500 and rows["edits"]["delta"] == -500
    amb = rows["ambiguity rate"]
    assert amb["a"] == a["edits"]["ambiguity_rate"] and amb["b"] == b["edits"]["ambiguity_rate"]
    assert amb["delta"] == pytest.approx(amb["b"] - amb["a"]) and amb["delta"] > 0.1
    assert rows["strategy exact"]["b"] == next(
        s["share_of_edits"] for s in b["strategies"] if s["strategy"] == "exact"
    )


def test_log_histogram_is_exact_when_small_and_close_when_large():
    small = LogHistogram()
    for v in (5.0, 1.0, 3.0, 0.0):
        small.add(v)
    assert small.percentile(50) == 1.0 and small.percentile(100) == 5.0 and small.exact
    rng = random.Random(4)
    values = [rng.lognormvariate(2, 2) for _ in range(20_000)] + [0.0] * 100
    big = LogHistogram()
    halves = LogHistogram(), LogHistogram()
    for i, v in enumerate(values):
        big.add(v)
        halves[i % 2].add(v)
    halves[0].merge(halves[1])
    assert not big.exact
    for p in (1, 10, 50, 90, 99, 99.9):
        exact = nearest_rank(values, p)
        assert abs(big.percentile(p) - exact) <= RELATIVE_ERROR * exact
        assert halves[0].percentile(p) == big.percentile(p)
    assert big.percentile(0.1) == 0.0
    assert len(big._buckets) < 1200  # bounded by the spread, not the count


def test_a_truncated_gzip_keeps_what_was_read(tmp_path):
    write_synthetic(tmp_path / "whole.jsonl.gz", SyntheticConfig(edits=300, seed=8), compress=True)
    data = (tmp_path / "whole.jsonl.gz").read_bytes()
    (tmp_path / "cut.jsonl.gz").write_bytes(data[: len(data) // 2])
    whole = aggregate_paths([tmp_path / "whole.jsonl.gz"])
    cut = aggregate_paths([tmp_path / "cut.jsonl.gz"])
    assert cut["input"]["unreadable_files"] == 1 and whole["input"]["unreadable_files"] == 0
    assert 0 < cut["edits"]["finished"] < whole["edits"]["finished"]
