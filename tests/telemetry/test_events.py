"""Events emitted for each path of an edit, with the documented fields and no content."""

from __future__ import annotations

import json

import pytest

import editengine
from editengine.telemetry import (
    SCHEMA_VERSION,
    JsonlSink,
    MemorySink,
    Telemetry,
    event_from_dict,
)
from editengine.telemetry._events import path_hash

COMMON = {"event", "v", "ts", "edit_id", "engine_version"}
STARTED = COMMON | {
    "operation",
    "dry_run",
    "match_mode",
    "replace_all",
    "instruction_given",
    "old_chars",
    "new_chars",
    "path_sha256",
}
TIER = COMMON | {
    "tier",
    "outcome",
    "candidates",
    "best_similarity",
    "elapsed_ms",
    "pass",
    "position",
    "threshold",
}
FIXER = COMMON | {
    "provider",
    "model",
    "outcome",
    "latency_ms",
    "input_tokens",
    "output_tokens",
    "cache_hit",
    "windowed",
    "prompt_chars",
    "deadline_ms",
    "prompt_bytes",
    "prompt_tokens",
    "prompt_budget_bytes",
    "refusal_reason",
    "request_key",
}
FINISHED = COMMON | {
    "outcome",
    "error_code",
    "strategy",
    "replacements",
    "duration_ms",
    "file_lines",
    "file_bytes",
    "dry_run",
    "operation",
    "match_mode",
    "instruction_given",
    "tiers_tried",
    "tier_ms",
    "fixer_outcome",
    "corrected_by_fixer",
    "path_sha256",
    "syntax_guard_tier",
}
FIELDS = {
    "edit.started": STARTED,
    "tier.tried": TIER,
    "fixer.called": FIXER,
    "edit.finished": FINISHED,
}


def record(state, **kwargs):
    memory = MemorySink()
    # The edit starts at 1_790_000_000.25 and finishes 1.25 s later.
    readings = iter([1_790_000_000.25, 1_790_000_001.5])
    telemetry = Telemetry(sinks=[memory], clock=lambda: next(readings), **kwargs)
    telemetry.edit_started(state)
    telemetry.edit_finished(state)
    return [e.to_dict() for e in memory.events]


@pytest.mark.parametrize(
    "name",
    [
        "exact_hit",
        "fuzzy_hit",
        "ambiguity",
        "no_match",
        "fixer_success",
        "fixer_timeout",
        "cache_hit",
    ],
)
def test_every_path_emits_the_documented_fields(edit_paths, name):
    state = edit_paths[name]()
    events = record(state)
    names = [e["event"] for e in events]
    expected = ["edit.started"] + ["tier.tried"] * len(state.attempts)
    expected += ["fixer.called"] if state.fixer else []
    assert names == [*expected, "edit.finished"]
    for event in events:
        assert set(event) == FIELDS[event["event"]], event["event"]
        assert event["v"] == SCHEMA_VERSION
        assert event["edit_id"] == "edit-1"
        assert event["engine_version"] == editengine.__version__
        assert event == event_from_dict(event).to_dict()
    assert events[0]["ts"] == "2026-09-21T14:13:20.250000Z"
    assert events[-1]["ts"] == "2026-09-21T14:13:21.500000Z"


def test_exact_hit(edit_paths):
    *_, tier, finished = record(edit_paths["exact_hit"]())
    assert (tier["tier"], tier["outcome"], tier["candidates"], tier["pass"]) == (
        "exact",
        "matched",
        1,
        "original",
    )
    assert finished["outcome"] == "success" and finished["strategy"] == "exact"
    assert finished["replacements"] == 1 and finished["error_code"] is None
    assert finished["file_lines"] == 120 and finished["file_bytes"] == 4096
    assert finished["fixer_outcome"] is None and not finished["corrected_by_fixer"]


def test_fuzzy_hit_carries_the_similarity_and_position(edit_paths):
    events = record(edit_paths["fuzzy_hit"]())
    tiers = [e for e in events if e["event"] == "tier.tried"]
    assert [t["position"] for t in tiers] == [0, 1, 2]
    assert tiers[-1]["best_similarity"] == 0.93 and tiers[-1]["outcome"] == "matched"
    finished = events[-1]
    assert finished["strategy"] == "block_anchor" and finished["tiers_tried"] == 3
    assert finished["tier_ms"] == pytest.approx(1.05)


def test_ambiguity(edit_paths):
    *_, tier, finished = record(edit_paths["ambiguity"]())
    assert tier["outcome"] == "ambiguous" and tier["candidates"] == 3
    assert finished["outcome"] == "error" and finished["error_code"] == "ambiguous"


def test_no_match_without_fixer(edit_paths):
    events = record(edit_paths["no_match"]())
    assert "fixer.called" not in [e["event"] for e in events]
    assert events[-1]["error_code"] == "no_match" and events[-1]["strategy"] is None
    assert events[2]["outcome"] == "refused" and events[2]["best_similarity"] == 0.71


def test_fixer_success_splits_the_passes(edit_paths):
    events = record(edit_paths["fixer_success"]())
    tiers = [e for e in events if e["event"] == "tier.tried"]
    assert [(t["tier"], t["pass"], t["position"]) for t in tiers] == [
        ("exact", "original", 0),
        ("block_anchor", "original", 1),
        ("exact", "fixer", 0),
    ]
    (fixer,) = [e for e in events if e["event"] == "fixer.called"]
    assert fixer["outcome"] == "corrected" and fixer["latency_ms"] == 1840.0
    assert (fixer["input_tokens"], fixer["output_tokens"]) == (1200, 90)
    assert fixer["windowed"] is True and fixer["cache_hit"] is False
    assert fixer["provider"] == "openai" and fixer["model"] == "gpt-4o-mini"
    assert events[-1]["corrected_by_fixer"] is True and events[-1]["fixer_outcome"] == "corrected"


def test_fixer_timeout(edit_paths):
    events = record(edit_paths["fixer_timeout"]())
    (fixer,) = [e for e in events if e["event"] == "fixer.called"]
    assert fixer["outcome"] == "timeout" and fixer["latency_ms"] == 30_000.0
    assert all(t["pass"] == "original" for t in events if t["event"] == "tier.tried")
    finished = events[-1]
    assert finished["error_code"] == "fixer_timeout" and not finished["corrected_by_fixer"]


def test_cache_hit(edit_paths):
    events = record(edit_paths["cache_hit"]())
    (fixer,) = [e for e in events if e["event"] == "fixer.called"]
    assert fixer["cache_hit"] is True and fixer["latency_ms"] == 0.7


def test_path_is_a_sha256_pseudonym(edit_paths):
    state = edit_paths["exact_hit"]()
    events = record(state)
    assert events[0]["path_sha256"] == events[-1]["path_sha256"] == path_hash(state.file_path)
    assert len(events[0]["path_sha256"]) == 16
    assert path_hash("a.py") != path_hash("b.py")


@pytest.mark.parametrize(
    "name",
    [
        "exact_hit",
        "fuzzy_hit",
        "ambiguity",
        "no_match",
        "fixer_success",
        "fixer_timeout",
        "cache_hit",
    ],
)
def test_no_content_reaches_the_jsonl_file_by_default(edit_paths, tmp_path, name):
    state = edit_paths[name]()
    sink = JsonlSink(tmp_path / "t.jsonl")
    with Telemetry(sinks=[sink]) as telemetry:
        telemetry.edit_started(state)
        telemetry.edit_finished(state)
    written = (tmp_path / "t.jsonl").read_text()
    assert written.count("\n") >= 3
    fixer_note = state.fixer.note if state.fixer else None
    for secret in (
        state.file_path,
        "plan_zebra",
        "acme-secret",
        state.old_preview,
        state.new_preview,
        "transfer_funds_zq",
        state.hash_before,
        fixer_note,
    ):
        if secret:
            assert secret not in written


def test_snippets_only_on_opt_in(edit_paths):
    state = edit_paths["fuzzy_hit"]()
    started, *_, finished = record(state, include_snippets=True)
    assert started["path"] == state.file_path == finished["path"]
    assert started["old_preview"] == state.old_preview
    assert started["new_preview"] == state.new_preview
    default = json.dumps(record(state))
    assert '"path"' not in default and "preview" not in default


def test_event_from_dict_rejects_unknown_events_and_versions():
    with pytest.raises(ValueError, match="unknown"):
        event_from_dict({"event": "edit.exploded", "v": 1})
    with pytest.raises(ValueError, match="version"):
        event_from_dict(
            {"event": "edit.started", "v": 99, "edit_id": "x", "ts": "t", "engine_version": "0"}
        )


def test_the_clock_dates_the_whole_edit_so_telemetry_can_be_back_dated(edit_paths):
    """A clock days in the past stamps every event of the edit, the start included."""
    memory = MemorySink()
    days_ago = [1_700_000_000.0]
    telemetry = Telemetry(sinks=[memory], clock=lambda: days_ago[0], delivery="immediate")
    for day in range(3):
        days_ago[0] = 1_700_000_000.0 + day * 86_400
        telemetry.edit_started(edit_paths["exact_hit"]())
        days_ago[0] += 2.0
        telemetry.edit_finished(edit_paths["exact_hit"]())
    stamps = [(e.to_dict()["event"], e.to_dict()["ts"]) for e in memory.events]
    started = [ts for name, ts in stamps if name == "edit.started"]
    finished = [ts for name, ts in stamps if name == "edit.finished"]
    assert started == [
        "2023-11-14T22:13:20.000000Z",
        "2023-11-15T22:13:20.000000Z",
        "2023-11-16T22:13:20.000000Z",
    ]
    assert finished == [ts.replace(":20.0", ":22.0") for ts in started]
