r"""Indentation spelled in Unicode spaces: a decoding of old_string and new_string alike.

A chat window or a rich-text copy hands code over with its indentation made of
non-breaking spaces (U+00A0) or other Unicode spaces (U+2000–U+200A, U+202F, U+205F,
U+3000). Line-trimmed matching forgives them on old_string, since ``str.strip`` takes them
off, but new_string written as sent would carry them into the file. The decoding reads each
such character of a line's indentation as one ASCII space, in old_string and new_string
alike, so that every tier searches for, and writes, what was meant.

Only where the file cannot hold them as content: a file that indents any line with such a
character keeps the quote as it is.

>>> decode("def a():\n\u00a0\u00a0x = 1\n", "\u00a0\u00a0x = 1", "\u00a0\u00a0x = 2")
('  x = 1', '  x = 2')
>>> decode("def a():\n  x = 1\n", "  x = 1", "  x = 2") is None
True
"""

from __future__ import annotations

import re

# Every character ``str.isspace`` calls a space on one line, other than the tab and the
# ASCII space: the ones a copy puts in place of indentation.
UNICODE_SPACES = frozenset(
    chr(code)
    for code in range(0x80, 0x3001)
    if chr(code).isspace() and chr(code) not in "\x85\u2028\u2029"
)
_INDENT = re.compile(r"^[ \t" + "".join(sorted(UNICODE_SPACES)) + r"]+", re.MULTILINE)


def carries_unicode_indentation(text: str) -> bool:
    """Some line of ``text`` is indented with a Unicode space."""
    if not any(char in text for char in UNICODE_SPACES):
        return False
    return any(UNICODE_SPACES.intersection(indent.group(0)) for indent in _INDENT.finditer(text))


def decoded(text: str) -> str:
    """``text`` with each Unicode space of its lines' indentation read as an ASCII space."""
    if not carries_unicode_indentation(text):
        return text
    return _INDENT.sub(lambda indent: _as_ascii(indent.group(0)), text)


def _as_ascii(indent: str) -> str:
    return "".join(" " if char in UNICODE_SPACES else char for char in indent)


def decode(file_text: str, old: str, new: str) -> tuple[str, str] | None:
    """old_string and new_string decoded alike, when old_string's indentation is spelled in
    Unicode spaces and the file's is not, and old_string does not stand in the file as sent;
    ``None`` when there is nothing to decode."""
    if not carries_unicode_indentation(old) or carries_unicode_indentation(file_text):
        return None
    if old in file_text:
        return None  # the quote is the file's text, its spaces included
    return decoded(old), decoded(new)
