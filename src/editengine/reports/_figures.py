"""The report's plotly figures: each one a question a maintainer asks while tuning.

Rules every chart follows: a histogram keeps its empty bins (a gap is information); a
deadline or a threshold is drawn as a line, not only named in the title; a strategy or an
outcome has one colour everywhere (:mod:`.palette`). A figure is built only from data
that exists: the page says in words when there is none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from editengine.reports._palette import MARKER, NEUTRAL, colour_of, colours_of
from editengine.telemetry._shape import (
    FIXER_OUTCOMES,
    TIER_OUTCOMES,
    Bar,
    DayRow,
    Report,
    SimilaritySection,
    StrategyRow,
    TierRow,
)

_HEIGHT = 340
_MARGIN = {"l": 60, "r": 20, "t": 50, "b": 60}
FIXER_LATENCY_GROUPS = (
    ("succeeded", ("corrected", "no_change")),
    ("timed out", ("timeout",)),
    ("failed", ("failed_validation", "invalid_answer", "error")),
)
_GROUP_COLOURS = {"succeeded": "corrected", "timed out": "timeout", "failed": "error"}


def _layout(fig: Any, title: str, **extra: Any) -> Any:
    settings: dict[str, Any] = {
        "height": _HEIGHT,
        "margin": _MARGIN,
        "template": "plotly_white",
        **extra,
    }
    fig.update_layout(title=title, **settings)
    return fig


def bar_label(low: float, high: float) -> str:
    """``200–251 ms``, ``794–1,000 ms``, ``1–1.26 s``: a bin's bounds in the unit that reads
    best, to three significant digits, never in exponent notation."""
    if high <= 1e-6:
        return "0 ms"
    if low >= 1000:
        return f"{_readable(low / 1000)}–{_readable(high / 1000)} s"
    return f"{_readable(low)}–{_readable(high)} ms"


def _readable(value: float) -> str:
    """Three significant digits: ``0.158``, ``7.94``, ``794``, ``1,000``, ``12,600``."""
    if value <= 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(value)))
    rounded = round(value, digits)
    if rounded >= 100:
        return f"{round(rounded, 2 - math.floor(math.log10(rounded))):,.0f}"
    return f"{rounded:,.{digits}f}".rstrip("0").rstrip(".")


def bar_position(bars: Sequence[Bar], value: float) -> float:
    """Where ``value`` (ms) falls on a category axis of ``bars``: bar i spans i-0.5..i+0.5,
    log-interpolated inside it; beyond the last bar the same scale goes on."""
    for index, (low, high, _) in enumerate(bars):
        if low <= value < high and low > 0:
            return index - 0.5 + math.log(value / low) / math.log(high / low)
    low, high, _ = bars[-1]
    step = math.log(high / low) if low > 0 else 1.0
    if value >= high:
        return len(bars) - 0.5 + math.log(value / high) / step
    return -0.5


def _vertical_line(fig: Any, x: float, label: str) -> None:
    fig.add_shape(
        type="line",
        x0=x,
        x1=x,
        y0=0,
        y1=1,
        yref="paper",
        line={"color": MARKER, "width": 2, "dash": "dash"},
        name=label,
    )
    fig.add_annotation(
        x=x, y=1, yref="paper", text=label, showarrow=False, xanchor="left", yanchor="bottom"
    )


def latency_histogram(
    go: Any,
    title: str,
    series: Sequence[tuple[str, Sequence[Bar], str]],
    *,
    unit: str,
    deadline_ms: float | None = None,
) -> Any:
    """Stacked bars on log-spaced bins, every bin kept; ``series`` are (name, bars, colour)
    on one grid; a deadline is drawn as a dashed line where it falls."""
    grid = max((bars for _, bars, _ in series), key=len)
    labels = [bar_label(low, high) for low, high, _ in grid]
    fig = go.Figure()
    for name, bars, colour in series:
        fig.add_trace(go.Bar(x=labels, y=[n for _, _, n in bars], name=name, marker_color=colour))
    extra: dict[str, Any] = {}
    if deadline_ms:
        position = bar_position(grid, deadline_ms)
        _vertical_line(fig, position, f"deadline {deadline_ms:,.0f} ms")
        extra["xaxis"] = {"range": [-0.5, max(len(grid) - 0.5, position + 0.5)]}
    return _layout(
        fig,
        title,
        barmode="stack",
        bargap=0.05,
        xaxis_title="latency (log-spaced bins)",
        yaxis_title=unit,
        **extra,
    )


def edit_latency(go: Any, report: Report) -> Any:
    return latency_histogram(
        go,
        "Edit latency (every bin from fastest to slowest)",
        [("edits", report["edits"]["duration_bars"], NEUTRAL)],
        unit="edits",
    )


def fixer_latency(go: Any, report: Report) -> Any:
    """Cache misses, split by how the call ended, with the fixer deadline drawn."""
    fixer = report["fixer"]
    by_outcome = fixer["latency_bars_by_outcome"]
    grid = fixer["latency_bars"]
    series = []
    for group, outcomes in FIXER_LATENCY_GROUPS:
        parts = [by_outcome[o] for o in outcomes if o in by_outcome]
        if not parts:
            continue
        counts = [sum(p[i][2] for p in parts) for i in range(len(grid))]
        bars = [(low, high, n) for (low, high, _), n in zip(grid, counts, strict=True)]
        series.append((group, bars, colour_of(_GROUP_COLOURS[group])))
    deadline = fixer["deadline_ms"] or fixer["latency_ms_timeout"].get("p50")
    return latency_histogram(
        go,
        "Fixer latency, cache misses (every bin; the deadline dashed)",
        series,
        unit="fixer calls",
        deadline_ms=deadline,
    )


def strategy_mix(go: Any, strategies: Sequence[StrategyRow]) -> Any:
    names = [s["strategy"] for s in strategies]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=[s["count"] for s in strategies],
            text=[f"{(s['share_of_edits'] or 0):.1%}" for s in strategies],
            marker_color=colours_of(names),
            name="edits",
        )
    )
    return _layout(fig, "Strategy mix: which tier placed the edit", yaxis_title="edits")


def tier_outcomes(go: Any, tiers: Sequence[TierRow]) -> Any:
    """Per first-pass tier, how its tries ended (stacked, horizontal, cascade order)."""
    rows = [t for t in tiers if t["pass"] == "original"][::-1]
    names = [t["tier"] for t in rows]
    fig = go.Figure()
    for outcome in TIER_OUTCOMES:
        counts = [t["outcomes"].get(outcome, 0) for t in rows]
        if any(counts):
            fig.add_trace(
                go.Bar(
                    y=names,
                    x=counts,
                    name=outcome,
                    orientation="h",
                    marker_color=colour_of(outcome),
                )
            )
    return _layout(
        fig,
        "How each tier's tries ended (first pass, cascade order top to bottom)",
        barmode="stack",
        xaxis_title="tries",
        height=max(_HEIGHT, 40 * len(rows) + 120),
    )


def fixer_outcomes(go: Any, outcomes: dict[str, int]) -> Any:
    names: list[str] = [o for o in FIXER_OUTCOMES if outcomes.get(o)]
    names += sorted(o for o in outcomes if o not in FIXER_OUTCOMES and outcomes[o])
    fig = go.Figure(
        go.Bar(
            x=names,
            y=[outcomes[o] for o in names],
            marker_color=colours_of(names),
            name="fixer calls",
        )
    )
    return _layout(fig, "Fixer outcomes", yaxis_title="fixer calls")


def size_latency(go: Any, report: Report) -> Any:
    """p50, p95 and p99 per file size: points joined by lines on a log axis (a bar's length
    means nothing on a log axis, so there are no bars), one tick per decade."""
    rows = report["by_file_size"]
    names = [r["bucket"] for r in rows]
    fig = go.Figure()
    for key, colour in (("p50", "#90caf9"), ("p95", "#1e88e5"), ("p99", "#0d47a1")):
        fig.add_trace(
            go.Scatter(
                x=names,
                y=[r["duration_ms"].get(key) for r in rows],
                name=key,
                mode="lines+markers",
                marker={"color": colour, "size": 10},
                line={"color": colour},
            )
        )
    return _layout(
        fig,
        "Edit latency by file size",
        yaxis={"title": "ms (log scale)", "type": "log", "dtick": 1, "tickformat": ",~g"},
    )


def daily(go: Any, days: Sequence[DayRow], *, label: str = "") -> Any:
    """Success rate, edits and fixer calls per UTC day, on one shared time axis."""
    from plotly.subplots import make_subplots

    x = [d["day"] for d in days]
    fig = make_subplots(
        rows=3,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.06,
        subplot_titles=("success rate", "edits", "fixer calls"),
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=[d["success_rate"] for d in days],
            mode="lines+markers",
            name=f"{label}success rate".strip(),
            line={"color": colour_of("success")},
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Bar(x=x, y=[d["edits"] for d in days], name="edits", marker_color=NEUTRAL),
        row=2,
        col=1,
    )
    fig.add_trace(
        go.Bar(
            x=x,
            y=[d["fixer_calls"] for d in days],
            name="fixer calls",
            marker_color=colour_of("corrected"),
        ),
        row=3,
        col=1,
    )
    fig.update_yaxes(tickformat=".0%", row=1, col=1)
    fig.update_xaxes(type="date", tickformat="%b %d")
    return _layout(fig, "Per day (UTC)", height=520, showlegend=False)


def similarity(go: Any, tier: str, sim: SimilaritySection) -> Any:
    """Every 0.01 bin from the lowest score to 1.00, stacked by outcome; the threshold a
    dashed line at its value."""
    bins = sim["bins"]
    used = [i for counts in bins.values() for i, n in enumerate(counts) if n]
    low = max(0, min(used) - 2) if used else 0
    if sim["threshold"] is not None:
        low = min(low, max(0, round(sim["threshold"] * 100) - 2))
    indices = list(range(low, 101))
    x = [(i + 0.5) / 100 for i in indices]
    fig = go.Figure()
    for outcome in [o for o in TIER_OUTCOMES if o in bins] + sorted(set(bins) - set(TIER_OUTCOMES)):
        fig.add_trace(
            go.Bar(
                x=x,
                y=[bins[outcome][i] for i in indices],
                width=0.01,
                name=outcome,
                marker_color=colour_of(outcome),
            )
        )
    threshold = sim["threshold"]
    if threshold is not None:
        _vertical_line(fig, threshold, f"threshold {threshold:.2f} ({sim['threshold_source']})")
    return _layout(
        fig,
        f"Best similarity of {tier!r} candidates",
        barmode="stack",
        bargap=0,
        xaxis_title="best similarity (0.01 bins)",
        yaxis_title="attempts",
        xaxis={"range": [low / 100, 1.01]},
    )
