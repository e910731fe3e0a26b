"""Telemetry: typed events for every edit, pluggable sinks, and the report built from them."""

from __future__ import annotations

from editengine._public import publish
from editengine.telemetry._events import (
    SCHEMA_VERSION,
    EditFinished,
    EditStarted,
    Event,
    FixerCalled,
    TierTried,
    event_from_dict,
)
from editengine.telemetry._html import render_html
from editengine.telemetry._html_vs import render_comparison_html
from editengine.telemetry._recorder import Telemetry
from editengine.telemetry._report import (
    Aggregator,
    Recommendation,
    ReportOptions,
    Thresholds,
    aggregate_paths,
    compare,
)
from editengine.telemetry._sinks import (
    CallbackSink,
    JsonlSink,
    LoggingSink,
    MemorySink,
    OTelSink,
    Sink,
)

__all__ = [
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
]


publish(globals())  # public names show this package, not their private module
