"""Figures as text, the same in the terminal and on the pages."""

from __future__ import annotations

from editengine.telemetry._shape import FixerSection, LatencySummary, MetricKind, TierRow


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:,.0f}" if value >= 1000 else f"{value:.1f}"


def usd(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.4f}"


def count(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def percentile(summary: LatencySummary, key: str) -> str:
    """``p50`` etc. of a latency summary in ms; ``-`` when nothing was counted."""
    value = summary.get(key) if summary.get("count") else None
    return ms(value if isinstance(value, (int, float)) else None)


def value(kind: MetricKind, figure: float | None, *, signed: bool = False) -> str:
    """A figure of ``kind``; ``signed`` for a change (``+1.5 pp``, ``-3.2`` ms). A cost
    that is not known (a model without a price) reads ``unknown``, as in the tables."""
    if figure is None:
        return "unknown" if kind == "usd" else "-"
    sign = "+" if signed and figure > 0 else ""
    if kind == "rate":
        return f"{sign}{figure * 100:.1f}" + (" pp" if signed else "%")
    if kind == "count":
        return f"{sign}{figure:,.0f}"
    if kind == "usd":
        return f"{sign}{figure:,.4f}"
    if figure < 0:
        return f"-{ms(-figure)}"
    return f"{sign}{ms(figure)}"


def repeats(fixer: FixerSection) -> str:
    """Repeats of an earlier identical request, and (in brackets) those that missed the
    cache; ``-`` for events without request_key (an engine that did not record it)."""
    if not fixer.get("keyed_calls"):
        return "-"
    return f"{fixer['repeated_requests']:,} ({fixer['repeated_misses']:,})"


def refusals(fixer: FixerSection) -> str:
    """``misplaced 12, search_ambiguous 3``: why the engine refused the corrections."""
    reasons = fixer.get("refusal_reasons") or {}
    return ", ".join(f"{reason} {n:,}" for reason, n in reasons.items()) or "-"


def period(first_ts: str | None, last_ts: str | None) -> str:
    """``2026-11-20 09:00 .. 2026-11-26 17:42 UTC`` from two event timestamps."""
    if not first_ts or not last_ts:
        return "-"
    return f"{first_ts[:16].replace('T', ' ')} .. {last_ts[:16].replace('T', ' ')} UTC"


def tier_figures(row: TierRow) -> tuple[str, ...]:
    """A tier row's figures after its name and pass (mean position, tries, wins, win rate,
    ambiguous, refused, mean and total ms), the same in the text report and on the page."""
    position = row["mean_position"]
    return (
        "-" if position is None else f"{position:.1f}",
        f"{row['tries']:,}",
        f"{row['wins']:,}",
        pct(row["win_rate"]),
        f"{row['outcomes'].get('ambiguous', 0):,}",
        f"{row['outcomes'].get('refused', 0):,}",
        ms(row["elapsed_ms"].get("mean")),
        ms(row["elapsed_ms_total"]),
    )
