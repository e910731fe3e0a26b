"""Telemetry: typed events for every edit, pluggable sinks, and the report built from them.

Collection and figures only: the report's renderings (terminal tables, HTML pages, charts)
are the package :mod:`editengine.reports`, which reads this one and is never read by it.
``render_html`` and ``render_comparison_html`` are still importable from here: they are
looked up in ``editengine.reports`` on first use, so loading telemetry loads no renderer.
"""

from __future__ import annotations

from typing import Any

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


# Kept where users first found them; the renderers live in editengine.reports.
_RENDERERS = ("render_comparison_html", "render_html")


def __getattr__(name: str) -> Any:
    if name in _RENDERERS:
        from editengine import reports

        return getattr(reports, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_RENDERERS})


publish(globals())  # public names show this package, not their private module
