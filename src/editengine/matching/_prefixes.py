r"""Line-number prefixes copied from a read tool's output: ``   42\t``, ``42→``, ``42: ``.

Read tools show a file with each line numbered (``cat -n``, this project's own
``tools/_numbered.py``, editors' ``42→`` or ``  42 | ``), and a model copying from that output
often keeps the numbers in old_string. A quote is read as numbered only when *every*
non-empty line carries the same style of prefix and the numbers count up one per line
(a blank line may be the bare number): a block of code whose lines merely start with
numbers does not do that by accident.

>>> strip("  41\tdef f():\n  42\t    return 1").text
'def f():\n    return 1'
>>> strip("41: a\n43: b") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class PrefixStyle:
    """One way of numbering lines: the separator after the number, and how it is shown."""

    name: str
    example: str  # what line 42 starts with (shown with repr in messages)
    separator: str  # as it is written
    bare_separator: str  # what a blank line may keep of it
    lead: str = ""  # written before the number (``L42: ``)

    @cached_property
    def line(self) -> re.Pattern[str]:
        lead, separator = re.escape(self.lead), re.escape(self.separator)
        return re.compile(rf" *{lead}([0-9]{{1,9}}){separator}(.*)", re.DOTALL)

    @cached_property
    def blank(self) -> re.Pattern[str]:
        lead, bare = re.escape(self.lead), re.escape(self.bare_separator)
        return re.compile(rf" *{lead}([0-9]{{1,9}})(?:{bare})?[ \t]*")


# Tried in this order; no line fits two of them (a tab, an arrow, " | ", "|", ": ", " │ ",
# ":\t", "L42: ", two spaces).
STYLES: tuple[PrefixStyle, ...] = (
    PrefixStyle("tab", "    42\t", "\t", "\t"),
    PrefixStyle("arrow", "42\u2192", "\u2192", "\u2192"),
    PrefixStyle("spaced_bar", "  42 | ", " | ", " |"),
    PrefixStyle("bar", "42|", "|", "|"),
    PrefixStyle("colon", "42: ", ": ", ":"),
    PrefixStyle("box_bar", "  42 \u2502 ", " \u2502 ", " \u2502"),
    PrefixStyle("colon_tab", "42:\t", ":\t", ":"),
    PrefixStyle("line_colon", "L42: ", ": ", ":", lead="L"),
    PrefixStyle("two_spaces", "  42  ", "  ", ""),
)


_NUMBER_FIRST = re.compile(r"\n* *L?[0-9]")


@dataclass(frozen=True)
class Numbered:
    """A quote with its line-number prefixes taken off."""

    text: str
    style: PrefixStyle
    first: int  # the number of its first line


def strip(
    text: str, style: PrefixStyle | None = None, *, consecutive: bool = True
) -> Numbered | None:
    """``text`` without its prefixes, when every non-empty line carries one of ``style``
    (any style when ``None``) numbered one per line; ``None`` otherwise.

    ``consecutive=False`` asks only that the numbers rise: new_string written from a
    numbered copy keeps the numbers of the lines it kept, around the ones it dropped.
    """
    if not _NUMBER_FIRST.match(text):
        return None  # the common case, decided without splitting the text
    for candidate in STYLES if style is None else (style,):
        found = _strip(text, candidate, consecutive)
        if found is not None:
            return found
    return None


def _strip(text: str, style: PrefixStyle, consecutive: bool) -> Numbered | None:
    lines = text.split("\n")
    line, blank = style.line, style.blank
    body: list[str] = []
    first: int | None = None
    previous = -1
    for index, quoted in enumerate(lines):
        if quoted == "":
            body.append("")
            continue
        match = line.fullmatch(quoted)
        content = match.group(2) if match else ""
        if match is None:
            match = blank.fullmatch(quoted)
            if match is None:
                return None
        number = int(match.group(1))
        if first is None:
            first = number - index
        if (number != first + index) if consecutive else (number <= previous):
            return None
        previous = number
        body.append(content)
    if first is None or not any(part.strip() for part in body):
        return None
    return Numbered("\n".join(body), style, first)


def may_be_content(text: str, quote: str, style: PrefixStyle) -> bool:
    """Whether ``quote``'s numbers may be the file's own text: the quote stands in ``text``
    as it is, or a line of ``text`` starts with its first number in its style (``1: `` of
    a YAML mapping).

    One scan in C for the first number; a file holding it in the middle of lines too often
    to check each place is taken to hold it as content.
    """
    lines = quote.split("\n")
    numbered = [(i, found) for i, found in enumerate(map(style.line.fullmatch, lines)) if found]
    if not numbered:
        return False
    index, first = numbered[0]
    needle = style.lead + first.group(1) + style.separator
    # Where the needle stands in the quote, so a place in the file says where the quote would.
    offset = sum(len(line) + 1 for line in lines[:index]) + first.start(1) - len(style.lead)
    at, places = text.find(needle), 0
    while at != -1:
        line_start = text.rfind("\n", 0, at) + 1
        places += 1
        if (
            not text[line_start:at].strip(" \t")
            or (at >= offset and text.startswith(quote, at - offset))
            or places > _PLACES_CHECKED
        ):
            return True
        at = text.find(needle, at + 1)
    return False


_PLACES_CHECKED = 64
