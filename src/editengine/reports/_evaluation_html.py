"""A self-contained HTML report of an evaluation (needs the ``html`` extra: plotly).

One run: the summary first, then success / refused / wrong *rates* per category (a table
and a chart; a 12-case category reads as well as a 140-case one), the fixer's calls and
tokens, the strategy mix and latency. Several runs (``--compare``): a heatmap of
configurations by categories (success %, wrong edits flagged), then each configuration's
details, collapsed. Colours come from the project's fixed palette.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from editengine._errors import BadRequest, EvaluationError
from editengine.evaluation._runner import RunResult
from editengine.evaluation._tables import (
    TOTAL,
    Tally,
    by_category,
    by_edit_kind,
    by_request,
    labelled,
    latency,
    strategy_mix,
)
from editengine.reports._page import Cell, Page, esc, table
from editengine.reports._palette import WORSE, colour_of, colours_of

OUTCOMES = ("success", "refused", "wrong")
HEATMAP_ID = "chart-heatmap"
RATES_CHART_PREFIX = "chart-rates-"


def _plotly() -> Any:
    try:
        from editengine.reports._page import plotly

        return plotly()
    except BadRequest as err:  # pragma: no cover - depends on the environment
        raise EvaluationError(
            "an HTML report needs plotly, which is not installed.",
            hint="pip install 'editengine[html]'",
        ) from err


def _rate(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


def _uses_fixer(tallies: Sequence[Tally]) -> bool:
    return any(t.fixer_calls or t.input_tokens for t in tallies)


def rates_table(tallies: dict[str, Tally], *, by: str, table_id: str = "") -> str:
    """Rates per group (TOTAL last); the fixer's calls and tokens when it was called."""
    fixer = _uses_fixer(list(tallies.values()))
    heads = [by, "cases", "success %", "refused %", "wrong %", "wrong"]
    if fixer:
        heads += ["fixer calls", "fixed", "tokens in", "tokens out", "cache hits"]
    rows = []
    for name, t in tallies.items():
        row: list[str | Cell] = [
            Cell(name, css="total" if name == TOTAL else ""),
            f"{t.cases:,}",
            _rate(t.success, t.cases),
            _rate(t.refused, t.cases),
            _rate(t.wrong, t.cases),
            Cell(f"{t.wrong:,}", css="worse" if t.wrong else ""),
        ]
        if fixer:
            row += [
                f"{t.fixer_calls:,}",
                f"{t.corrected:,}",
                f"{t.input_tokens:,}",
                f"{t.output_tokens:,}",
                f"{t.cache_hits:,}",
            ]
        rows.append(row)
    return table(heads, rows, table_id=table_id)


def rates_figure(go: Any, title: str, tallies: dict[str, Tally]) -> Any:
    """Stacked horizontal bars of each group's success / refused / wrong rates (100%)."""
    names = [n for n in tallies if n != TOTAL][::-1]
    labels = [f"{n} ({tallies[n].cases})" for n in names]
    fig = go.Figure()
    for outcome in OUTCOMES:
        rates = [
            100.0 * getattr(tallies[n], outcome) / tallies[n].cases if tallies[n].cases else 0.0
            for n in names
        ]
        fig.add_trace(
            go.Bar(
                y=labels,
                x=rates,
                name=outcome,
                orientation="h",
                marker_color=colour_of(outcome),
                hovertemplate="%{y}: %{x:.1f}%<extra>" + outcome + "</extra>",
            )
        )
    fig.update_layout(
        title=title,
        barmode="stack",
        xaxis={"title": "% of the group's cases", "range": [0, 100]},
        template="plotly_white",
        height=max(320, 26 * len(names) + 140),
        margin={"l": 220, "r": 20, "t": 50, "b": 50},
    )
    return fig


def _summary(run: RunResult) -> str:
    total = by_category(run)[TOTAL]
    lat = latency(run)
    cards = [
        ("cases", f"{total.cases:,}", ""),
        ("success", _rate(total.success, total.cases), ""),
        ("refused", _rate(total.refused, total.cases), ""),
        (
            "wrong",
            f"{total.wrong:,} ({_rate(total.wrong, total.cases)})",
            "worse" if total.wrong else "",
        ),
        ("fixer calls", f"{total.fixer_calls:,} ({total.corrected:,} fixed)", ""),
        ("tokens in / out", f"{total.input_tokens:,} / {total.output_tokens:,}", ""),
        ("latency p50 / p99", f"{lat['p50_ms']:.2f} / {lat['p99_ms']:.2f} ms", ""),
        ("wall time", f"{run.wall_s:.2f} s", ""),
    ]
    return (
        "<div class='cards' id='summary'>"
        + "".join(
            f"<div class='card'><div class='label'>{esc(label)}</div>"
            f"<div class='value {css}'>{esc(value)}</div></div>"
            for label, value, css in cards
        )
        + "</div>"
    )


def _strategies(run: RunResult) -> str:
    mix = strategy_mix(run)
    total = sum(mix.values())
    return table(
        ("strategy / declined", "cases", "share"),
        [
            (Cell(name, swatch=colour_of(name)), f"{n:,}", _rate(n, total))
            for name, n in mix.items()
        ],
    )


def _run_sections(page: Page, go: Any, run: RunResult, *, charts: bool, key: str) -> None:
    groups = [("category", by_category(run))]
    if labelled(run):
        groups += [("edit kind", by_edit_kind(run)), ("request", by_request(run))]
    for by, tallies in groups:
        slug = by.replace(" ", "-")
        page.heading(f"Outcome rates per {by}", level=3)
        page.raw(rates_table(tallies, by=by, table_id=f"table-rates-{slug}{key}"))
        if charts:
            page.figure(
                f"{RATES_CHART_PREFIX}{slug}{key}",
                rates_figure(go, f"{run.config.label}: outcomes per {by} (rates)", tallies),
            )
    page.heading("Strategy mix", level=3)
    if charts and strategy_mix(run):
        mix = strategy_mix(run)
        fig = go.Figure(
            go.Bar(x=list(mix), y=list(mix.values()), marker_color=colours_of(list(mix)))
        )
        fig.update_layout(
            title=f"{run.config.label}: strategy mix",
            yaxis_title="cases",
            template="plotly_white",
            height=340,
        )
        page.figure(f"chart-strategy-mix{key}", fig)
    page.raw(_strategies(run))


def heatmap(go: Any, runs: Sequence[RunResult]) -> Any:
    """Configurations (rows) by categories (columns, TOTAL last): success % as colour, the
    number of wrong edits written in the cell, which is framed in red."""
    tallies = [by_category(run) for run in runs]
    categories = [n for n in tallies[0] if n != TOTAL] + [TOTAL]
    for extra in tallies[1:]:
        categories[-1:-1] = [n for n in extra if n not in categories]
    labels = [run.config.label for run in runs]
    z: list[list[float | None]] = []
    text: list[list[str]] = []
    wrong_x: list[str] = []
    wrong_y: list[str] = []
    for label, table_ in zip(labels, tallies, strict=True):
        row_z: list[float | None] = []
        row_text: list[str] = []
        for name in categories:
            t = table_.get(name)
            if t is None or not t.cases:
                row_z.append(None)
                row_text.append("")
                continue
            row_z.append(round(t.success_pct, 1))
            row_text.append(f"{t.success_pct:.0f}" + (f"<br>✗{t.wrong}" if t.wrong else ""))
            if t.wrong:
                wrong_x.append(name)
                wrong_y.append(label)
        z.append(row_z)
        text.append(row_text)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=categories,
            y=labels,
            text=text,
            texttemplate="%{text}",
            textfont={"size": 11},
            zmin=0,
            zmax=100,
            colorscale=[[0.0, "#c62828"], [0.5, "#fdd835"], [1.0, "#2e7d32"]],
            colorbar={"title": "success %"},
            hovertemplate="%{y} on %{x}: %{z:.1f}% success<extra></extra>",
            xgap=1,
            ygap=1,
            name="success %",
        )
    )
    # A wrong edit is what matters most: its cell is framed in red, at the cell's own size.
    for x, y in zip(wrong_x, wrong_y, strict=True):
        column, row = categories.index(x), labels.index(y)
        fig.add_shape(
            type="rect",
            x0=column - 0.46,
            x1=column + 0.46,
            y0=row - 0.44,
            y1=row + 0.44,
            line={"color": WORSE, "width": 2.5},
            name=f"{y} on {x}: wrong",
        )
    fig.update_layout(
        title="Success % per configuration and category (✗N: N wrong edits, framed in red)",
        template="plotly_white",
        height=max(360, 40 * len(labels) + 240),
        margin={"l": 200, "r": 20, "t": 60, "b": 170},
        xaxis={"tickangle": -45, "side": "bottom"},
        yaxis={"autorange": "reversed"},
    )
    return fig


def _compare_summary(runs: Sequence[RunResult]) -> str:
    totals = [by_category(run)[TOTAL] for run in runs]
    fixer = _uses_fixer(totals)
    heads = ["configuration", "cases", "success %", "refused %", "wrong"]
    if fixer:
        heads += ["fixer calls", "tokens in", "tokens out"]
    heads.append("wall s")
    rows = []
    for run, t in zip(runs, totals, strict=True):
        row: list[str | Cell] = [
            run.config.label,
            f"{t.cases:,}",
            _rate(t.success, t.cases),
            _rate(t.refused, t.cases),
            Cell(f"{t.wrong:,}", css="worse" if t.wrong else ""),
        ]
        if fixer:
            row += [f"{t.fixer_calls:,}", f"{t.input_tokens:,}", f"{t.output_tokens:,}"]
        row.append(f"{run.wall_s:.2f}")
        rows.append(row)
    return table(heads, rows, table_id="table-configurations")


def build_page(runs: Sequence[RunResult], *, title: str = "editengine evaluation") -> Page:
    go = _plotly()
    page = Page(title)
    if not runs or not runs[0].records:
        page.empty("No cases were run.")
        return page
    if len(runs) == 1:
        (run,) = runs
        page.heading(f"{run.config.label}: summary")
        page.raw(_summary(run))
        _run_sections(page, go, run, charts=True, key="")
        return page
    page.heading("Configurations")
    page.raw(_compare_summary(runs))
    page.figure(HEATMAP_ID, heatmap(go, runs))
    page.heading("Each configuration")
    for index, run in enumerate(runs):
        inner = Page(title)
        inner.raw(_summary(run))
        _run_sections(inner, go, run, charts=False, key=f"-{index}")
        total = by_category(run)[TOTAL]
        page.raw(
            f"<details id='details-{index}'><summary>{esc(run.config.label)}: "
            f"{total.success_pct:.1f}% success, {total.wrong} wrong</summary>"
        )
        page.parts.extend(inner.parts)
        page.raw("</details>")
    return page


def render_html(runs: Sequence[RunResult], *, title: str = "editengine evaluation") -> str:
    return build_page(runs, title=title).render()


def write_html(path: str | Path, runs: Sequence[RunResult]) -> None:
    Path(path).write_text(render_html(runs), encoding="utf-8")
