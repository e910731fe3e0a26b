"""Each recommendation fires on data built to trigger it and stays quiet otherwise."""

from __future__ import annotations

import pytest

from editengine.telemetry import ReportOptions
from editengine.telemetry._report import aggregate_paths
from editengine.telemetry._synthetic import SyntheticConfig, write_synthetic

FUZZY = {"block_anchor": 0.90}


def recommendations(tmp_path, *, options=None, **config):
    path = tmp_path / "t.jsonl"
    write_synthetic(path, SyntheticConfig(**config))
    report = aggregate_paths([path], options or ReportOptions(similarity_thresholds=FUZZY))
    return {r["kind"]: r for r in report["recommendations"]}


BASE = {"edits": 1500, "seed": 3, "p_ambiguous": 0.01}


def test_a_tier_that_never_wins(tmp_path):
    wins = {"exact": 80.0, "boundary": 0.0, "line_trimmed": 20.0}
    tiers = ("exact", "boundary", "line_trimmed", "block_anchor")
    recs = recommendations(tmp_path, tiers=tiers, wins=wins, **BASE)
    rec = recs["tier_never_wins"]
    assert rec["evidence"]["tier"] == "boundary" and rec["evidence"]["tries"] >= 200
    assert "'boundary' never won" in rec["message"]


def test_no_never_wins_when_every_tier_wins_sometimes(tmp_path):
    wins = {"exact": 80.0, "boundary": 5.0, "line_trimmed": 15.0, "block_anchor": 3.0}
    tiers = ("exact", "boundary", "line_trimmed", "block_anchor")
    recs = recommendations(tmp_path, tiers=tiers, wins=wins, **BASE)
    assert "tier_never_wins" not in recs


def test_a_later_tier_that_wins_often_should_move_earlier(tmp_path):
    tiers = ("exact", "unicode", "line_trimmed", "block_anchor")
    wins = {"exact": 40.0, "unicode": 0.2, "line_trimmed": 60.0, "block_anchor": 1.0}
    recs = recommendations(tmp_path, tiers=tiers, wins=wins, **BASE)
    rec = recs["tier_move_earlier"]
    assert rec["evidence"]["tier"] == "line_trimmed"
    assert rec["evidence"]["overtakes"] == ["unicode"]
    assert rec["evidence"]["win_rate"] > 0.8


def test_no_reordering_when_earlier_tiers_pull_their_weight(tmp_path):
    tiers = ("exact", "unicode", "line_trimmed", "block_anchor")
    wins = {"exact": 40.0, "unicode": 20.0, "line_trimmed": 40.0, "block_anchor": 1.0}
    recs = recommendations(tmp_path, tiers=tiers, wins=wins, **BASE)
    assert "tier_move_earlier" not in recs


FUZZY_MIX = {
    "edits": 1500,
    "seed": 9,
    "tiers": ("exact", "block_anchor"),
    "wins": {"exact": 50.0, "block_anchor": 50.0},
    "p_no_match": 0.3,
    "p_fixer": 0.0,
}


def test_refusals_just_under_the_threshold(tmp_path):
    recs = recommendations(tmp_path, p_refused_near=0.5, p_accepted_near=0.0, **FUZZY_MIX)
    rec = recs["threshold_refusals_near"]
    assert rec["evidence"]["tier"] == "block_anchor" and rec["evidence"]["threshold"] == 0.9
    assert rec["evidence"]["refused_near"] > 0.3 * rec["evidence"]["refused"]
    assert "threshold_accepts_near" not in recs


def test_accepts_just_above_the_threshold(tmp_path):
    recs = recommendations(tmp_path, p_refused_near=0.0, p_accepted_near=0.6, **FUZZY_MIX)
    rec = recs["threshold_accepts_near"]
    assert rec["evidence"]["accepted_near"] > 0.4 * rec["evidence"]["accepted"]
    assert "threshold_refusals_near" not in recs


def test_threshold_edges_quiet_on_a_clean_split(tmp_path):
    recs = recommendations(tmp_path, p_refused_near=0.0, p_accepted_near=0.0, **FUZZY_MIX)
    assert not {"threshold_refusals_near", "threshold_accepts_near"} & set(recs)


FIXER_MIX = {"edits": 800, "seed": 4, "p_no_match": 0.5, "p_fixer": 1.0, "p_ambiguous": 0.0}


def test_timeouts_near_a_tight_deadline_suggest_raising_it(tmp_path):
    recs = recommendations(
        tmp_path, fixer_deadline_ms=3_000.0, fixer_latency_ms=2_700.0, **FIXER_MIX
    )
    rec = recs["fixer_deadline_raise"]
    assert rec["evidence"]["deadline_ms"] == pytest.approx(3_000.0, abs=20)
    assert rec["evidence"]["suggested_ms"] > 3_000.0
    assert "fixer_deadline_lower" not in recs


def test_timeouts_far_beyond_successful_calls_suggest_lowering_it(tmp_path):
    recs = recommendations(
        tmp_path, fixer_deadline_ms=60_000.0, fixer_latency_ms=2_000.0, **FIXER_MIX
    )
    rec = recs["fixer_deadline_lower"]
    assert rec["evidence"]["suggested_ms"] < 20_000.0
    assert "fixer_deadline_raise" not in recs


def test_no_deadline_advice_without_timeouts(tmp_path):
    outcomes = {"corrected": 0.9, "no_change": 0.05, "failed_validation": 0.05}
    recs = recommendations(tmp_path, fixer_outcomes=outcomes, **FIXER_MIX)
    assert not {"fixer_deadline_raise", "fixer_deadline_lower"} & set(recs)


def test_repeated_requests_that_miss_the_cache(tmp_path):
    # Identical requests come again and the cache answers none of them: a cache problem.
    recs = recommendations(tmp_path, p_cache_hit=0.0, p_repeat_miss=0.3, **FIXER_MIX)
    evidence = recs["fixer_cache_low"]["evidence"]
    assert evidence["repeated_misses"] == evidence["repeated_requests"] >= 20


def test_no_cache_advice_when_requests_do_not_repeat(tmp_path):
    # Every edit fails differently: no request repeats, so no cache could have helped,
    # however low the hit rate.
    assert "fixer_cache_low" not in recommendations(tmp_path, p_cache_hit=0.0, **FIXER_MIX)


def test_no_cache_advice_when_the_repeats_hit(tmp_path):
    recs = recommendations(tmp_path, p_cache_hit=0.5, p_repeat_miss=0.05, **FIXER_MIX)
    assert "fixer_cache_low" not in recs


def test_events_without_request_keys_never_suggest_the_cache(tmp_path):
    from editengine.telemetry._aggregate import Aggregator

    aggregator = Aggregator()
    event = {"event": "fixer.called", "ts": "2026-01-01T00:00:00.000000Z", "outcome": "corrected",
             "latency_ms": 900.0, "cache_hit": False}  # fmt: skip
    aggregator.consume([event] * 500)  # an engine from before request_key: cannot tell
    report = aggregator.result()
    assert report["fixer"]["keyed_calls"] == report["fixer"]["repeated_requests"] == 0
    assert not [r for r in report["recommendations"] if r["kind"] == "fixer_cache_low"]


def test_a_fixer_that_rarely_corrects(tmp_path):
    poor = {"corrected": 0.1, "failed_validation": 0.8, "error": 0.1}
    assert "fixer_low_success" in recommendations(tmp_path, fixer_outcomes=poor, **FIXER_MIX)
    assert "fixer_low_success" not in recommendations(tmp_path, **FIXER_MIX)


def test_high_ambiguity(tmp_path):
    rec = recommendations(tmp_path, edits=1000, seed=1, p_ambiguous=0.2)["ambiguity_high"]
    assert 0.15 < rec["evidence"]["ambiguous"] / rec["evidence"]["edits"] < 0.25
    assert "ambiguity_high" not in recommendations(tmp_path, edits=1000, seed=1, p_ambiguous=0.01)


def test_everything_stays_quiet_on_too_little_data(tmp_path):
    troubled = {
        "edits": 60,
        "seed": 2,
        "p_ambiguous": 0.3,
        "p_no_match": 0.5,
        "p_fixer": 1.0,
        "p_cache_hit": 0.0,
        "fixer_deadline_ms": 3_000.0,
        "fixer_latency_ms": 2_900.0,
        "p_refused_near": 1.0,
        "p_accepted_near": 1.0,
        "fixer_outcomes": {"corrected": 0.1, "timeout": 0.9},
    }
    assert recommendations(tmp_path, **troubled) == {}


def test_accepts_near_an_inferred_threshold_say_nothing(tmp_path):
    recs = recommendations(
        tmp_path, options=ReportOptions(), p_refused_near=0.0, p_accepted_near=0.0, **FUZZY_MIX
    )
    assert "threshold_accepts_near" not in recs
