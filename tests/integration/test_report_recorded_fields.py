"""The report prefers what the engine recorded (thresholds, the fixer deadline) to guessing,
and still reads events written before those fields existed."""

from __future__ import annotations

from editengine.telemetry._report import Aggregator, ReportOptions

TS = "2026-11-22T05:00:00.000000Z"


def tier_event(similarity: float, outcome: str, threshold: float | None) -> dict:
    event = {
        "event": "tier.tried",
        "v": 1,
        "ts": TS,
        "edit_id": "e",
        "engine_version": "0",
        "tier": "block_anchor",
        "outcome": outcome,
        "candidates": 1,
        "best_similarity": similarity,
        "elapsed_ms": 0.5,
        "pass": "original",
        "position": 7,
    }
    if threshold is not None:
        event["threshold"] = threshold
    return event


def fixer_event(outcome: str, latency_ms: float, deadline_ms: float | None) -> dict:
    event = {
        "event": "fixer.called",
        "v": 1,
        "ts": TS,
        "edit_id": "e",
        "engine_version": "0",
        "provider": "openai",
        "model": "gpt-4.1-mini",
        "outcome": outcome,
        "latency_ms": latency_ms,
        "input_tokens": 100,
        "output_tokens": 10,
        "cache_hit": False,
        "windowed": False,
        "prompt_chars": 1000,
    }
    if deadline_ms is not None:
        event["deadline_ms"] = deadline_ms
    return event


def accepts_near(threshold: float | None) -> list[dict]:
    """120 accepted matches, all within 0.03 above 0.85, none lower: an inferred threshold
    (the lowest accept) cannot tell they sit on the edge; a recorded one can."""
    return [tier_event(0.85 + (i % 3) / 100, "matched", threshold) for i in range(120)]


def report_of(events: list[dict], **options) -> dict:
    aggregator = Aggregator(ReportOptions(**options))
    aggregator.consume(events)
    return aggregator.result()


def anchor(report: dict) -> dict:
    (row,) = [row for row in report["tiers"] if row["tier"] == "block_anchor"]
    return row["similarity"]


def kinds(report: dict) -> set[str]:
    return {r["kind"] for r in report["recommendations"]}


def test_a_recorded_threshold_is_used_and_enables_the_near_accept_rule():
    report = report_of(accepts_near(0.85))
    sim = anchor(report)
    assert (sim["threshold"], sim["threshold_source"]) == (0.85, "recorded")
    assert sim["thresholds_recorded"] == {"0.85": 120}
    assert "threshold_accepts_near" in kinds(report)


def test_without_recorded_thresholds_the_report_infers_as_before():
    report = report_of(accepts_near(None))
    sim = anchor(report)
    assert (sim["threshold"], sim["threshold_source"]) == (0.85, "inferred")
    assert sim["thresholds_recorded"] == {}
    assert "threshold_accepts_near" not in kinds(report)


def test_a_given_threshold_beats_the_recorded_one():
    sim = anchor(report_of(accepts_near(0.85), similarity_thresholds={"block_anchor": 0.8}))
    assert (sim["threshold"], sim["threshold_source"]) == (0.8, "given")


def test_the_most_common_recorded_threshold_is_the_one_shown():
    events = accepts_near(0.85) + [tier_event(0.95, "matched", 0.9) for _ in range(10)]
    sim = anchor(report_of(events))
    assert sim["threshold"] == 0.85 and sim["thresholds_recorded"] == {"0.85": 120, "0.9": 10}


def fixer_calls(deadline_ms: float | None) -> list[dict]:
    """60 successes with p95 about 9 s, 25 timeouts whose latency (20 s, e.g. a slow
    process) says nothing true about a 10 s deadline."""
    events = [fixer_event("corrected", 8_000 + 20 * i, deadline_ms) for i in range(60)]
    events += [fixer_event("timeout", 20_000, deadline_ms) for _ in range(25)]
    return events


def test_a_recorded_deadline_is_used_for_the_deadline_advice():
    report = report_of(fixer_calls(10_000.0))
    assert report["fixer"]["deadline_ms"] == 10_000.0
    assert report["fixer"]["deadlines_recorded"] == {"10000": 85}
    (advice,) = [r for r in report["recommendations"] if r["kind"].startswith("fixer_deadline")]
    assert advice["kind"] == "fixer_deadline_raise"
    assert advice["evidence"]["deadline_ms"] == 10_000.0


def test_without_a_recorded_deadline_it_is_inferred_from_timeouts():
    report = report_of(fixer_calls(None))
    assert report["fixer"]["deadline_ms"] is None
    (advice,) = [r for r in report["recommendations"] if r["kind"].startswith("fixer_deadline")]
    assert advice["kind"] == "fixer_deadline_lower"
    assert advice["evidence"]["deadline_ms"] == 20_000.0


def test_a_given_deadline_beats_the_recorded_one():
    report = report_of(fixer_calls(10_000.0), fixer_deadline_ms=40_000.0)
    (advice,) = [r for r in report["recommendations"] if r["kind"].startswith("fixer_deadline")]
    assert advice["evidence"]["deadline_ms"] == 40_000.0
