"""Two reports side by side (``report --vs``): each figure for A and B and the change.

Each row says which way is better, so a page can colour a change as an improvement or a
regression without knowing the metric, and how large a change must be to count at all
(its ``noise``: see :mod:`.noise`).
"""

from __future__ import annotations

from collections.abc import Callable

from editengine.telemetry._noise import Noise
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


def _noise_of(label: str, a: Report, b: Report, va: float | None, vb: float | None,
              noise: Noise) -> float | None:  # fmt: skip
    """The noise threshold of one of :data:`COMPARED`, from the two reports' spread."""
    edits = (a["edits"]["finished"], b["edits"]["finished"])
    calls = (a["fixer"]["calls"], b["fixer"]["calls"])
    if label in ("success rate", "ambiguity rate", "fixer call rate"):
        return noise.rate(va, vb, *edits)
    if label.startswith("fixer") and label.endswith("rate"):
        return noise.rate(va, vb, *calls)
    if label.endswith(" ms"):
        fixer = label.startswith("fixer")
        p = float(label.split()[1].removeprefix("p"))
        bars = [
            r["fixer"]["latency_bars"] if fixer else r["edits"]["duration_bars"] for r in (a, b)
        ]
        summaries = [
            r["fixer"]["latency_ms"] if fixer else r["edits"]["duration_ms"] for r in (a, b)
        ]
        counts = [int(s.get("count") or 0) for s in summaries]
        return noise.percentile(va, p, bars[0], counts[0], bars[1], counts[1])
    if label == "fixer cost USD":
        misses = [r["fixer"]["calls"] - r["fixer"]["cache_hits"] for r in (a, b)]
        return noise.total(va, vb, *misses)
    return noise.count(va, vb)


def compare(a: Report, b: Report, *, noise: Noise | None = None) -> list[ComparisonRow]:
    """Rows ``{metric, kind, better, a, b, delta, noise}`` for two reports, plus each
    strategy's share of the edits (neutral: a shift in the mix is neither better nor worse).
    ``noise`` sets how large a change must be to count (default: from the runs' spread)."""
    noise = noise or Noise()
    rows = []
    for label, read, kind, better in COMPARED:
        va, vb = read(a), read(b)
        rows.append(row(label, kind, better, va, vb, _noise_of(label, a, b, va, vb, noise)))
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
    label: str,
    kind: MetricKind,
    better: Direction,
    a: float | None,
    b: float | None,
    noise: float | None = None,
) -> ComparisonRow:
    delta = b - a if a is not None and b is not None else None
    return {
        "metric": label,
        "kind": kind,
        "better": better,
        "a": a,
        "b": b,
        "delta": delta,
        "noise": noise,
    }


def verdict(item: ComparisonRow) -> str:
    """``better``, ``worse`` or ``same`` for B against A (``same`` for neutral metrics and
    for a change within the noise threshold)."""
    delta = item["delta"]
    if not delta or item["better"] == "none":
        return "same"
    noise = item.get("noise")
    if noise is not None and abs(delta) <= noise:
        return "same"
    improved = delta > 0 if item["better"] == "up" else delta < 0
    return "better" if improved else "worse"
