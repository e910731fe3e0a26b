"""The headline figures of a report and how they moved against the previous period.

Within one report the period is its days of data: the later half is compared with the
earlier half of the same length ("last 3 days vs the 3 before"), so a single report already
says whether the success rate is rising or falling.
"""

from __future__ import annotations

from dataclasses import dataclass

from editengine.telemetry._shape import DayRow, Direction, HalfRow, MetricKind, Report


@dataclass(frozen=True)
class Headline:
    """One headline figure over the whole report; ``current`` and ``previous`` are the same
    figure over the later and the earlier half of its days, when it has two or more."""

    label: str
    kind: MetricKind
    better: Direction
    value: float | None
    current: float | None = None
    previous: float | None = None

    @property
    def delta(self) -> float | None:
        if self.current is None or self.previous is None:
            return None
        return self.current - self.previous


@dataclass(frozen=True)
class Periods:
    """The days compared: ``current`` (the later half) and ``previous`` (the one before)."""

    previous: list[DayRow]
    current: list[DayRow]

    @property
    def label(self) -> str:
        n = len(self.current)
        unit = "day" if n == 1 else f"{n} days"
        first, last = self.current[0]["day"], self.current[-1]["day"]
        return f"last {unit} ({first}..{last}) vs the {unit} before"


def periods(days: list[DayRow]) -> Periods | None:
    """The later and earlier halves of the days with data; None under two days."""
    if len(days) < 2:
        return None
    half = len(days) // 2
    return Periods(previous=days[-2 * half : -half], current=days[-half:])


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _cost(days: list[DayRow]) -> float | None:
    """The fixer's cost over ``days``; unknown (None) when any day's is."""
    costs = [d.get("cost_usd", 0.0) for d in days]
    return None if any(c is None for c in costs) else sum(c or 0.0 for c in costs)


def _figures(days: list[DayRow], half: HalfRow | None) -> dict[str, float | None]:
    edits = sum(d["edits"] for d in days)
    calls = sum(d["fixer_calls"] for d in days)
    return {
        "edits": float(edits),
        "success rate": _rate(sum(d["successes"] for d in days), edits),
        "errors": float(sum(d["errors"] for d in days)),
        "ambiguity rate": _rate(sum(d.get("ambiguous", 0) for d in days), edits),
        "edit p95 ms": half["duration_p95_ms"] if half else None,
        "fixer calls": float(calls),
        "fixer success rate": _rate(sum(d["fixer_corrected"] for d in days), calls),
        "fixer cost USD": _cost(days),
    }


def headlines(report: Report) -> tuple[list[Headline], Periods | None]:
    """The figures at the top of a page, each with its move between the two halves."""
    edits, fixer = report["edits"], report["fixer"]
    split = periods(report["days"])
    # Reports written before "halves" existed have no p95 per half: no change shown then.
    halves: list[HalfRow | None] = [*report.get("halves", [])] or [None, None]
    now = _figures(split.current, halves[-1]) if split else {}
    before = _figures(split.previous, halves[0]) if split else {}

    def headline(label: str, kind: MetricKind, better: Direction, whole: float | None) -> Headline:
        return Headline(label, kind, better, whole, now.get(label), before.get(label))

    return [
        headline("edits", "count", "none", float(edits["finished"])),
        headline("success rate", "rate", "up", edits["success_rate"]),
        headline("errors", "count", "down", float(edits["errors"])),
        headline("ambiguity rate", "rate", "down", edits["ambiguity_rate"]),
        headline("edit p95 ms", "ms", "down", edits["duration_ms"].get("p95")),
        headline("fixer calls", "count", "down", float(fixer["calls"])),
        headline("fixer success rate", "rate", "up", fixer["success_rate"]),
        headline("fixer cost USD", "usd", "down", fixer["cost_usd"]),
    ], split
