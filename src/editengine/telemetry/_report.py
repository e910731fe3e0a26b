"""The telemetry report in one import: read, aggregate, recommend, compare.

Each step lives in its own module (:mod:`.reading`, :mod:`.aggregate`, :mod:`.recommend`,
:mod:`.compare`) and the report's shape in :mod:`.shape`; this module gathers the names
callers use.

>>> report = aggregate_paths(["telemetry/"])       # doctest: +SKIP
>>> rows = compare(report, aggregate_paths(["last-week/"]))  # doctest: +SKIP
"""

from __future__ import annotations

from editengine.telemetry._aggregate import Aggregator, aggregate_paths
from editengine.telemetry._compare import compare
from editengine.telemetry._counters import AMBIGUOUS_CODE, FILE_SIZE_BUCKETS
from editengine.telemetry._options import DEFAULT_PRICES, ReportOptions, Thresholds
from editengine.telemetry._reading import JSON_BACKEND, expand_paths, parse_time
from editengine.telemetry._recommend import Recommendation, recommend
from editengine.telemetry._shape import (
    FIXER_OUTCOMES,
    REPORT_SCHEMA,
    TIER_OUTCOMES,
    ComparisonRow,
    Report,
)

__all__ = [
    "AMBIGUOUS_CODE",
    "DEFAULT_PRICES",
    "FILE_SIZE_BUCKETS",
    "FIXER_OUTCOMES",
    "JSON_BACKEND",
    "REPORT_SCHEMA",
    "TIER_OUTCOMES",
    "Aggregator",
    "ComparisonRow",
    "Recommendation",
    "Report",
    "ReportOptions",
    "Thresholds",
    "aggregate_paths",
    "compare",
    "expand_paths",
    "parse_time",
    "recommend",
]
