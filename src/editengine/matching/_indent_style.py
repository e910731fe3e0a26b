"""How a text indents: tabs or a number of spaces a level, read from its lines.

The tiers compare depths in levels of a style, so a quote indented with tabs can stand for
a file indented with spaces, and new_string is written back in the file's own style.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from editengine._text import indent_width, leading_whitespace


def outside_block_comments(lines: Iterable[str]) -> list[str]:
    """``lines`` that indent code: not the inner lines of ``/* ... */`` comments (their
    whitespace aligns prose under the opening), and not lines led by a single space
    (`` * `` continuation lines and other alignment: never a level)."""
    out: list[str] = []
    inside = False
    for line in lines:
        if inside:
            inside = "*/" not in line
            continue
        if leading_whitespace(line) != " ":
            out.append(line)
        opened = line.rfind("/*")
        inside = opened != -1 and "*/" not in line[opened + 2 :]
    return out


@dataclass(frozen=True)
class IndentStyle:
    """How a text indents: with tabs, or with ``width`` spaces a level."""

    uses_tabs: bool
    width: int

    @classmethod
    def of(cls, lines: Sequence[str], fallback: IndentStyle | None = None) -> IndentStyle:
        tab_lines = space_lines = 0
        steps: Counter[int] = Counter()
        previous = 0
        for line in outside_block_comments(lines):
            if not line.strip():
                continue
            whitespace = leading_whitespace(line)
            if whitespace.startswith("\t"):
                tab_lines += 1
            elif whitespace.startswith(" "):
                space_lines += 1
            width = len(whitespace.expandtabs(4))
            if width != previous:
                steps[abs(width - previous)] += 1
            previous = width
        if tab_lines > space_lines:
            return cls(True, 1)
        plausible = [(count, -step) for step, count in steps.items() if 2 <= step <= 8]
        if plausible:
            return cls(False, -max(plausible)[1])
        if fallback is not None and not (fallback.uses_tabs and space_lines):
            return fallback
        # Space-indented lines with no telling step: four columns a level, which is also
        # what a tab stands for when tabs and spaces are compared.
        return cls(False, 4)

    def levels(self, whitespace: str) -> float:
        """Indentation depth of ``whitespace`` in levels of this style."""
        if self.uses_tabs:
            tabs = len(whitespace) - len(whitespace.lstrip("\t"))
            rest = whitespace[tabs:]
            return tabs + indent_width(rest) / 4
        return indent_width(whitespace) / self.width

    def render(self, levels: float) -> str:
        if levels <= 0:
            return ""
        if self.uses_tabs:
            whole = math.floor(levels + 1e-9)
            return "\t" * whole + " " * round((levels - whole) * 4)
        return " " * round(levels * self.width)


COLUMNS = IndentStyle(False, 1)
