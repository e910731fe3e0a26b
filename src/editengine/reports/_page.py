"""The frame every HTML page shares: one self-contained file, plotly.js inlined once.

A page is built from :class:`Page` parts in reading order: headings, paragraphs, tables
and plotly figures. Each figure gets a stable ``id`` (its div), so a test or a reader can
find it; the page records script errors in ``data-script-errors`` on ``<html>`` so a
headless browser can report them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from editengine._errors import BadRequest

_STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;
max-width:1200px;padding:0 1em;color:#212121}
h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;margin:.6em 0;font-size:14px}
th,td{padding:3px 10px;border-bottom:1px solid #e0e0e0;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{background:#f5f5f5}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:.8em 0}
.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:130px}
.card .label{font-size:12px;color:#616161}.card .value{font-size:22px;font-weight:600}
.card .delta{font-size:12px}
.better{color:#2e7d32}.worse{color:#c62828}.same{color:#616161}
.note{color:#616161;font-size:13px}.empty{color:#616161;font-style:italic}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px}
.side{display:flex;gap:2em;flex-wrap:wrap}.side>div{flex:1;min-width:320px}
details{margin:.6em 0}summary{cursor:pointer;font-weight:600}
"""

_ERROR_TRAP = (
    "<script>window.addEventListener('error',function(e){var d=document.documentElement;"
    "d.setAttribute('data-script-errors',(d.getAttribute('data-script-errors')||'')"
    "+(e.message||'error')+'\\n');});</script>"
)


def plotly() -> Any:
    """``plotly.graph_objects``, or a BadRequest that says how to install it."""
    try:
        import plotly.graph_objects as go
    except ImportError as exc:
        raise BadRequest(
            "The HTML report needs plotly, which is not installed.",
            hint="pip install 'editengine[html]', or leave out --html.",
        ) from exc
    return go


def esc(text: object) -> str:
    return html.escape(str(text))


@dataclass(frozen=True)
class Cell:
    """A table cell: text, and an optional CSS class (``better``, ``worse``) or colour."""

    text: str
    css: str = ""
    swatch: str = ""


def table(heads: Sequence[str], rows: Sequence[Sequence[str | Cell]], *, table_id: str = "") -> str:
    """An HTML table; every cell escaped."""
    out = [f"<table id='{esc(table_id)}'>" if table_id else "<table>", "<thead><tr>"]
    out.extend(f"<th>{esc(h)}</th>" for h in heads)
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>")
        for cell in row:
            if isinstance(cell, Cell):
                mark = f"<span class='swatch' style='background:{cell.swatch}'></span>"
                body = (mark if cell.swatch else "") + esc(cell.text)
                css = f" class='{cell.css}'" if cell.css else ""
                out.append(f"<td{css}>{body}</td>")
            else:
                out.append(f"<td>{esc(cell)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


@dataclass
class Page:
    """The parts of a page in order; :meth:`render` makes the HTML."""

    title: str
    parts: list[str | tuple[str, Any]] = field(default_factory=list)

    def heading(self, text: str, *, level: int = 2) -> None:
        self.parts.append(f"<h{level}>{esc(text)}</h{level}>")

    def text(self, text: str, *, css: str = "") -> None:
        self.parts.append(f"<p class='{css}'>{esc(text)}</p>" if css else f"<p>{esc(text)}</p>")

    def empty(self, text: str) -> None:
        """Say in words that there is nothing to chart (never an empty plot)."""
        self.text(text, css="empty")

    def raw(self, markup: str) -> None:
        self.parts.append(markup)

    def figure(self, div_id: str, figure: Any) -> None:
        self.parts.append((div_id, figure))

    @property
    def figure_ids(self) -> list[str]:
        return [part[0] for part in self.parts if isinstance(part, tuple)]

    def render(self) -> str:
        body: list[str] = []
        inlined = False
        for part in self.parts:
            if isinstance(part, str):
                body.append(part)
                continue
            div_id, fig = part
            # plotly.js goes in once, with the first chart, so the file works offline.
            chart = fig.to_html(
                full_html=False,
                include_plotlyjs=not inlined,
                div_id=div_id,
                config={"displaylogo": False, "responsive": True},
            )
            body.append(f"<div class='chart'>{chart}</div>")
            inlined = True
        return (
            "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width,initial-scale=1'>"
            f"<title>{esc(self.title)}</title><style>{_STYLE}</style>{_ERROR_TRAP}</head>"
            f"<body><h1>{esc(self.title)}</h1>{''.join(body)}</body></html>\n"
        )
