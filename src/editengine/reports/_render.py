"""The report as ``rich`` tables that fit the terminal they are printed to (see
:mod:`.grid`): a narrow terminal gets fewer columns, never wrapped rows."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from editengine.reports import _formatting as fmt
from editengine.reports._grid import Column, Grid, fit
from editengine.reports._similarity import fuzzy_similarity, similarity_rows
from editengine.telemetry._compare import verdict
from editengine.telemetry._shape import ComparisonRow, Report


def render_report(report: Report, console: Console, *, title: str = "") -> None:
    """Print every section of the report as a table, then the recommendations."""
    for grid in report_grids(report, title=title):
        console.print(fit(grid, console.width))
    render_recommendations(report, console)
    console.print(f"[dim]Percentiles: {escape(report['percentiles'])}.[/dim]")


def render_recommendations(report: Report, console: Console, *, label: str = "") -> None:
    """The numbered recommendations, or a line saying why there are none."""
    recommendations = report["recommendations"]
    console.print(f"[bold]Recommendations{f' for {escape(label)}' if label else ''}[/bold]")
    if not recommendations:
        console.print("  none: nothing crossed its threshold (see docs/telemetry.md)")
    for index, item in enumerate(recommendations, 1):
        line = escape(f"  {index}. [{item['kind']}] {item['message']}")
        console.print(line, highlight=False)


def report_grids(report: Report, *, title: str = "") -> list[Grid]:
    grids = [_overview(report, title)]
    if len(report["days"]) > 1:
        grids.append(_days(report))
    if report["errors"]:
        grids.append(_errors(report))
    if report["strategies"]:
        grids.append(_strategies(report))
    if report["tiers"]:
        grids.append(_tiers(report))
    grids.extend(_similarities(report))
    if report["fixer"]["calls"]:
        grids.extend(_fixer(report))
    if report["by_file_size"]:
        grids.append(_sizes(report))
    return grids


def _facts(title: str) -> Grid:
    return Grid(title, [Column("metric", left=True), Column("value")], show_header=False)


def _overview(report: Report, title: str) -> Grid:
    source, edits = report["input"], report["edits"]
    duration = edits["duration_ms"]
    grid = _facts(f"Telemetry {title}".strip())
    grid.add("files / events", f"{source['files']} / {source['events']:,}")
    grid.add(
        "malformed / unknown lines skipped",
        f"{source['malformed']:,} / {source['unknown_events']:,}",
    )
    grid.add("unreadable (truncated) files", f"{source['unreadable_files']:,}")
    grid.add("period", fmt.period(source["first_ts"], source["last_ts"]))
    grid.add("edits", f"{edits['finished']:,}")
    grid.add("success rate (incl. no change)", fmt.pct(edits["success_rate"]))
    grid.add("errors", f"{edits['errors']:,}")
    grid.add("ambiguity rate", fmt.pct(edits["ambiguity_rate"]))
    grid.add("corrected by the fixer", f"{edits['corrected_by_fixer']:,}")
    grid.add("dry runs", f"{edits['dry_run']:,}")
    grid.add(
        "duration p50 / p95 / p99 ms",
        " / ".join(fmt.percentile(duration, k) for k in ("p50", "p95", "p99")),
    )
    return grid


def _days(report: Report) -> Grid:
    grid = Grid(
        "Per day (UTC)",
        [
            Column("day", left=True),
            Column("edits"),
            Column("success"),
            Column("errors", drop=2),
            Column("fixer calls"),
            Column("corrected", drop=3),
            Column("p95 ms", drop=1),
        ],
    )
    for day in report["days"]:
        grid.add(
            day["day"],
            f"{day['edits']:,}",
            fmt.pct(day["success_rate"]),
            f"{day['errors']:,}",
            f"{day['fixer_calls']:,}",
            f"{day['fixer_corrected']:,}",
            fmt.ms(day["duration_p95_ms"]),
        )
    return grid


def _errors(report: Report) -> Grid:
    grid = Grid(
        "Errors that recur",
        [Column("error code", left=True), Column("edits"), Column("share"), Column("fixer tried")],
    )
    for row in report["errors"]:
        by_tier = row.get("by_tier")
        tiers = ", ".join(f"{tier} {count:,}" for tier, count in (by_tier or {}).items())
        grid.add(
            f"{row['error_code']} ({tiers})" if tiers else row["error_code"],
            f"{row['count']:,}",
            fmt.pct(row["share_of_edits"]),
            f"{row['fixer_tried']:,}",
        )
    return grid


def _strategies(report: Report) -> Grid:
    grid = Grid(
        "Strategy mix (which tier placed the edit)",
        [
            Column("strategy", left=True),
            Column("edits"),
            Column("share"),
            Column("p50 ms", drop=1),
            Column("p95 ms"),
        ],
    )
    for row in report["strategies"]:
        d = row["duration_ms"]
        grid.add(
            row["strategy"],
            f"{row['count']:,}",
            fmt.pct(row["share_of_edits"]),
            fmt.percentile(d, "p50"),
            fmt.percentile(d, "p95"),
        )
    return grid


def _tiers(report: Report) -> Grid:
    grid = Grid(
        "Tiers, in cascade order (first pass, then the fixer's)",
        [
            Column("tier", left=True),
            Column("pos", drop=4),
            Column("tries"),
            Column("wins"),
            Column("win rate"),
            Column("ambiguous", drop=3),
            Column("refused", drop=3),
            Column("mean ms"),
            Column("total ms", drop=1),
        ],
    )
    for row in report["tiers"]:
        grid.add(
            row["tier"] if row["pass"] == "original" else f"{row['tier']} ({row['pass']} pass)",
            *fmt.tier_figures(row),
        )
    return grid


def _similarities(report: Report) -> list[Grid]:
    grids = []
    for row in report["tiers"]:
        sim = fuzzy_similarity(row)
        if sim is None:
            continue
        threshold = sim["threshold"]
        note = "unknown" if threshold is None else f"{threshold:.2f} ({sim['threshold_source']})"
        outcomes = sorted(sim["bins"])
        grid = Grid(
            f"Similarity of {row['tier']!r} candidates; threshold {note}",
            [Column("best similarity", left=True), *(Column(o) for o in outcomes)],
        )
        for label, counts in similarity_rows(sim):
            if any(counts.values()):
                grid.add(label, *(f"{counts[o]:,}" for o in outcomes))
        grids.append(grid)
    return grids


def _fixer(report: Report) -> list[Grid]:
    fixer = report["fixer"]
    grid = _facts("LLM fixer")
    latency = fixer["latency_ms"]
    outcomes = ", ".join(f"{k} {v:,}" for k, v in fixer["outcomes"].items() if v)
    grid.add("calls (share of edits)", f"{fixer['calls']:,} ({fmt.pct(fixer['call_rate'])})")
    grid.add(
        "corrected (success rate)",
        f"{fixer['outcomes'].get('corrected', 0):,} ({fmt.pct(fixer['success_rate'])})",
    )
    grid.add("edits rescued", f"{fixer['rescued_edits']:,}")
    grid.add("outcomes", outcomes or "-")
    grid.add("timeouts", f"{fixer['timeouts']:,} ({fmt.pct(fixer['timeout_rate'])})")
    grid.add("cache hits", f"{fixer['cache_hits']:,} ({fmt.pct(fixer['cache_hit_rate'])})")
    grid.add("repeated requests (cache misses)", fmt.repeats(fixer))
    grid.add("refused corrections, by reason", fmt.refusals(fixer))
    grid.add("windowed prompts", f"{fixer['windowed']:,}")
    grid.add(
        "latency p50 / p95 / p99 ms (cache misses)",
        " / ".join(fmt.percentile(latency, k) for k in ("p50", "p95", "p99")),
    )
    grid.add("successful calls p95 ms", fmt.percentile(fixer["latency_ms_success"], "p95"))
    grid.add("deadline ms (as configured)", fmt.ms(fixer["deadline_ms"]))
    grid.add(
        "tokens in / out (cache misses)",
        f"{fixer['input_tokens']:,} / {fixer['output_tokens']:,}",
    )
    grid.add("estimated cost", fmt.usd(fixer["cost_usd"]))
    models = Grid(
        "Fixer by model",
        [
            Column("model", left=True),
            Column("calls"),
            Column("cache hits", drop=2),
            Column("tokens in"),
            Column("tokens out"),
            Column("$/M in,out", drop=1),
            Column("cost"),
        ],
    )
    for m in fixer["by_model"]:
        price = m["price_per_million"]
        models.add(
            m["model"],
            f"{m['calls']:,}",
            f"{m['cache_hits']:,}",
            f"{m['input_tokens']:,}",
            f"{m['output_tokens']:,}",
            "-" if price is None else f"{price[0]:g},{price[1]:g}",
            fmt.usd(m["cost_usd"]),
        )
    return [grid, models]


def _sizes(report: Report) -> Grid:
    grid = Grid(
        "Edit latency by file size",
        [
            Column("file size", left=True),
            Column("edits"),
            Column("p50 ms"),
            Column("p95 ms"),
            Column("p99 ms", drop=1),
        ],
    )
    for row in report["by_file_size"]:
        d = row["duration_ms"]
        grid.add(
            row["bucket"],
            f"{row['edits']:,}",
            *(fmt.percentile(d, k) for k in ("p50", "p95", "p99")),
        )
    return grid


_VERDICT_STYLE = {"better": "green", "worse": "red", "same": ""}


def render_comparison(
    rows: Sequence[ComparisonRow], console: Console, *, labels: tuple[str, str] = ("A", "B")
) -> None:
    """The ``--vs`` table: each metric for A and B and the change from A to B, coloured
    green where B is better and red where it is worse."""
    grid = Grid(
        f"{labels[0]} vs {labels[1]}",
        [
            Column("metric", left=True),
            Column(labels[0]),
            Column(labels[1]),
            Column("change", markup=True),
        ],
    )
    for row in rows:
        change = fmt.value(row["kind"], row["delta"], signed=True)
        style = _VERDICT_STYLE[verdict(row)]
        grid.add(
            row["metric"],
            fmt.value(row["kind"], row["a"]),
            fmt.value(row["kind"], row["b"]),
            f"[{style}]{change}[/{style}]" if style else change,
        )
    console.print(fit(grid, console.width))
