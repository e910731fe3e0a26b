"""Reading pages back for the tests: their tables (by id) and their plotly figures."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.classes: dict[str, list[list[str]]] = {}
        self.ids: set[str] = set()
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._css = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if named.get("id"):
            self.ids.add(str(named["id"]))
        if tag == "table":
            self._table = str(named.get("id") or f"anonymous-{len(self.tables)}")
            self.tables[self._table] = []
            self.classes[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
            self.classes[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
            self._css = str(named.get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self.classes[self._table][-1].append(self._css)
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(page: str) -> _Tables:
    """The page's tables as rows of cell texts (the header row first), and its ids."""
    parser = _Tables()
    parser.feed(page)
    return parser


def figures(page: str) -> dict[str, dict[str, Any]]:
    """Each chart's figure JSON (data and layout), read from its Plotly.newPlot call."""
    out = {}
    decoder = json.JSONDecoder()
    for match in re.finditer(r'Plotly\.newPlot\(\s*"([^"]+)",\s*', page):
        data, end = decoder.raw_decode(page, match.end())
        rest = page[end:].lstrip(", \n")
        layout, _ = decoder.raw_decode(rest)
        out[match.group(1)] = {"data": data, "layout": layout}
    return out
