"""Tables of text that fit the terminal they are printed to.

A table is first laid out as a :class:`Grid` (columns and rows of text); :func:`fit` turns
it into a ``rich`` table no wider than the console, leaving out the least needed columns
first when the terminal is narrow (a table whose rows wrap is harder to read than one
with fewer columns), and folding what still does not fit. Names are never cut short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.markup import escape
from rich.table import Table
from rich.text import Text


@dataclass(frozen=True)
class Column:
    """``drop``: 0 is always shown; a higher number is left out earlier on a narrow screen.
    ``markup``: the cells hold rich markup (``[red]2[/red]``); others are shown as written."""

    name: str
    left: bool = False
    drop: int = 0
    markup: bool = False


@dataclass
class Grid:
    title: str
    columns: list[Column]
    rows: list[list[str]] = field(default_factory=list)
    show_header: bool = True
    styles: list[tuple[str | None, bool]] = field(default_factory=list)

    def add(self, *cells: str, style: str | None = None, end_section: bool = False) -> None:
        self.rows.append(list(cells))
        self.styles.append((style, end_section))


def _natural_width(columns: Sequence[tuple[int, Column]], grid: Grid) -> int:
    """Width of the table with every cell on one line: cells, padding and borders."""
    total = 1
    for index, column in columns:
        cells = [_cell_len(row[index]) for row in grid.rows]
        head = len(column.name) if grid.show_header else 0
        total += max([head, *cells]) + 3
    return total


def _cell_len(cell: str) -> int:
    return Text.from_markup(cell).cell_len if "[" in cell else len(cell)


def fit(grid: Grid, width: int) -> Table:
    """The table of ``grid`` within ``width`` columns."""
    kept = list(enumerate(grid.columns))
    while _natural_width(kept, grid) > width and any(c.drop for _, c in kept):
        worst = max(c.drop for _, c in kept)
        kept = [(i, c) for i, c in kept if c.drop != worst]
    table = Table(title=grid.title, show_header=grid.show_header)
    for _, column in kept:
        table.add_column(
            column.name,
            justify="left" if column.left else "right",
            overflow="fold",
            style="bold" if column.left and not grid.show_header else None,
        )
    for row, (style, end_section) in zip(grid.rows, grid.styles, strict=True):
        table.add_row(
            *(row[i] if column.markup else escape(row[i]) for i, column in kept),
            style=style,
            end_section=end_section,
        )
    return table
