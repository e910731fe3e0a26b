"""What each sink promises in detail: the OpenTelemetry names, units and labels a collector's
dashboards are built on, the JSONL file's mode, bounds and backup order, the JSON line."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import stat
import sys

import pytest

from editengine import __version__
from editengine.telemetry import JsonlSink, LoggingSink, MemorySink, OTelSink, Telemetry
from editengine.telemetry import _sinks as sinks_module

from .test_sinks import finished, metric_points, otel_providers, run_edit

# -- OpenTelemetry ------------------------------------------------------------------------

INSTRUMENTS = {
    "editengine.edits": ("1", "Edits"),
    "editengine.tier.attempts": ("1", "Tier attempts"),
    "editengine.fixer.calls": ("1", "Fixer calls"),
    "editengine.fixer.tokens": ("1", "Fixer tokens"),
    "editengine.edit.duration": ("ms", "Edit duration"),
    "editengine.fixer.latency": ("ms", "Fixer latency"),
}


def otel_run(states):
    exporter, logs, reader, meters = otel_providers()
    telemetry = Telemetry(sinks=[OTelSink(logger_provider=logs, meter_provider=meters)])
    for state in states:
        run_edit(telemetry, state)
    finished_logs = exporter.get_finished_logs()
    for item in finished_logs:
        scope = item.instrumentation_scope
        assert (scope.name, scope.version) == ("editengine", __version__)
    return [item.log_record for item in finished_logs], reader


def instruments(reader):
    found = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            assert (scope.scope.name, scope.scope.version) == ("editengine", __version__)
            for metric in scope.metrics:
                found[metric.name] = (metric.unit, metric.description)
    return found


def test_otel_instruments_have_their_documented_names_units_and_descriptions(edit_paths):
    _, reader = otel_run([edit_paths["fixer_success"](), edit_paths["ambiguity"]()])
    assert instruments(reader) == INSTRUMENTS


def test_otel_metrics_carry_their_documented_labels(edit_paths):
    _, reader = otel_run([edit_paths["fixer_success"](), edit_paths["ambiguity"]()])
    points = metric_points(reader)

    edits = {tuple(sorted(p.attributes.items())): p.value for p in points["editengine.edits"]}
    assert edits == {
        (("error_code", "none"), ("outcome", "success"), ("strategy", "exact")): 1,
        (("error_code", "ambiguous"), ("outcome", "error"), ("strategy", "none")): 1,
    }
    tiers = {
        (p.attributes["tier"], p.attributes["outcome"]): p.value
        for p in points["editengine.tier.attempts"]
    }
    assert tiers == {
        ("exact", "no_candidates"): 1,
        ("block_anchor", "refused"): 1,
        ("exact", "matched"): 1,
        ("exact", "ambiguous"): 1,
    }
    assert all(set(p.attributes) == {"tier", "outcome"} for p in points["editengine.tier.attempts"])
    (call,) = points["editengine.fixer.calls"]
    assert dict(call.attributes) == {
        "outcome": "corrected",
        "model": "gpt-4o-mini",
        "cache_hit": False,
    }
    assert call.value == 1
    (latency,) = points["editengine.fixer.latency"]
    assert dict(latency.attributes) == {"outcome": "corrected"}
    tokens = {
        tuple(sorted(p.attributes.items())): p.value for p in points["editengine.fixer.tokens"]
    }
    assert tokens == {
        (("direction", "input"), ("model", "gpt-4o-mini")): 1200,
        (("direction", "output"), ("model", "gpt-4o-mini")): 90,
    }


def test_a_fixer_call_without_a_model_is_labelled_unknown(edit_paths):
    state = edit_paths["fixer_success"]()
    state.fixer = dataclasses.replace(state.fixer, model=None)
    _, reader = otel_run([state])
    (call,) = metric_points(reader)["editengine.fixer.calls"]
    assert call.attributes["model"] == "unknown"
    models = {p.attributes["model"] for p in metric_points(reader)["editengine.fixer.tokens"]}
    assert models == {"unknown"}


def test_a_cache_hit_records_no_latency(edit_paths):
    _, reader = otel_run([edit_paths["cache_hit"]()])
    points = metric_points(reader)
    assert points["editengine.fixer.calls"][0].attributes["cache_hit"] is True
    assert points.get("editengine.fixer.latency", []) == []


def test_otel_log_records_are_info_named_and_carry_no_empty_fields(edit_paths):
    records, _ = otel_run([edit_paths["exact_hit"]()])
    assert [r.body for r in records] == ["edit.started", "tier.tried", "edit.finished"]
    for record in records:
        assert record.severity_text == "INFO"
        assert record.severity_number.name == "INFO"
        assert record.attributes["event.name"] == record.body
        assert "editengine.event" not in record.attributes
        assert None not in record.attributes.values()
    finished_record = records[-1]
    assert finished_record.attributes["editengine.strategy"] == "exact"
    assert "editengine.error_code" not in finished_record.attributes  # None: left out


def test_otel_sink_without_opentelemetry_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "opentelemetry", None)  # as if not installed
    with pytest.raises(ImportError) as caught:
        OTelSink()
    assert str(caught.value) == "OTelSink needs OpenTelemetry: pip install 'editengine[otel]'"


def test_otel_sink_says_which_modes_exist():
    with pytest.raises(ValueError, match=r"^mode must be 'log' or 'span_event'$"):
        OTelSink(mode="carrier-pigeon")


# -- JSON lines -----------------------------------------------------------------------------


def test_a_json_line_is_compact_keeps_unicode_and_ends_the_line(monkeypatch):
    data = {"edit_id": "é", "n": [1, 2]}
    expected = '{"edit_id":"é","n":[1,2]}\n'.encode()
    assert sinks_module.dumps_line(data) == expected
    monkeypatch.setattr(sinks_module, "_orjson", None)  # the json module gives the same line
    assert sinks_module.dumps_line(data) == expected


def test_the_logging_sink_logs_under_its_documented_name(caplog):
    sink = LoggingSink()
    with caplog.at_level(logging.INFO, logger="editengine.telemetry.events"):
        sink.emit(finished("e1"))
    (record,) = caplog.records
    assert record.name == "editengine.telemetry.events"
    assert json.loads(record.getMessage())["edit_id"] == "e1"
    assert record.telemetry["edit_id"] == "e1"


def test_memory_sink_picks_events_by_name(edit_paths):
    memory = MemorySink()
    run_edit(Telemetry(sinks=[memory]), edit_paths["exact_hit"]())
    assert [e.event for e in memory.named("tier.tried")] == ["tier.tried"]
    assert memory.named("fixer.called") == []


# -- the JSONL file ---------------------------------------------------------------------------


def test_jsonl_settings_are_refused_with_what_is_allowed(tmp_path):
    with pytest.raises(ValueError, match=r"^max_bytes must be positive$"):
        JsonlSink(tmp_path / "t.jsonl", max_bytes=0)
    with pytest.raises(ValueError, match=r"^backups must be zero or more$"):
        JsonlSink(tmp_path / "t.jsonl", backups=-1)
    JsonlSink(tmp_path / "t.jsonl", max_bytes=1, backups=0).close()  # the smallest allowed


def test_jsonl_makes_the_missing_folders_of_its_path(tmp_path):
    sink = JsonlSink(tmp_path / "a" / "b" / "t.jsonl")
    sink.emit(finished("e1"))
    sink.close()
    assert (tmp_path / "a" / "b" / "t.jsonl").exists()


def test_a_new_jsonl_file_is_readable_by_all_writable_by_its_owner(tmp_path):
    previous = os.umask(0o022)
    try:
        JsonlSink(tmp_path / "t.jsonl").close()
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "t.jsonl").stat().st_mode) == 0o644


def test_a_closed_jsonl_sink_says_so(tmp_path):
    sink = JsonlSink(tmp_path / "t.jsonl")
    sink.close()
    with pytest.raises(ValueError, match=r"^JsonlSink is closed$"):
        sink.emit(finished("late"))


def test_lines_that_exactly_fill_the_limit_stay_in_one_file(tmp_path):
    line = len(sinks_module.dumps_line(finished("e0").to_dict()))
    sink = JsonlSink(tmp_path / "t.jsonl", max_bytes=2 * line)
    sink.emit(finished("e0"))
    sink.emit(finished("e1"))
    sink.close()
    assert not (tmp_path / "t.jsonl.1").exists()
    assert (tmp_path / "t.jsonl").stat().st_size == 2 * line


def test_a_new_log_another_tool_started_is_filled_up_not_rotated(tmp_path):
    path = tmp_path / "t.jsonl"
    line = len(sinks_module.dumps_line(finished("e0").to_dict()))
    sink = JsonlSink(path, max_bytes=3 * line)
    sink.emit(finished("e0"))
    os.rename(path, tmp_path / "t.jsonl.old")
    started = sinks_module.dumps_line(finished("o1").to_dict()) * 2
    path.write_bytes(started)  # the new file has room for exactly one more line
    sink.emit(finished("e1"))
    sink.close()
    assert not (tmp_path / "t.jsonl.1").exists()
    assert [json.loads(x)["edit_id"] for x in path.read_text().splitlines()] == [
        "o1",
        "o1",
        "e1",
    ]


def test_five_backups_by_default_each_one_rotation_older(tmp_path):
    line = len(sinks_module.dumps_line(finished("e0").to_dict()))
    sink = JsonlSink(tmp_path / "t.jsonl", max_bytes=line)  # one line per file
    for n in range(8):
        sink.emit(finished(f"e{n}"))
    sink.close()
    kept = {
        path.name: json.loads(path.read_text())["edit_id"]
        for path in tmp_path.iterdir()
        if not path.name.endswith(".lock")
    }
    assert kept == {
        "t.jsonl": "e7",
        "t.jsonl.1": "e6",
        "t.jsonl.2": "e5",
        "t.jsonl.3": "e4",
        "t.jsonl.4": "e3",
        "t.jsonl.5": "e2",
    }
