"""Sinks: several at once, failures contained, JSONL safe across processes, OpenTelemetry."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap

import pytest

from editengine.telemetry import (
    CallbackSink,
    EditFinished,
    JsonlSink,
    LoggingSink,
    MemorySink,
    OTelSink,
    Telemetry,
)


class ExplodingSink:
    def __init__(self):
        self.calls = 0

    def emit(self, event):
        self.calls += 1
        raise OSError("disk full")

    def close(self):
        raise OSError("still full")


def run_edit(telemetry, state):
    telemetry.edit_started(state)
    telemetry.edit_finished(state)
    telemetry.flush()  # sinks other than MemorySink are served by a worker thread


def test_a_raising_sink_neither_fails_the_edit_nor_starves_the_others(edit_paths, caplog):
    before, after = MemorySink(), MemorySink()
    bad = ExplodingSink()
    telemetry = Telemetry(sinks=[before, bad, after])
    with caplog.at_level(logging.WARNING, logger="editengine.telemetry"):
        run_edit(telemetry, edit_paths["fixer_success"]())
        run_edit(telemetry, edit_paths["exact_hit"]())
        telemetry.close()
    assert len(before.events) == len(after.events) == 9
    assert bad.calls == 9
    failures = [
        r for r in caplog.records if "sink" in r.getMessage() and "failed;" in r.getMessage()
    ]
    assert len(failures) == 1  # once per sink, not once per event


def test_a_state_telemetry_cannot_describe_is_logged_not_raised(make_state, caplog):
    memory = MemorySink()
    state = make_state(attempts=[object()])  # not a TierAttempt
    with caplog.at_level(logging.WARNING, logger="editengine.telemetry"):
        Telemetry(sinks=[memory]).edit_finished(state)
    assert memory.events == []
    assert "could not describe" in caplog.text


def test_callback_and_logging_sinks_receive_every_event(edit_paths, caplog):
    seen = []
    logger = logging.getLogger("test.telemetry.events")
    telemetry = Telemetry(sinks=[CallbackSink(seen.append), LoggingSink(logger=logger)])
    with caplog.at_level(logging.INFO, logger="test.telemetry.events"):
        run_edit(telemetry, edit_paths["fuzzy_hit"]())
    assert [e.event for e in seen] == ["edit.started"] + ["tier.tried"] * 3 + ["edit.finished"]
    assert len(caplog.records) == 5
    last = caplog.records[-1]
    assert json.loads(last.getMessage())["strategy"] == "block_anchor"
    assert last.telemetry["event"] == "edit.finished"


def test_a_plain_callable_is_a_sink_and_junk_is_refused(edit_paths):
    seen = []
    run_edit(Telemetry(sinks=[seen.append]), edit_paths["exact_hit"]())
    assert [e.event for e in seen] == ["edit.started", "tier.tried", "edit.finished"]
    with pytest.raises(TypeError, match="emit"):
        Telemetry(sinks=["telemetry.jsonl"])


def test_logging_sink_skips_work_when_the_level_is_off(edit_paths):
    logger = logging.getLogger("test.telemetry.quiet")
    logger.setLevel(logging.WARNING)
    records = []
    logger.addHandler(logging.Handler())
    logger.handlers[-1].emit = records.append
    run_edit(
        Telemetry(sinks=[LoggingSink(logger=logger, level=logging.DEBUG)]),
        edit_paths["exact_hit"](),
    )
    assert records == []


def finished(edit_id: str) -> EditFinished:
    return EditFinished(
        edit_id=edit_id,
        ts="2026-01-01T00:00:00.000000Z",
        engine_version="0",
        outcome="success",
        strategy="exact",
        duration_ms=1.0,
    )


def read_all(directory, name="t.jsonl"):
    lines = []
    for path in sorted(directory.iterdir()):
        if path.name.startswith(name) and not path.name.endswith(".lock"):
            data = path.read_bytes()
            assert data == b"" or data.endswith(b"\n"), path
            lines.extend(data.splitlines())
    return [json.loads(line) for line in lines]


def test_jsonl_rotates_by_size_and_keeps_backups(tmp_path):
    sink = JsonlSink(tmp_path / "t.jsonl", max_bytes=2_000, backups=2)
    for i in range(100):
        sink.emit(finished(f"e{i}"))
    sink.close()
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock"))
    assert names == ["t.jsonl", "t.jsonl.1", "t.jsonl.2"]
    for name in names:
        assert (tmp_path / name).stat().st_size <= 2_000
    kept = [e["edit_id"] for e in read_all(tmp_path)]
    assert "e99" in kept and "e0" not in kept  # the oldest fell off the end
    assert len(kept) == len(set(kept))


def test_jsonl_rejects_nonsense_settings(tmp_path):
    with pytest.raises(ValueError):
        JsonlSink(tmp_path / "t.jsonl", max_bytes=0)
    with pytest.raises(ValueError):
        JsonlSink(tmp_path / "t.jsonl", backups=-1)


WRITER = textwrap.dedent(
    """
    import sys
    from editengine.telemetry import EditFinished, JsonlSink
    path, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sink = JsonlSink(path, max_bytes=20_000, backups=10_000)
    for i in range(count):
        sink.emit(EditFinished(edit_id=f"{worker}-{i}", ts="2026-01-01T00:00:00.000000Z",
                               engine_version="0", outcome="success", strategy="exact",
                               error_code="x" * (i % 97)))
    sink.close()
    """
)


def test_processes_appending_to_one_file_write_whole_lines_and_lose_none(tmp_path):
    workers, count = 4, 600
    target = tmp_path / "t.jsonl"
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(target), str(w), str(count)])
        for w in range(workers)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0] * workers
    events = read_all(tmp_path)  # json.loads fails on any torn line
    ids = [e["edit_id"] for e in events]
    assert len(ids) == workers * count
    assert set(ids) == {f"{w}-{i}" for w in range(workers) for i in range(count)}
    rotated = [
        p for p in tmp_path.iterdir() if p.name.startswith("t.jsonl.") and p.suffix != ".lock"
    ]
    assert len(rotated) > 5  # rotation really happened under contention


otel_sdk = pytest.importorskip("opentelemetry.sdk")


def otel_providers():
    from opentelemetry.sdk._logs import LoggerProvider, export

    exporter_cls = getattr(export, "InMemoryLogRecordExporter", None) or export.InMemoryLogExporter
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader

    exporter = exporter_cls()
    logs = LoggerProvider()
    logs.add_log_record_processor(export.SimpleLogRecordProcessor(exporter))
    reader = InMemoryMetricReader()
    return exporter, logs, reader, MeterProvider(metric_readers=[reader])


def metric_points(reader):
    points = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                points[metric.name] = list(metric.data.data_points)
    return points


def test_otel_sink_emits_log_records_counters_and_histograms(edit_paths):
    exporter, logs, reader, meters = otel_providers()
    telemetry = Telemetry(sinks=[OTelSink(logger_provider=logs, meter_provider=meters)])
    run_edit(telemetry, edit_paths["fixer_success"]())
    run_edit(telemetry, edit_paths["exact_hit"]())
    run_edit(telemetry, edit_paths["ambiguity"]())
    records = [item.log_record for item in exporter.get_finished_logs()]
    bodies = [r.body for r in records]
    assert bodies.count("edit.finished") == 3 and bodies.count("fixer.called") == 1
    fixer = next(r for r in records if r.body == "fixer.called")
    assert fixer.attributes["editengine.latency_ms"] == 1840.0
    assert fixer.attributes["editengine.model"] == "gpt-4o-mini"
    points = metric_points(reader)
    edits = {
        (p.attributes["outcome"], p.attributes["strategy"]): p.value
        for p in points["editengine.edits"]
    }
    assert edits == {("success", "exact"): 2, ("error", "none"): 1}
    (duration,) = [
        p for p in points["editengine.edit.duration"] if p.attributes["outcome"] == "success"
    ]
    assert duration.count == 2 and duration.sum == pytest.approx(1851.5)
    (latency,) = points["editengine.fixer.latency"]
    assert latency.count == 1 and latency.sum == 1840.0
    tokens = {p.attributes["direction"]: p.value for p in points["editengine.fixer.tokens"]}
    assert tokens == {"input": 1200, "output": 90}


def test_otel_sink_can_add_span_events(edit_paths):
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    _, logs, _, meters = otel_providers()
    spans = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(spans))
    telemetry = Telemetry(
        sinks=[OTelSink(mode="span_event", logger_provider=logs, meter_provider=meters)]
    )
    with tracer_provider.get_tracer("test").start_as_current_span("agent step"):
        run_edit(telemetry, edit_paths["exact_hit"]())
    (span,) = spans.get_finished_spans()
    assert [e.name for e in span.events] == ["edit.started", "tier.tried", "edit.finished"]
    assert span.events[-1].attributes["editengine.strategy"] == "exact"


def test_otel_sink_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="mode"):
        OTelSink(mode="carrier-pigeon")


def test_jsonl_without_backups_starts_afresh(tmp_path):
    sink = JsonlSink(tmp_path / "t.jsonl", max_bytes=1_000, backups=0)
    for i in range(30):
        sink.emit(finished(f"e{i}"))
    sink.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl", "t.jsonl.lock"]
    kept = [e["edit_id"] for e in read_all(tmp_path)]
    assert kept[-1] == "e29" and "e0" not in kept


def test_a_closed_jsonl_sink_refuses_events(tmp_path):
    sink = JsonlSink(tmp_path / "t.jsonl")
    sink.close()
    with pytest.raises(ValueError, match="closed"):
        sink.emit(finished("late"))
