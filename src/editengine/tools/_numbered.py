"""The one line-numbered format files are shown in (the MCP ``read`` tool, candidate lines).

Each line is ``f"{n:>6}\\t{line}"``: the 1-based line number right-aligned in six columns,
a tab, then the line without its line ending (``cat -n`` style). A UTF-8 BOM is not shown.
Models often copy this prefix into old_string; the matching cascade knows to strip it.

>>> number_lines("a = 1\\r\\nb = 2\\n").text
'     1\\ta = 1\\n     2\\tb = 2'
"""

from __future__ import annotations

from dataclasses import dataclass

from editengine._text import to_lf

LINE_FORMAT = "{n:>6}\t{line}"


def format_line(number: int, line: str) -> str:
    return LINE_FORMAT.format(n=number, line=line)


@dataclass(frozen=True)
class NumberedText:
    """``text``: lines ``start_line``..``end_line`` of ``total_lines``, numbered."""

    text: str
    start_line: int
    end_line: int
    total_lines: int


def split_lines(text: str) -> list[str]:
    """The file's lines without their endings, counted as the cascade counts them (``\\n``,
    ``\\r\\n`` and a lone ``\\r`` each end a line), so the numbers shown are the ones its
    errors name; a final line break adds no empty line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text:
        return []
    lines = to_lf(text).split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def number_lines(text: str, *, start: int = 1, limit: int | None = None) -> NumberedText:
    """Lines ``start``.. (1-based) of ``text``, at most ``limit`` of them, numbered."""
    lines = split_lines(text)
    first = max(1, start)
    chosen = lines[first - 1 : None if limit is None else first - 1 + max(0, limit)]
    body = "\n".join(format_line(first + offset, line) for offset, line in enumerate(chosen))
    end = first + len(chosen) - 1 if chosen else first - 1
    return NumberedText(body, first, end, len(lines))
