r"""Markdown fences a model wraps around a quote: ```` ```python ```` ... ```` ``` ````.

A model used to answering in chat puts its code in a fenced block, and sometimes sends
old_string or new_string that way. A fence is only ever taken off when it wraps the *whole*
string (blank lines around it aside) and the file has no fence line of its own: in Markdown
or in a docstring holding an example, a fence may be the very text meant.

>>> unwrap("```py\nx = 1\n```\n")
'x = 1'
>>> unwrap("x = 1\n```") is None
True
"""

from __future__ import annotations

import re

_OPENING = re.compile(r"[ \t]*(`{3,}|~{3,})[^`\n]*")
_CLOSING = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*")
_MARKS = ("```", "~~~")


def unwrap(text: str) -> str | None:
    """The text inside a fence that wraps all of ``text``; ``None`` when none does.

    The body is returned without the line break that precedes the closing fence, which
    belongs to the fence: what ends the body is for the caller to decide.
    """
    if not text.lstrip().startswith(_MARKS):
        return None  # the common case, decided without splitting the text
    lines = text.split("\n")
    first, last = 0, len(lines) - 1
    while first <= last and not lines[first].strip():
        first += 1
    while last >= first and not lines[last].strip():
        last -= 1
    if last <= first:
        return None
    opening = _OPENING.fullmatch(lines[first])
    closing = _CLOSING.fullmatch(lines[last])
    if opening is None or closing is None:
        return None
    mark = opening.group(1)
    if closing.group(1)[0] != mark[0] or len(closing.group(1)) < len(mark):
        return None
    body = lines[first + 1 : last]
    if any(_closes(line, mark) for line in body):
        return None  # two fenced blocks, or a block with prose after it: not one wrapper
    return "\n".join(body)


def _closes(line: str, mark: str) -> bool:
    found = _CLOSING.fullmatch(line)
    return found is not None and found.group(1)[0] == mark[0]


def has_fence_lines(text: str) -> bool:
    """Whether a line of ``text`` starts with ```` ``` ```` or ``~~~`` (after indentation).

    Scanned with ``str.find`` for the marks, so a file without them costs one C pass each.
    """
    for mark in _MARKS:
        at = text.find(mark)
        while at != -1:
            line_start = text.rfind("\n", 0, at) + 1
            if not text[line_start:at].strip(" \t"):
                return True
            line_end = text.find("\n", at)
            if line_end == -1:
                break
            at = text.find(mark, line_end + 1)
    return False
