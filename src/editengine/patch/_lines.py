"""Hunks are whole lines: a cascade whose tiers only place a hunk on whole lines.

A hunk's before-text is lines of the file, so a tier that finds it starting in the middle
of a line (the exact tier finding ``ret = x`` inside ``    ret = x``) or ending inside one
(a spacing-tolerant tier matching the final newline against spaces) has found the wrong
thing: the re-indenting tiers are the ones that should place it. Each tier of the engine's
cascade is wrapped to drop such candidates; the tiers themselves are untouched.
"""

from __future__ import annotations

from typing import Any

from editengine.matching._base import Match
from editengine.matching._cascade import Cascade


class WholeLines:
    """``tier``, keeping only candidates that start at a line start and, when the quote
    ends with a newline (and ``whole_end``), end at one."""

    def __init__(self, tier: Any, *, whole_end: bool = True) -> None:
        self.tier = tier
        self.name = tier.name
        self.fuzzy = tier.fuzzy
        self.whole_end = whole_end

    def __getattr__(self, name: str) -> Any:  # threshold, margin ... of the wrapped tier
        return getattr(self.tier, name)

    def find(self, content: str, old: str) -> list[Match]:
        found: list[Match] = self.tier.find(content, old)
        whole_end = self.whole_end and old.endswith("\n")
        return [
            match
            for match in found
            if (match.start == 0 or content[match.start - 1] == "\n")
            and (not whole_end or match.end == len(content) or content[match.end - 1] == "\n")
        ]


_CACHE: dict[tuple[int, bool], tuple[Any, Cascade]] = {}


def whole_line_cascade(cascade: Any, *, whole_end: bool = True) -> Any:
    """``cascade`` with every tier wrapped in :class:`WholeLines` (cached per cascade);
    a cascade-like object that is not a :class:`Cascade` is used as it is. Without
    ``whole_end`` a candidate need only start at a line start: a quote of several lines
    whose last one is cut short."""
    if not isinstance(cascade, Cascade):
        return cascade
    key = (id(cascade), whole_end)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is cascade:
        return cached[1]
    wrapped = Cascade([WholeLines(tier, whole_end=whole_end) for tier in cascade.tiers])  # type: ignore[misc]  # WholeLines is a Tier: it forwards name and fuzzy to the tier it wraps
    _CACHE[key] = (cascade, wrapped)
    return wrapped
