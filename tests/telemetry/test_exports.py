"""The public names of editengine.telemetry, and the optional extras it must not import eagerly."""

from __future__ import annotations

import subprocess
import sys

import pytest

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


def test_the_renderers_are_still_found_here_and_loaded_only_when_asked_for():
    # render_html and render_comparison_html live in editengine.reports; telemetry hands
    # them out on first use, so collecting events never loads a renderer.
    code = (
        "import sys, editengine, editengine.telemetry as t;"
        "before = 'editengine.reports' in sys.modules;"
        "from editengine.telemetry import *;"
        "import editengine.reports as r;"
        "print(before, render_html is r.render_html, t.render_comparison_html is"
        " r.render_comparison_html, 'render_html' in dir(t))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True", "True"]
    with pytest.raises(AttributeError, match="render_pdf"):
        getattr(editengine.telemetry, "render_pdf")  # noqa: B009  # a name it has not: the error is the point
