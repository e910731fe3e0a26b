"""The report as one self-contained HTML page (optional extra ``html``: plotly).

The page holds everything the text report holds, summary first: the headline figures and
how they moved, a series per day, the recommendations with the figures behind each, then
tiers, errors, latency, the fixer, its tokens and cost, and the similarity of fuzzy tiers.
plotly.js is embedded inline, so the page opens offline and can be mailed as one file.
"""

from __future__ import annotations

from pathlib import Path

from editengine.reports import _figures as figures
from editengine.reports import _formatting as fmt
from editengine.reports._page import Cell, Page, esc, plotly, table
from editengine.reports._palette import colour_of
from editengine.reports._similarity import fuzzy_similarity
from editengine.reports._trend import Headline, headlines
from editengine.telemetry._compare import row, verdict
from editengine.telemetry._shape import FIXER_OUTCOMES, Report

TITLE = "editengine telemetry report"
SIMILARITY_CHART_PREFIX = "chart-similarity-"
# Charts drawn whenever their data exists (the similarity charts come on top of these).
CHART_IDS = (
    "chart-daily",
    "chart-strategy-mix",
    "chart-tier-outcomes",
    "chart-edit-latency",
    "chart-size-latency",
    "chart-fixer-outcomes",
    "chart-fixer-latency",
)


def _card(item: Headline, compared: str) -> str:
    delta = ""
    if compared and item.delta is None:  # a half without the figure (a cost not known)
        delta = f"<div class='delta same' title='{esc(compared)}'>change unknown</div>"
    if item.delta is not None:
        change = row(item.label, item.kind, item.better, item.previous, item.current)
        arrow = "▲" if item.delta > 0 else "▼" if item.delta < 0 else "="
        delta = (
            f"<div class='delta {verdict(change)}' title='{esc(compared)}'>{arrow} "
            f"{esc(fmt.value(item.kind, item.delta, signed=True))}</div>"
        )
    return (
        f"<div class='card'><div class='label'>{esc(item.label)}</div>"
        f"<div class='value'>{esc(fmt.value(item.kind, item.value))}</div>{delta}</div>"
    )


def _summary(page: Page, report: Report) -> None:
    source = report["input"]
    days = report["days"]
    span = f"{len(days)} day{'s' if len(days) != 1 else ''}" if days else "no dated events"
    page.text(
        f"Period {fmt.period(source['first_ts'], source['last_ts'])} ({span}); "
        f"{source['files']} file(s), {source['events']:,} events; skipped "
        f"{source['malformed']:,} malformed and {source['unknown_events']:,} unknown lines, "
        f"{source['unreadable_files']} unreadable file(s).",
        css="note",
    )
    items, split = headlines(report)
    compared = split.label if split else ""
    page.raw("<div class='cards' id='headline'>" + "".join(_card(i, compared) for i in items))
    page.raw("</div>")
    if split:
        page.text(
            f"Changes (▲▼): {compared}; green is better, red worse. Figures: whole period.",
            css="note",
        )


def _recommendations(page: Page, report: Report) -> None:
    page.heading("Recommendations")
    recs = report["recommendations"]
    if not recs:
        page.empty("None: nothing crossed its threshold (see docs/telemetry.md).")
        return
    for index, item in enumerate(recs, 1):
        evidence = [
            (key, ", ".join(map(str, v)) if isinstance(v, list) else _evidence(v))
            for key, v in item["evidence"].items()
        ]
        page.raw(
            f"<div class='recommendation'><p><b>{index}. {esc(item['kind'])}</b>: "
            f"{esc(item['message'])}</p>" + table(("evidence", "value"), evidence) + "</div>"
        )


def _evidence(value: object) -> str:
    if isinstance(value, float):
        # 30,000 not 3e+04: whole and large numbers in full, others to four digits.
        if value.is_integer() or abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def _edits(page: Page, report: Report) -> None:
    go = plotly()
    edits = report["edits"]
    page.heading("Edits")
    page.raw(
        table(
            ("outcome", "edits", "share"),
            [
                (Cell(name, swatch=colour_of(name)), f"{n:,}", fmt.pct(n / edits["finished"]))
                for name, n in edits["outcomes"].items()
            ]
            + [
                (
                    "ambiguous (an error)",
                    f"{edits['ambiguous']:,}",
                    fmt.pct(edits["ambiguity_rate"]),
                ),
                ("corrected by the fixer", f"{edits['corrected_by_fixer']:,}", ""),
                ("dry runs", f"{edits['dry_run']:,}", ""),
                ("instruction given", f"{edits['instruction_given']:,}", ""),
            ],
            table_id="table-edits",
        )
    )
    strategies = report["strategies"]
    page.heading("Strategy mix", level=3)
    if not strategies:
        page.empty("No edit was placed: no strategy to show.")
    else:
        page.figure("chart-strategy-mix", figures.strategy_mix(go, strategies))
        page.raw(
            table(
                ("strategy", "edits", "share", "p50 ms", "p95 ms"),
                [
                    (
                        Cell(s["strategy"], swatch=colour_of(s["strategy"])),
                        f"{s['count']:,}",
                        fmt.pct(s["share_of_edits"]),
                        fmt.percentile(s["duration_ms"], "p50"),
                        fmt.percentile(s["duration_ms"], "p95"),
                    )
                    for s in strategies
                ],
                table_id="table-strategies",
            )
        )
    page.heading("Errors that recur", level=3)
    if not report["errors"]:
        page.empty("No edit failed.")
    else:
        page.raw(
            table(
                ("error code", "edits", "share of edits", "fixer tried"),
                [
                    (
                        e["error_code"],
                        f"{e['count']:,}",
                        fmt.pct(e["share_of_edits"]),
                        f"{e['fixer_tried']:,}",
                    )
                    for e in report["errors"]
                ],
                table_id="table-errors",
            )
        )


def _tiers(page: Page, report: Report) -> None:
    page.heading("Tiers, in cascade order")
    tiers = report["tiers"]
    if not tiers:
        page.empty("No tier was tried.")
        return
    page.raw(
        table(
            (
                "tier",
                "pass",
                "pos",
                "tries",
                "wins",
                "win rate",
                "ambiguous",
                "refused",
                "mean ms",
                "total ms",
            ),
            [
                (Cell(t["tier"], swatch=colour_of(t["tier"])), t["pass"], *fmt.tier_figures(t))
                for t in tiers
            ],
            table_id="table-tiers",
        )
    )
    page.figure("chart-tier-outcomes", figures.tier_outcomes(plotly(), tiers))
    fuzzy = [(t["tier"], sim) for t in tiers if (sim := fuzzy_similarity(t)) is not None]
    page.heading("Similarity of fuzzy tiers", level=3)
    if not fuzzy:
        page.empty(
            "No tier scored a candidate under 1.00 and none had a threshold given or "
            "recorded: no similarity to show."
        )
    for name, sim in fuzzy:
        page.figure(SIMILARITY_CHART_PREFIX + name, figures.similarity(plotly(), name, sim))


def _latency(page: Page, report: Report) -> None:
    go = plotly()
    page.heading("Latency")
    edits, fixer = report["edits"], report["fixer"]
    keys = ("p50", "p90", "p95", "p99", "max")
    rows = [("edits", edits["duration_ms"])]
    rows += [(f"  strategy {s['strategy']}", s["duration_ms"]) for s in report["strategies"]]
    rows += [(f"  file {r['bucket']}", r["duration_ms"]) for r in report["by_file_size"]]
    rows += [
        ("fixer calls (cache misses)", fixer["latency_ms"]),
        ("  successful fixer calls", fixer["latency_ms_success"]),
        ("  timed-out fixer calls", fixer["latency_ms_timeout"]),
        ("  fixer cache hits", fixer["latency_ms_cache_hit"]),
    ]
    page.raw(
        table(
            ("what (ms)", "count", *keys),
            [
                (name, f"{s.get('count', 0):,}", *(fmt.percentile(s, k) for k in keys))
                for name, s in rows
            ],
            table_id="table-percentiles",
        )
    )
    page.text(f"Percentiles: {report['percentiles']}.", css="note")
    if edits["finished"]:
        page.figure("chart-edit-latency", figures.edit_latency(go, report))
    else:
        page.empty("No edits: no latency to show.")
    page.heading("Latency by file size", level=3)
    if report["by_file_size"]:
        page.figure("chart-size-latency", figures.size_latency(go, report))
        page.raw(
            table(
                ("file size", "edits", "p50 ms", "p95 ms", "p99 ms"),
                [
                    (
                        r["bucket"],
                        f"{r['edits']:,}",
                        *(fmt.percentile(r["duration_ms"], k) for k in ("p50", "p95", "p99")),
                    )
                    for r in report["by_file_size"]
                ],
                table_id="table-sizes",
            )
        )
    else:
        page.empty("No edits: no file sizes to show.")


def _fixer(page: Page, report: Report) -> None:
    go = plotly()
    fixer = report["fixer"]
    page.heading("LLM fixer")
    if not fixer["calls"]:
        page.empty("No fixer calls in this period.")
        return
    outcomes = fixer["outcomes"]
    page.raw(
        table(
            ("fixer", "value"),
            [
                ("calls (share of edits)", f"{fixer['calls']:,} ({fmt.pct(fixer['call_rate'])})"),
                ("success rate (corrected)", fmt.pct(fixer["success_rate"])),
                ("edits rescued", f"{fixer['rescued_edits']:,}"),
                ("timeouts", f"{fixer['timeouts']:,} ({fmt.pct(fixer['timeout_rate'])})"),
                ("cache hits", f"{fixer['cache_hits']:,} ({fmt.pct(fixer['cache_hit_rate'])})"),
                ("repeated requests (cache misses)", fmt.repeats(fixer)),
                ("windowed prompts", f"{fixer['windowed']:,}"),
                ("deadline ms (as configured)", fmt.ms(fixer["deadline_ms"])),
            ],
            table_id="table-fixer",
        )
    )
    page.raw(
        table(
            ("outcome", "calls", "share"),
            [
                (
                    Cell(o, swatch=colour_of(o)),
                    f"{outcomes.get(o, 0):,}",
                    fmt.pct(outcomes.get(o, 0) / fixer["calls"]),
                )
                for o in FIXER_OUTCOMES
            ],
            table_id="table-fixer-outcomes",
        )
    )
    reasons = fixer.get("refusal_reasons") or {}
    if reasons:
        refused = sum(reasons.values())
        page.raw(
            table(
                ("correction refused because", "calls", "share"),
                [(reason, f"{n:,}", fmt.pct(n / refused)) for reason, n in reasons.items()],
                table_id="table-fixer-refusals",
            )
        )
    page.figure("chart-fixer-outcomes", figures.fixer_outcomes(go, outcomes))
    if fixer["latency_ms"].get("count"):
        page.figure("chart-fixer-latency", figures.fixer_latency(go, report))
    else:
        page.empty("Every fixer call was a cache hit: no provider latency to show.")
    page.heading("Tokens and cost", level=3)
    page.raw(
        table(
            ("model", "calls", "cache hits", "tokens in", "tokens out", "$/M in,out", "cost"),
            [
                (
                    m["model"],
                    f"{m['calls']:,}",
                    f"{m['cache_hits']:,}",
                    f"{m['input_tokens']:,}",
                    f"{m['output_tokens']:,}",
                    "-"
                    if m["price_per_million"] is None
                    else "{:g},{:g}".format(*m["price_per_million"]),
                    fmt.usd(m["cost_usd"]),
                )
                for m in fixer["by_model"]
            ]
            + [
                (
                    "all (cache misses)",
                    f"{fixer['calls']:,}",
                    f"{fixer['cache_hits']:,}",
                    f"{fixer['input_tokens']:,}",
                    f"{fixer['output_tokens']:,}",
                    "",
                    fmt.usd(fixer["cost_usd"]),
                )
            ],
            table_id="table-tokens",
        )
    )


def build_page(report: Report, *, title: str = TITLE) -> Page:
    """The page's parts in reading order (figures with their ids), before rendering."""
    go = plotly()
    page = Page(title)
    _summary(page, report)
    if not report["edits"]["finished"] and not report["fixer"]["calls"]:
        page.empty("No edits in this period: no telemetry events matched.")
        return page
    page.heading("Per day")
    if len(report["days"]) > 1:
        page.figure("chart-daily", figures.daily(go, report["days"]))
    page.raw(
        table(
            ("day (UTC)", "edits", "success rate", "errors", "fixer calls", "corrected", "p95 ms"),
            [
                (
                    d["day"],
                    f"{d['edits']:,}",
                    fmt.pct(d["success_rate"]),
                    f"{d['errors']:,}",
                    f"{d['fixer_calls']:,}",
                    f"{d['fixer_corrected']:,}",
                    fmt.ms(d["duration_p95_ms"]),
                )
                for d in report["days"]
            ],
            table_id="table-days",
        )
    )
    _recommendations(page, report)
    _edits(page, report)
    _tiers(page, report)
    _latency(page, report)
    _fixer(page, report)
    return page


def render_html(report: Report, *, title: str = TITLE) -> str:
    """The whole page as a string."""
    return build_page(report, title=title).render()


def write_html(report: Report, path: str | Path, *, title: str | None = None) -> Path:
    """Write the page to ``path``; returns the path."""
    target = Path(path)
    target.write_text(render_html(report, title=title or TITLE), encoding="utf-8")
    return target
