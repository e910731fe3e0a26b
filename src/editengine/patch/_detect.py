"""``format="auto"``: tell which patch format a text is written in, from its markers.

The marker that comes first in the text decides, so a SEARCH/REPLACE block quoting a diff
(or a diff quoting a block) is read as what it is.
"""

from __future__ import annotations

import re

from editengine._errors import PatchError
from editengine.patch._model import AUTO, FORMATS

_MARKERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("apply_patch", re.compile(r"^[ \t]*\*\*\* Begin Patch[ \t]*\r?$", re.MULTILINE)),
    ("search_replace", re.compile(r"^[ \t]*<{5,9} SEARCH>?[ \t]*\r?$", re.MULTILINE)),
    ("udiff", re.compile(r"^--- [^\n]*\r?\n\+\+\+ ", re.MULTILINE)),
    ("udiff", re.compile(r"^@@[^\n]*@@", re.MULTILINE)),
)


def detect_format(text: str) -> str:
    """``search_replace``, ``udiff`` or ``apply_patch``; :class:`PatchError` when none fits."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a lone CR ends a line too
    found = [(m.start(), name) for name, pattern in _MARKERS if (m := pattern.search(text))]
    if not found:
        raise PatchError(
            "could not tell the patch format: found no '*** Begin Patch' line, no "
            "'<<<<<<< SEARCH' block and no '--- path' / '+++ path' diff header.",
            line=1,
            hint="Send an apply_patch patch, SEARCH/REPLACE blocks or a unified diff, or "
            "name the format.",
        )
    return min(found)[1]


def check_format(format: object) -> str:
    """The format name, validated: one of :data:`FORMATS` or ``auto``."""
    if not isinstance(format, str) or format not in (*FORMATS, AUTO):
        names = ", ".join((*FORMATS, AUTO))
        raise PatchError(f"unknown patch format {format!r}; use one of: {names}.")
    return format
