"""A self-contained HTML report with plotly charts (needs the ``html`` extra: plotly)."""

from __future__ import annotations

import html as html_escape
from collections.abc import Sequence
from pathlib import Path

from editengine.errors import EvaluationError
from editengine.evaluation.runner import RunResult
from editengine.evaluation.tables import (
    TOTAL,
    Tally,
    by_category,
    by_edit_kind,
    by_request,
    labelled,
    latency,
    strategy_mix,
)

OUTCOME_COLOURS = (("success", "#2e7d32"), ("refused", "#f9a825"), ("wrong", "#c62828"))


def _require_plotly():  # type: ignore[no-untyped-def]
    try:
        import plotly.graph_objects as go
        import plotly.io as pio
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise EvaluationError(
            "an HTML report needs plotly, which is not installed.",
            hint="pip install 'editengine[html]'",
        ) from err
    return go, pio


def render_html(runs: Sequence[RunResult], *, title: str = "editengine evaluation") -> str:
    go, pio = _require_plotly()
    parts: list[object] = []  # figures and HTML strings, in page order
    if len(runs) > 1:
        names = [*[n for n in by_category(runs[0]) if n != TOTAL], TOTAL]
        compare = go.Figure(
            data=[
                go.Bar(
                    name=run.config.label,
                    x=names,
                    y=[_pct(run, n) for n in names],
                )
                for run in runs
            ]
        )
        compare.update_layout(
            barmode="group", title="success % per category", yaxis_title="success %"
        )
        parts.append(compare)
    for run in runs:
        groups = [("category", by_category(run))]
        if labelled(run):
            groups += [("edit kind", by_edit_kind(run)), ("request", by_request(run))]
        for by, tallies in groups:
            parts.append(_outcomes_figure(go, f"{run.config.label}: outcomes per {by}", tallies))
        mix = strategy_mix(run)
        pie = go.Figure(data=[go.Pie(labels=list(mix), values=list(mix.values()))])
        pie.update_layout(title=f"{run.config.label}: strategy mix")
        total = by_category(run)[TOTAL]
        lat = latency(run)
        parts += [
            pie,
            "<p>"
            + html_escape.escape(
                f"{run.config.label}: {total.cases} cases, {total.success} success, "
                f"{total.refused} refused, {total.wrong} wrong ({total.success_pct:.1f}%); "
                f"wall {run.wall_s:.2f} s; latency p50 {lat['p50_ms']:.2f} ms, "
                f"p99 {lat['p99_ms']:.2f} ms"
            )
            + "</p>",
        ]
    sections = []
    first_figure = True
    for part in parts:
        if isinstance(part, str):
            sections.append(part)
            continue
        # plotly.js is inlined once, with the first chart, so the file works offline.
        sections.append(pio.to_html(part, full_html=False, include_plotlyjs=first_figure))
        first_figure = False
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html_escape.escape(title)}</title></head>"
        f"<body><h1>{html_escape.escape(title)}</h1>{''.join(sections)}</body></html>"
    )


def _outcomes_figure(go, title: str, tallies: dict[str, Tally]):  # type: ignore[no-untyped-def]
    """Stacked success / refused / wrong bars, one per group (TOTAL left out)."""
    names = [n for n in tallies if n != TOTAL]
    figure = go.Figure(
        data=[
            go.Bar(
                name=outcome,
                x=names,
                y=[getattr(tallies[n], outcome) for n in names],
                marker_color=colour,
            )
            for outcome, colour in OUTCOME_COLOURS
        ]
    )
    figure.update_layout(barmode="stack", title=title, yaxis_title="cases")
    return figure


def _pct(run: RunResult, name: str) -> float:
    tally = by_category(run).get(name)
    return round(tally.success_pct, 2) if tally else 0.0


def write_html(path: str | Path, runs: Sequence[RunResult]) -> None:
    Path(path).write_text(render_html(runs), encoding="utf-8")
