"""Which telemetry records the report can count: each field it reads has the right type.

Telemetry files come from many engine versions and may be edited, truncated or forged. A
record whose fields the report would misread (``Infinity`` as a duration, an error code
that is a number, a tier name that is a boolean) is counted as malformed and skipped as a
whole, before it touches any total, so one bad line never ends or skews a report.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

_TEXT = "text"
_OPTIONAL_TEXT = "optional text"
_NUMBER = "number"
_OPTIONAL_NUMBER = "optional number"
_OPTIONAL_COUNT = "optional count"

# event -> field -> kind, for the fields the report's handlers read.
_FIELDS: dict[str, dict[str, str]] = {
    "edit.started": {},
    "edit.finished": {
        "outcome": _TEXT,
        "duration_ms": _NUMBER,
        "error_code": _OPTIONAL_TEXT,
        "fixer_outcome": _OPTIONAL_TEXT,
        "strategy": _OPTIONAL_TEXT,
        "file_lines": _OPTIONAL_COUNT,
    },
    "tier.tried": {
        "tier": _TEXT,
        "pass": _OPTIONAL_TEXT,
        "outcome": _TEXT,
        "elapsed_ms": _NUMBER,
        "position": _OPTIONAL_COUNT,
        "best_similarity": _OPTIONAL_NUMBER,
        "threshold": _OPTIONAL_NUMBER,
    },
    "fixer.called": {
        "outcome": _TEXT,
        "latency_ms": _NUMBER,
        "input_tokens": _OPTIONAL_COUNT,
        "output_tokens": _OPTIONAL_COUNT,
        "prompt_chars": _OPTIONAL_COUNT,
        "deadline_ms": _OPTIONAL_NUMBER,
        "model": _OPTIONAL_TEXT,
        "refusal_reason": _OPTIONAL_TEXT,
        "request_key": _OPTIONAL_TEXT,
    },
}


def well_formed(data: Mapping[str, Any]) -> bool:
    """True when every field the report reads from this event has a usable value.

    Events of a name the report does not know are left to its ``unknown`` count (True).
    """
    fields = _FIELDS.get(data.get("event"))  # type: ignore[arg-type]  # any value may be looked up: not a str finds nothing
    if fields is None:
        return True
    ts = data.get("ts")
    if ts is not None and not (type(ts) is str or _finite(ts)):
        return False
    return all(_fits(data.get(name), kind) for name, kind in fields.items())


def _fits(value: Any, kind: str) -> bool:
    if kind == _TEXT:
        return type(value) is str
    if kind == _NUMBER:
        return _finite(value) and value >= 0
    if value is None:
        return True
    if kind == _OPTIONAL_TEXT:
        return type(value) is str
    if kind == _OPTIONAL_NUMBER:
        return _finite(value) and value >= 0
    return type(value) is int and value >= 0  # _OPTIONAL_COUNT


def _finite(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)
