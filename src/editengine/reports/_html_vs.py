"""``report --vs --html``: one page of the differences between two reports, A and B.

The differences come first (each change coloured by whether it is better or worse), then A
and B side by side on shared axes: per day, strategy shares, edit latency, tiers, errors,
fixer outcomes, and each side's recommendations.

Why one long module: one page, its cards, tables and charts drawn from the same comparison
and the same noise thresholds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from editengine.reports import _formatting as fmt
from editengine.reports._figures import bar_label
from editengine.reports._page import Cell, Page, esc, plotly, table
from editengine.reports._palette import BETTER, NEUTRAL, WORSE, colour_of
from editengine.telemetry._compare import compare, row, verdict
from editengine.telemetry._noise import Noise
from editengine.telemetry._shape import FIXER_OUTCOMES, Bar, ComparisonRow, Direction, Report

TITLE = "editengine telemetry: A vs B"
COMPARISON_CHART_IDS = (
    "chart-vs-rates",
    "chart-vs-daily",
    "chart-vs-strategies",
    "chart-vs-edit-latency",
)
# A is drawn faded, B solid, in the same colour: the colour stays the strategy's.
_A_OPACITY = 0.45
_PER_DECADE = 10  # the bars of LogHistogram.bars()


def _cell(item: ComparisonRow) -> Cell:
    return Cell(fmt.value(item["kind"], item["delta"], signed=True), css=verdict(item))


def _differences(
    page: Page, rows: Sequence[ComparisonRow], labels: tuple[str, str], noise: Noise
) -> None:
    page.heading("Differences (B − A)")
    page.raw(
        table(
            ("metric", labels[0], labels[1], "change"),
            [
                (
                    r["metric"],
                    fmt.value(r["kind"], r["a"]),
                    fmt.value(r["kind"], r["b"]),
                    _cell(r),
                )
                for r in rows
            ],
            table_id="table-vs",
        )
    )
    page.text(
        "Green: B is better than A; red: worse; grey: neutral, unchanged or within the "
        f"noise ({_noise_rule(noise)}).",
        css="note",
    )
    rates = [r for r in rows if r["kind"] == "rate" and r["delta"] is not None]
    rates = [r for r in rates if not r["metric"].startswith("strategy ")]
    if rates:
        go = plotly()
        colours = {"better": BETTER, "worse": WORSE, "same": NEUTRAL}
        fig = go.Figure(
            go.Bar(
                y=[r["metric"] for r in rates][::-1],
                x=[(r["delta"] or 0.0) * 100 for r in rates][::-1],
                orientation="h",
                marker_color=[colours[verdict(r)] for r in rates][::-1],
                text=[fmt.value("rate", r["delta"], signed=True) for r in rates][::-1],
                name="change",
            )
        )
        fig.update_layout(
            title="Change in each rate, B − A (percentage points)",
            xaxis_title="percentage points",
            template="plotly_white",
            height=60 + 40 * len(rates) + 80,
            margin={"l": 170, "r": 30, "t": 50, "b": 50},
        )
        page.figure("chart-vs-rates", fig)


def _daily(page: Page, a: Report, b: Report, labels: tuple[str, str]) -> None:
    page.heading("Per day")
    if not a["days"] and not b["days"]:
        page.empty("No dated events on either side.")
        return
    go = plotly()
    from plotly.subplots import make_subplots

    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.08,
        subplot_titles=("success rate", "edits and fixer calls"),
    )
    for report, label, dash in ((a, labels[0], "dot"), (b, labels[1], "solid")):
        x = [d["day"] for d in report["days"]]
        fig.add_trace(
            go.Scatter(
                x=x,
                y=[d["success_rate"] for d in report["days"]],
                name=f"{label} success rate",
                mode="lines+markers",
                line={"color": colour_of("success"), "dash": dash},
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=[d["edits"] for d in report["days"]],
                name=f"{label} edits",
                mode="lines+markers",
                line={"color": NEUTRAL, "dash": dash},
            ),
            row=2,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=[d["fixer_calls"] for d in report["days"]],
                name=f"{label} fixer calls",
                mode="lines+markers",
                line={"color": colour_of("corrected"), "dash": dash},
            ),
            row=2,
            col=1,
        )
    fig.update_yaxes(tickformat=".0%", row=1, col=1)
    fig.update_xaxes(type="date", tickformat="%b %d")
    fig.update_layout(
        title=f"Per day (UTC): {labels[0]} dotted, {labels[1]} solid",
        template="plotly_white",
        height=480,
    )
    page.figure("chart-vs-daily", fig)


def _strategies(page: Page, a: Report, b: Report, labels: tuple[str, str]) -> None:
    page.heading("Strategy shares")
    shares_a = {s["strategy"]: s["share_of_edits"] or 0.0 for s in a["strategies"]}
    shares_b = {s["strategy"]: s["share_of_edits"] or 0.0 for s in b["strategies"]}
    # Ties in name order: a set's order changes from run to run, a page must not.
    names = sorted(
        set(shares_a) | set(shares_b),
        key=lambda n: (-max(shares_a.get(n, 0), shares_b.get(n, 0)), n),
    )
    if not names:
        page.empty("No edit was placed on either side.")
        return
    go = plotly()
    colours = [colour_of(n) for n in names]
    fig = go.Figure()
    for label, shares, opacity in ((labels[0], shares_a, _A_OPACITY), (labels[1], shares_b, 1.0)):
        fig.add_trace(
            go.Bar(
                x=names,
                y=[shares.get(n, 0.0) for n in names],
                name=label,
                marker={"color": colours, "opacity": opacity},
                text=[label] * len(names),
            )
        )
    fig.update_layout(
        title=f"Share of edits per strategy: {labels[0]} faded, {labels[1]} solid",
        barmode="group",
        yaxis_tickformat=".0%",
        template="plotly_white",
        height=360,
    )
    page.figure("chart-vs-strategies", fig)


def _common_grid(a: Sequence[Bar], b: Sequence[Bar]) -> tuple[list[str], list[int], list[int]]:
    """Both histograms on one run of bins (both use the same log grid), gaps kept."""

    def by_index(bars: Sequence[Bar]) -> dict[int | None, int]:
        # The zero bar (values under 1 ns) has no log; it goes first.
        return {
            (round(math.log10(low) * _PER_DECADE) if low > 0 else None): n for low, _, n in bars
        }

    counts_a, counts_b = by_index(a), by_index(b)
    logs = [i for i in (*counts_a, *counts_b) if i is not None]
    indices: list[int | None] = [None] if None in counts_a or None in counts_b else []
    if logs:
        indices += list(range(min(logs), max(logs) + 1))
    labels = [
        "0 ms" if i is None else bar_label(10 ** (i / _PER_DECADE), 10 ** ((i + 1) / _PER_DECADE))
        for i in indices
    ]
    return labels, [counts_a.get(i, 0) for i in indices], [counts_b.get(i, 0) for i in indices]


def _noise_rule(noise: Noise) -> str:
    if noise.relative is None:
        return "a change within what chance gives at 95% confidence, from each side's own spread"
    return f"a change of at most {noise.relative:.0%} of A's value"


def _latency(page: Page, a: Report, b: Report, labels: tuple[str, str], noise: Noise) -> None:
    page.heading("Edit latency")
    keys = ("p50", "p90", "p95", "p99")
    da, db = a["edits"]["duration_ms"], b["edits"]["duration_ms"]
    bars = (a["edits"]["duration_bars"], b["edits"]["duration_bars"])
    counts = (int(da.get("count") or 0), int(db.get("count") or 0))

    def change(k: str) -> Cell:
        va, vb = _num(da.get(k)), _num(db.get(k))
        threshold = noise.percentile(va, float(k[1:]), bars[0], counts[0], bars[1], counts[1])
        return _cell(row(k, "ms", "down", va, vb, threshold))

    page.raw(
        table(
            ("edit latency ms", labels[0], labels[1], "change"),
            [
                (
                    k,
                    fmt.percentile(da, k),
                    fmt.percentile(db, k),
                    change(k),
                )
                for k in keys
            ],
            table_id="table-vs-latency",
        )
    )
    bars_a, bars_b = a["edits"]["duration_bars"], b["edits"]["duration_bars"]
    if not bars_a and not bars_b:
        page.empty("No edits on either side: no latency to show.")
        return
    go = plotly()
    x, ya, yb = _common_grid(bars_a, bars_b)
    total_a, total_b = max(1, sum(ya)), max(1, sum(yb))
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=x,
            y=[n / total_a for n in ya],
            name=labels[0],
            marker_color=NEUTRAL,
            opacity=_A_OPACITY,
        )
    )
    fig.add_trace(go.Bar(x=x, y=[n / total_b for n in yb], name=labels[1], marker_color=NEUTRAL))
    fig.update_layout(
        title="Edit latency, share of each side's edits per bin (every bin kept)",
        barmode="group",
        bargap=0.05,
        xaxis_title="latency (log-spaced bins)",
        yaxis_tickformat=".0%",
        template="plotly_white",
        height=360,
    )
    page.figure("chart-vs-edit-latency", fig)


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def _tiers(page: Page, a: Report, b: Report, labels: tuple[str, str], noise: Noise) -> None:
    page.heading("Tiers (first pass)")
    ta = {t["tier"]: t for t in a["tiers"] if t["pass"] == "original"}
    tb = {t["tier"]: t for t in b["tiers"] if t["pass"] == "original"}
    names = list(dict.fromkeys([*ta, *tb]))
    if not names:
        page.empty("No tier was tried on either side.")
        return
    rows = []
    for name in names:
        x, y = ta.get(name), tb.get(name)
        rate_a = x["win_rate"] if x else None
        rate_b = y["win_rate"] if y else None
        mean_a = _num(x["elapsed_ms"].get("mean")) if x else None
        mean_b = _num(y["elapsed_ms"].get("mean")) if y else None
        rows.append(
            (
                Cell(name, swatch=colour_of(name)),
                f"{x['tries'] if x else 0:,} / {y['tries'] if y else 0:,}",
                f"{x['wins'] if x else 0:,} / {y['wins'] if y else 0:,}",
                f"{fmt.pct(rate_a)} / {fmt.pct(rate_b)}",
                _cell(row("win rate", "rate", "none", rate_a, rate_b)),
                f"{fmt.ms(mean_a)} / {fmt.ms(mean_b)}",
                _cell(
                    row(
                        "mean ms",
                        "ms",
                        "down",
                        mean_a,
                        mean_b,
                        noise.mean(mean_a, x["elapsed_ms"], y["elapsed_ms"]) if x and y else None,
                    )
                ),
            )
        )
    pair = f"{labels[0]} / {labels[1]}"
    page.raw(
        table(
            (
                "tier",
                f"tries {pair}",
                f"wins {pair}",
                f"win rate {pair}",
                "change",
                f"mean ms {pair}",
                "change",
            ),
            rows,
            table_id="table-vs-tiers",
        )
    )


def _errors(page: Page, a: Report, b: Report, labels: tuple[str, str], noise: Noise) -> None:
    edits = (a["edits"]["finished"], b["edits"]["finished"])
    page.heading("Errors that recur")
    ea = {e["error_code"]: e for e in a["errors"]}
    eb = {e["error_code"]: e for e in b["errors"]}
    codes = sorted(set(ea) | set(eb), key=lambda c: (-((eb.get(c) or ea[c])["count"]), c))
    if not codes:
        page.empty("No edit failed on either side.")
        return
    rows = []
    for code in codes:
        share_a = ea[code]["share_of_edits"] if code in ea else 0.0
        share_b = eb[code]["share_of_edits"] if code in eb else 0.0
        rows.append(
            (
                code,
                f"{ea[code]['count'] if code in ea else 0:,}",
                f"{eb[code]['count'] if code in eb else 0:,}",
                f"{fmt.pct(share_a)} / {fmt.pct(share_b)}",
                _cell(
                    row(
                        code, "rate", "down", share_a, share_b, noise.rate(share_a, share_b, *edits)
                    )
                ),
            )
        )
    page.raw(
        table(
            ("error code", f"edits {labels[0]}", f"edits {labels[1]}", "share A / B", "change"),
            rows,
            table_id="table-vs-errors",
        )
    )


def _fixer(page: Page, a: Report, b: Report, labels: tuple[str, str], noise: Noise) -> None:
    page.heading("LLM fixer")
    fa, fb = a["fixer"], b["fixer"]
    if not fa["calls"] and not fb["calls"]:
        page.empty("No fixer calls on either side.")
        return
    rows: list[tuple[str | Cell, ...]] = []
    for outcome in FIXER_OUTCOMES:
        na, nb = fa["outcomes"].get(outcome, 0), fb["outcomes"].get(outcome, 0)
        share_a = na / fa["calls"] if fa["calls"] else None
        share_b = nb / fb["calls"] if fb["calls"] else None
        better: Direction = (
            "up" if outcome == "corrected" else "none" if outcome == "no_change" else "down"
        )
        rows.append(
            (
                Cell(outcome, swatch=colour_of(outcome)),
                f"{na:,}",
                f"{nb:,}",
                f"{fmt.pct(share_a)} / {fmt.pct(share_b)}",
                _cell(
                    row(
                        outcome,
                        "rate",
                        better,
                        share_a,
                        share_b,
                        noise.rate(share_a, share_b, fa["calls"], fb["calls"]),
                    )
                ),
            )
        )
    rows.append(
        (
            "tokens in / out",
            f"{fa['input_tokens']:,} / {fa['output_tokens']:,}",
            f"{fb['input_tokens']:,} / {fb['output_tokens']:,}",
            "",
            "",
        )
    )
    rows.append(("cost", fmt.usd(fa["cost_usd"]), fmt.usd(fb["cost_usd"]), "", ""))
    page.raw(
        table(
            ("fixer outcome", f"calls {labels[0]}", f"calls {labels[1]}", "share A / B", "change"),
            rows,
            table_id="table-vs-fixer",
        )
    )


def _recommendations(page: Page, a: Report, b: Report, labels: tuple[str, str]) -> None:
    page.heading("Recommendations")
    columns = []
    for report, label in ((a, labels[0]), (b, labels[1])):
        items = "".join(
            f"<li><b>{esc(r['kind'])}</b>: {esc(r['message'])}</li>"
            for r in report["recommendations"]
        )
        body = (
            f"<ol>{items}</ol>"
            if items
            else "<p class='empty'>None: nothing crossed its threshold.</p>"
        )
        columns.append(f"<div><h3>{esc(label)}</h3>{body}</div>")
    page.raw("<div class='side'>" + "".join(columns) + "</div>")


def _side(report: Report, label: str) -> str:
    source = report["input"]
    return (
        f"{label}: {fmt.period(source['first_ts'], source['last_ts'])}, "
        f"{report['edits']['finished']:,} edits, {source['files']} file(s)"
    )


def build_comparison_page(
    a: Report,
    b: Report,
    *,
    labels: tuple[str, str] = ("A", "B"),
    title: str = TITLE,
    noise: Noise | None = None,
) -> Page:
    noise = noise or Noise()
    page = Page(title)
    page.text(f"{_side(a, labels[0])}. {_side(b, labels[1])}.", css="note")
    rows = compare(a, b, noise=noise)
    _differences(page, rows, labels, noise)
    _daily(page, a, b, labels)
    _strategies(page, a, b, labels)
    _latency(page, a, b, labels, noise)
    _tiers(page, a, b, labels, noise)
    _errors(page, a, b, labels, noise)
    _fixer(page, a, b, labels, noise)
    _recommendations(page, a, b, labels)
    return page


def render_comparison_html(
    a: Report,
    b: Report,
    *,
    labels: tuple[str, str] = ("A", "B"),
    title: str = TITLE,
    noise: Noise | None = None,
) -> str:
    """One page: the differences from A to B, then both side by side. A change within
    ``noise`` (default: the runs' own spread, see :mod:`.noise`) is not coloured."""
    return build_comparison_page(a, b, labels=labels, title=title, noise=noise).render()
