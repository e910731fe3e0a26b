"""The report as ``rich`` tables, from the dict :meth:`Aggregator.result` returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

_SIM_WINDOW = 10  # 0.01-wide bins shown either side of a fuzzy tier's threshold


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:,.0f}" if value >= 1000 else f"{value:.1f}"


def _usd(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.4f}"


def _summary(summary: Mapping[str, Any], key: str) -> str:
    return _ms(summary.get(key)) if summary.get("count") else "-"


def render_report(report: Mapping[str, Any], console: Console, *, title: str = "") -> None:
    """Print every section of the report as a table, then the recommendations."""
    for table in report_tables(report, title=title):
        console.print(table)
    render_recommendations(report, console)
    console.print(f"[dim]Percentiles: {report['percentiles']}.[/dim]")


def render_recommendations(report: Mapping[str, Any], console: Console, *, label: str = "") -> None:
    """The numbered recommendations, or a line saying why there are none."""
    recommendations = report["recommendations"]
    console.print(f"[bold]Recommendations{f' for {escape(label)}' if label else ''}[/bold]")
    if not recommendations:
        console.print("  none: nothing crossed its threshold (see docs/telemetry.md)")
    for index, item in enumerate(recommendations, 1):
        line = escape(f"  {index}. [{item['kind']}] {item['message']}")
        console.print(line, highlight=False)


def report_tables(report: Mapping[str, Any], *, title: str = "") -> list[Table]:
    tables = [_overview(report, title)]
    if report["errors"]:
        tables.append(_errors(report))
    if report["strategies"]:
        tables.append(_strategies(report))
    if report["tiers"]:
        tables.append(_tiers(report))
    tables.extend(_similarities(report))
    if report["fixer"]["calls"]:
        tables.extend(_fixer(report))
    if report["by_file_size"]:
        tables.append(_sizes(report))
    return tables


def _overview(report: Mapping[str, Any], title: str) -> Table:
    source, edits = report["input"], report["edits"]
    duration = edits["duration_ms"]
    table = Table(title=f"Telemetry {title}".strip(), show_header=False)
    table.add_column("metric", style="bold")
    table.add_column("value", justify="right")
    rows = [
        ("files / events", f"{source['files']} / {source['events']:,}"),
        (
            "malformed / unknown lines skipped",
            f"{source['malformed']:,} / {source['unknown_events']:,}",
        ),
        ("unreadable (truncated) files", f"{source['unreadable_files']:,}"),
        ("period", f"{source['first_ts'] or '-'} .. {source['last_ts'] or '-'}"),
        ("edits", f"{edits['finished']:,}"),
        ("success rate (incl. no change)", _pct(edits["success_rate"])),
        ("errors", f"{edits['errors']:,}"),
        ("ambiguity rate", _pct(edits["ambiguity_rate"])),
        ("corrected by the fixer", f"{edits['corrected_by_fixer']:,}"),
        ("dry runs", f"{edits['dry_run']:,}"),
        (
            "duration p50 / p95 / p99 ms",
            " / ".join(_summary(duration, k) for k in ("p50", "p95", "p99")),
        ),
    ]
    for name, value in rows:
        table.add_row(name, value)
    return table


def _errors(report: Mapping[str, Any]) -> Table:
    table = Table(title="Errors that recur")
    for name in ("error code", "edits", "share of edits", "fixer tried"):
        table.add_column(name, justify="left" if name == "error code" else "right")
    for row in report["errors"]:
        table.add_row(
            row["error_code"],
            f"{row['count']:,}",
            _pct(row["share_of_edits"]),
            f"{row['fixer_tried']:,}",
        )
    return table


def _strategies(report: Mapping[str, Any]) -> Table:
    table = Table(title="Strategy mix (which tier placed the edit)")
    for name in ("strategy", "edits", "share", "p50 ms", "p95 ms"):
        table.add_column(name, justify="left" if name == "strategy" else "right")
    for row in report["strategies"]:
        d = row["duration_ms"]
        table.add_row(
            row["strategy"],
            f"{row['count']:,}",
            _pct(row["share_of_edits"]),
            _summary(d, "p50"),
            _summary(d, "p95"),
        )
    return table


def _tiers(report: Mapping[str, Any]) -> Table:
    table = Table(title="Tiers, in cascade order")
    heads = (
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
    )
    for name in heads:
        table.add_column(name, justify="left" if name in ("tier", "pass") else "right")
    for row in report["tiers"]:
        elapsed = row["elapsed_ms"]
        table.add_row(
            row["tier"],
            row["pass"],
            f"{row['mean_position']:.1f}",
            f"{row['tries']:,}",
            f"{row['wins']:,}",
            _pct(row["win_rate"]),
            f"{row['outcomes'].get('ambiguous', 0):,}",
            f"{row['outcomes'].get('refused', 0):,}",
            _ms(elapsed.get("mean")),
            _ms(row["elapsed_ms_total"]),
        )
    return table


def similarity_rows(sim: Mapping[str, Any]) -> list[tuple[str, dict[str, int]]]:
    """(label, counts by outcome) rows: 0.01 bins near the threshold, lumped further away."""
    bins: Mapping[str, Sequence[int]] = sim["bins"]
    threshold = sim["threshold"]
    edge = round(threshold * 100) if threshold is not None else None
    ranges: list[tuple[str, int, int]] = []
    if edge is None:
        ranges = [(f"{i / 100:.2f}-{(i + 9) / 100:.2f}", i, i + 10) for i in range(0, 100, 10)]
        ranges.append(("1.00", 100, 101))
    else:
        low, high = max(0, edge - _SIM_WINDOW), min(101, edge + _SIM_WINDOW)
        if low > 0:
            ranges.append((f"< {low / 100:.2f}", 0, low))
        ranges.extend((f"{i / 100:.2f}", i, i + 1) for i in range(low, high))
        if high < 101:
            ranges.append((f">= {high / 100:.2f}", high, 101))
    return [(label, {k: sum(v[a:b]) for k, v in bins.items()}) for label, a, b in ranges]


def _similarities(report: Mapping[str, Any]) -> list[Table]:
    tables = []
    for row in report["tiers"]:
        sim = row.get("similarity")
        if not sim or row["pass"] != "original":
            continue
        threshold = sim["threshold"]
        note = "unknown" if threshold is None else f"{threshold:.2f} ({sim['threshold_source']})"
        table = Table(title=f"Similarity of {row['tier']!r} candidates; threshold {note}")
        outcomes = sorted(sim["bins"])
        table.add_column("best similarity")
        for outcome in outcomes:
            table.add_column(outcome, justify="right")
        for label, counts in similarity_rows(sim):
            if any(counts.values()):
                table.add_row(label, *(f"{counts[o]:,}" for o in outcomes))
        tables.append(table)
    return tables


def _fixer(report: Mapping[str, Any]) -> list[Table]:
    fixer = report["fixer"]
    table = Table(title="LLM fixer", show_header=False)
    table.add_column("metric", style="bold")
    table.add_column("value", justify="right")
    latency = fixer["latency_ms"]
    success = fixer["latency_ms_success"]
    outcomes = ", ".join(f"{k} {v:,}" for k, v in fixer["outcomes"].items() if v)
    rows = [
        ("calls (share of edits)", f"{fixer['calls']:,} ({_pct(fixer['call_rate'])})"),
        (
            "corrected (success rate)",
            f"{fixer['outcomes'].get('corrected', 0):,} ({_pct(fixer['success_rate'])})",
        ),
        ("edits rescued", f"{fixer['rescued_edits']:,}"),
        ("outcomes", outcomes or "-"),
        ("timeouts", f"{fixer['timeouts']:,} ({_pct(fixer['timeout_rate'])})"),
        ("cache hits", f"{fixer['cache_hits']:,} ({_pct(fixer['cache_hit_rate'])})"),
        ("windowed prompts", f"{fixer['windowed']:,}"),
        (
            "latency p50 / p95 / p99 ms (cache misses)",
            " / ".join(_summary(latency, k) for k in ("p50", "p95", "p99")),
        ),
        ("successful calls p95 ms", _summary(success, "p95")),
        (
            "deadline ms (as configured)",
            _ms(fixer.get("deadline_ms")),
        ),
        (
            "tokens in / out (cache misses)",
            f"{fixer['input_tokens']:,} / {fixer['output_tokens']:,}",
        ),
        ("estimated cost", _usd(fixer["cost_usd"])),
    ]
    for name, value in rows:
        table.add_row(name, value)
    models = Table(title="Fixer by model")
    for name in ("model", "calls", "cache hits", "tokens in", "tokens out", "$/M in,out", "cost"):
        models.add_column(name, justify="left" if name == "model" else "right")
    for m in fixer["by_model"]:
        price = m["price_per_million"]
        models.add_row(
            m["model"],
            f"{m['calls']:,}",
            f"{m['cache_hits']:,}",
            f"{m['input_tokens']:,}",
            f"{m['output_tokens']:,}",
            "-" if price is None else f"{price[0]:g},{price[1]:g}",
            _usd(m["cost_usd"]),
        )
    return [table, models]


def _sizes(report: Mapping[str, Any]) -> Table:
    table = Table(title="Edit latency by file size")
    for name in ("file size", "edits", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(name, justify="left" if name == "file size" else "right")
    for row in report["by_file_size"]:
        d = row["duration_ms"]
        table.add_row(
            row["bucket"], f"{row['edits']:,}", *(_summary(d, k) for k in ("p50", "p95", "p99"))
        )
    return table


def render_comparison(
    rows: Sequence[Mapping[str, Any]], console: Console, *, labels: tuple[str, str] = ("A", "B")
) -> None:
    """The ``--vs`` table: each metric for A and B and the change from A to B."""
    table = Table(title=f"{labels[0]} vs {labels[1]}")
    table.add_column("metric")
    table.add_column(labels[0], justify="right")
    table.add_column(labels[1], justify="right")
    table.add_column("delta", justify="right")
    for row in rows:
        table.add_row(
            row["metric"],
            *(_format(row["kind"], row[k], k == "delta") for k in ("a", "b", "delta")),
        )
    console.print(table)


def _format(kind: str, value: Any, signed: bool) -> str:
    if value is None:
        return "-"
    sign = "+" if signed and value > 0 else ""
    if kind == "rate":
        return f"{sign}{value * 100:.1f}" + (" pp" if signed else "%")
    if kind == "count":
        return f"{sign}{value:,}"
    if kind == "usd":
        return f"{sign}{value:,.4f}"
    if value < 0:
        return f"-{_ms(-value)}"
    return f"{sign}{_ms(value)}"
