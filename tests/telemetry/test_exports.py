"""The public names of editengine.telemetry, and the optional extras it must not import eagerly."""

from __future__ import annotations

import subprocess
import sys

import editengine.telemetry


def test_exported_names():
    assert set(editengine.telemetry.__all__) == {
        "SCHEMA_VERSION",
        "Aggregator",
        "CallbackSink",
        "EditFinished",
        "EditStarted",
        "Event",
        "FixerCalled",
        "JsonlSink",
        "LoggingSink",
        "MemorySink",
        "OTelSink",
        "Recommendation",
        "ReportOptions",
        "Sink",
        "Telemetry",
        "Thresholds",
        "TierTried",
        "aggregate_paths",
        "compare",
        "event_from_dict",
        "render_comparison_html",
        "render_html",
    }
    for name in editengine.telemetry.__all__:
        assert getattr(editengine.telemetry, name) is not None


def test_optional_extras_are_imported_only_when_used():
    code = (
        "import sys, editengine.telemetry, editengine.cli._report;"
        "print(sorted(m for m in ('opentelemetry', 'plotly') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
