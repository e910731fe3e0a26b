"""Text the request inserts, moved from old_string's indentation to the file's.

The agent wrote new_string indented as it quoted old_string; the file may indent deeper,
shallower or with tabs. Each line begun inside inserted text keeps its indentation relative
to old_string, in the file's own characters (tabs stay tabs, spaces stay spaces).
"""

from __future__ import annotations

import itertools

from editengine._text import leading_whitespace
from editengine.verdict._tokens import CannotCarry


def in_file_unit(extra: str, file_indent: str, step: int) -> str:
    """Indentation the request adds (``extra``), in the characters the file indents with
    there: ``step`` spaces of the agent's for each tab of a tab-indented file, a tab of the
    agent's as ``step`` spaces in a space-indented one. Mixed, a Go or Makefile line would
    read wrong and a Python one would not run."""
    if not extra or not file_indent or set(file_indent) == set(extra):
        return extra
    if set(file_indent) == {"\t"} and set(extra) == {" "} and len(extra) % step == 0:
        return "\t" * (len(extra) // step)
    if set(file_indent) == {" "} and set(extra) == {"\t"}:
        return " " * (step * len(extra))
    return extra


def indent_step(*texts: str) -> int:
    """The agent's indentation step in spaces: the smallest rise from one line to a more
    indented one in its texts (4 when they show none)."""
    steps = []
    for text in texts:
        widths = [
            len(line) - len(line.lstrip(" "))
            for line in text.split("\n")
            if line.strip() and not line.startswith("\t")
        ]
        steps += [b - a for a, b in itertools.pairwise(widths) if b > a]
    return min(steps, default=4)


def indent_at(text: str, position: int) -> str:
    line_start = text.rfind("\n", 0, position) + 1
    return leading_whitespace(text[line_start:])


def indent_unit(text: str) -> str:
    """The indentation of the first indented line of ``text`` ("" when none is): what the
    file indents with, for a change that starts on a line at column 0."""
    for line in text.split("\n"):
        indent = leading_whitespace(line)
        if indent and line.strip():
            return indent
    return ""


def reindented(
    inserted: str,
    quoted_indent: str,
    file_indent: str,
    *,
    starts_line: bool,
    ends_before_token: bool,
    step: int = 4,
    unit: str = "",
) -> str:
    """Lines begun inside ``inserted`` moved from old_string's indentation to the file's.

    ``starts_line``: ``inserted`` begins at new_string's start, so its first line's indent is
    in it too. ``ends_before_token``: its last line is the indent of a token that follows
    (else it is new_string's trailing space, kept as it is). ``unit``: what the file indents
    with where ``file_indent`` is empty (a change on a line at column 0), so that a level
    the request adds in spaces is a tab in a tab-indented file even there.
    """
    same_depth = quoted_indent == file_indent
    lines = inserted.split("\n")
    out: list[str] = []
    for number, line in enumerate(lines):
        if number == 0 and not starts_line:
            out.append(line)
            continue
        stripped = line.lstrip(" \t")
        indent = line[: len(line) - len(stripped)]
        last = number == len(lines) - 1
        if stripped or (last and ends_before_token):
            if not indent.startswith(quoted_indent):
                if same_depth:  # nothing to move: the line stays as new_string has it
                    out.append(line)
                    continue
                raise CannotCarry("new_string is indented less than old_string's first line")
            extra = in_file_unit(indent[len(quoted_indent) :], file_indent or unit, step)
            out.append(file_indent + extra + stripped)
        else:
            out.append(line)  # a blank line, or the trailing space after the last token
    return "\n".join(out)
