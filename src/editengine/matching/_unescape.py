"""Unescape tier: the model escaped its text once more than the file is escaped."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar

from editengine._text import unescape_greedy, unescape_once
from editengine.matching._base import Match
from editengine.matching._trimmed import line_block_matches

_ESCAPE = re.compile(r"\\+[ntr\"'`$\\]")


class UnescapeTier:
    """Forgives over-escaping: ``\\n`` for a newline, ``\\"`` for a quote, ``\\\\`` for ``\\``.

    One level of escaping is undone first (so source that really contains ``\\n`` survives),
    then every run of backslashes. new_string is unescaped the same way when it carries the
    same escapes — writing it still escaped is the bug this tier exists to avoid.
    """

    name: ClassVar[str] = "unescape"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        if "\\" not in old:
            return []
        escapes_in_old = set(_ESCAPE.findall(old))
        for unescape in (unescape_once, unescape_greedy):
            candidate = unescape(old)
            if candidate == old or not candidate.strip():
                continue
            transform = _new_transform(unescape, escapes_in_old)
            matches = _exact(content, candidate, transform)
            if not matches and "\n" in candidate:
                matches = line_block_matches(
                    content, candidate, tier=self.name, transform_new=transform
                )
            if matches:
                return matches
        return []


def _new_transform(
    unescape: Callable[[str], str], escapes_in_old: set[str]
) -> Callable[[str], str]:
    def transform(new: str) -> str:
        if any(escape in new for escape in escapes_in_old):
            return unescape(new)
        return new

    return transform


def _exact(content: str, needle: str, transform: Callable[[str], str]) -> list[Match]:
    matches: list[Match] = []
    position = content.find(needle)
    while position != -1:
        matches.append(Match(position, position + len(needle), 1.0, transform))
        position = content.find(needle, position + len(needle))
    return matches
