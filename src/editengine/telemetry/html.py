"""The report as one self-contained HTML page of plotly charts (optional extra ``html``).

plotly.js is embedded inline, so the page opens offline and can be mailed as one file.
"""

from __future__ import annotations

import html as _html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from editengine.errors import BadRequest
from editengine.telemetry.render import similarity_rows

CHART_IDS = ("chart-strategy-mix", "chart-edit-latency", "chart-fixer-latency")
SIMILARITY_CHART_PREFIX = "chart-similarity-"


def _plotly() -> Any:
    try:
        import plotly.graph_objects as go
    except ImportError as exc:
        raise BadRequest(
            "The HTML report needs plotly, which is not installed.",
            hint="pip install 'editengine[html]', or leave out --html.",
        ) from exc
    return go


def _latency_figure(go: Any, bars: list[Any], title: str) -> Any:
    labels = [f"{low:.3g}-{high:.3g}" for low, high, _ in bars]
    fig = go.Figure(go.Bar(x=labels, y=[n for _, _, n in bars], name="edits"))
    fig.update_layout(
        title=title, xaxis_title="milliseconds (log-spaced bins)", yaxis_title="count"
    )
    return fig


def build_figures(report: Mapping[str, Any]) -> dict[str, Any]:
    """Chart id -> plotly Figure: strategy mix, latency histograms, similarity histograms."""
    go = _plotly()
    figures: dict[str, Any] = {}
    strategies = report["strategies"]
    mix = go.Figure(
        go.Bar(
            x=[s["strategy"] for s in strategies],
            y=[s["count"] for s in strategies],
            text=[f"{(s['share_of_edits'] or 0):.1%}" for s in strategies],
        )
    )
    mix.update_layout(title="Strategy mix: which tier placed the edit", yaxis_title="edits")
    figures["chart-strategy-mix"] = mix
    figures["chart-edit-latency"] = _latency_figure(
        go, report["edits"]["duration_bars"], "Edit latency histogram"
    )
    figures["chart-fixer-latency"] = _latency_figure(
        go, report["fixer"]["latency_bars"], "Fixer latency histogram (cache misses)"
    )
    for tier in report["tiers"]:
        sim = tier.get("similarity")
        if not sim or tier["pass"] != "original":
            continue
        rows = similarity_rows(sim)
        fig = go.Figure()
        for outcome in sorted(sim["bins"]):
            fig.add_trace(
                go.Bar(
                    x=[label for label, _ in rows], y=[c[outcome] for _, c in rows], name=outcome
                )
            )
        fig.update_layout(
            barmode="stack",
            title=f"Similarity histogram of {tier['tier']!r} (threshold "
            f"{'unknown' if sim['threshold'] is None else format(sim['threshold'], '.2f')})",
            xaxis_title="best similarity",
            yaxis_title="attempts",
        )
        figures[SIMILARITY_CHART_PREFIX + tier["tier"]] = fig
    return figures


def render_html(report: Mapping[str, Any], *, title: str = "editengine telemetry report") -> str:
    """The whole page as a string."""
    figures = build_figures(report)
    charts = []
    for index, (div_id, fig) in enumerate(figures.items()):
        charts.append(fig.to_html(full_html=False, include_plotlyjs=index == 0, div_id=div_id))
    edits, fixer = report["edits"], report["fixer"]
    facts = [
        ("edits", f"{edits['finished']:,}"),
        ("success rate", _rate(edits["success_rate"])),
        ("ambiguity rate", _rate(edits["ambiguity_rate"])),
        ("fixer calls", f"{fixer['calls']:,}"),
        ("fixer success rate", _rate(fixer["success_rate"])),
        ("fixer cache hit rate", _rate(fixer["cache_hit_rate"])),
        ("period", f"{report['input']['first_ts']} .. {report['input']['last_ts']}"),
    ]
    rows = "".join(
        f"<tr><th>{_html.escape(k)}</th><td>{_html.escape(v)}</td></tr>" for k, v in facts
    )
    recs = (
        "".join(
            f"<li><b>{_html.escape(r['kind'])}</b>: {_html.escape(r['message'])}</li>"
            for r in report["recommendations"]
        )
        or "<li>none: nothing crossed its threshold</li>"
    )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{_html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "th,td{padding:2px 10px;text-align:left;border-bottom:1px solid #ddd}</style>"
        f"</head><body><h1>{_html.escape(title)}</h1><table>{rows}</table>"
        f"<h2>Recommendations</h2><ul>{recs}</ul>"
        + "".join(f"<section>{c}</section>" for c in charts)
        + "</body></html>\n"
    )


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def write_html(report: Mapping[str, Any], path: str | Path, *, title: str | None = None) -> Path:
    """Write the page to ``path``; returns the path."""
    target = Path(path)
    page = render_html(report, title=title or "editengine telemetry report")
    target.write_text(page, encoding="utf-8")
    return target
