"""Two reports side by side (``report --vs``): each figure for A and B and the change.

Each row says which way is better, so a page can colour a change as an improvement or a
regression without knowing the metric.
"""

from __future__ import annotations

from collections.abc import Callable

from editengine.telemetry._shape import ComparisonRow, Direction, MetricKind, Report


def _latency(section: str, key: str) -> Callable[[Report], float | None]:
    def read(report: Report) -> float | None:
        summary = (
            report["edits"]["duration_ms"] if section == "edits" else report["fixer"]["latency_ms"]
        )
        value = summary.get(key)
        return float(value) if isinstance(value, (int, float)) else None

    return read


COMPARED: tuple[tuple[str, Callable[[Report], float | None], MetricKind, Direction], ...] = (
    ("edits", lambda r: r["edits"]["finished"], "count", "none"),
    ("success rate", lambda r: r["edits"]["success_rate"], "rate", "up"),
    ("ambiguity rate", lambda r: r["edits"]["ambiguity_rate"], "rate", "down"),
    ("edit p50 ms", _latency("edits", "p50"), "ms", "down"),
    ("edit p95 ms", _latency("edits", "p95"), "ms", "down"),
    ("edit p99 ms", _latency("edits", "p99"), "ms", "down"),
    ("fixer call rate", lambda r: r["fixer"]["call_rate"], "rate", "down"),
    ("fixer success rate", lambda r: r["fixer"]["success_rate"], "rate", "up"),
    ("fixer timeout rate", lambda r: r["fixer"]["timeout_rate"], "rate", "down"),
    ("fixer cache hit rate", lambda r: r["fixer"]["cache_hit_rate"], "rate", "up"),
    ("fixer p50 ms", _latency("fixer", "p50"), "ms", "down"),
    ("fixer p95 ms", _latency("fixer", "p95"), "ms", "down"),
    ("fixer cost USD", lambda r: r["fixer"]["cost_usd"], "usd", "down"),
)


def compare(a: Report, b: Report) -> list[ComparisonRow]:
    """Rows ``{metric, kind, better, a, b, delta}`` for two reports, plus each strategy's
    share of the edits (neutral: a shift in the mix is neither better nor worse)."""
    rows = [row(label, kind, better, read(a), read(b)) for label, read, kind, better in COMPARED]
    shares_a = {s["strategy"]: s["share_of_edits"] for s in a["strategies"]}
    shares_b = {s["strategy"]: s["share_of_edits"] for s in b["strategies"]}
    for name in sorted(set(shares_a) | set(shares_b)):
        rows.append(
            row(
                f"strategy {name}",
                "rate",
                "none",
                shares_a.get(name) or 0.0,
                shares_b.get(name) or 0.0,
            )
        )
    return rows


def row(
    label: str, kind: MetricKind, better: Direction, a: float | None, b: float | None
) -> ComparisonRow:
    delta = b - a if a is not None and b is not None else None
    return {"metric": label, "kind": kind, "better": better, "a": a, "b": b, "delta": delta}


def verdict(item: ComparisonRow) -> str:
    """``better``, ``worse`` or ``same`` for B against A (``same`` for neutral metrics)."""
    delta = item["delta"]
    if not delta or item["better"] == "none":
        return "same"
    improved = delta > 0 if item["better"] == "up" else delta < 0
    return "better" if improved else "worse"
