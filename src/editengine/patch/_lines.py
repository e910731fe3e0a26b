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
    ends with a newline, end at one."""

    def __init__(self, tier: Any) -> None:
        self.tier = tier
        self.name = tier.name
        self.fuzzy = tier.fuzzy

    def __getattr__(self, name: str) -> Any:  # threshold, margin ... of the wrapped tier
        return getattr(self.tier, name)

    def find(self, content: str, old: str) -> list[Match]:
        found: list[Match] = self.tier.find(content, old)
        whole_end = old.endswith("\n")
        return [
            match
            for match in found
            if (match.start == 0 or content[match.start - 1] == "\n")
            and (not whole_end or match.end == len(content) or content[match.end - 1] == "\n")
        ]


_CACHE: dict[int, tuple[Any, Cascade]] = {}


def whole_line_cascade(cascade: Any) -> Any:
    """``cascade`` with every tier wrapped in :class:`WholeLines` (cached per cascade);
    a cascade-like object that is not a :class:`Cascade` is used as it is."""
    if not isinstance(cascade, Cascade):
        return cascade
    cached = _CACHE.get(id(cascade))
    if cached is not None and cached[0] is cascade:
        return cached[1]
    wrapped = Cascade([WholeLines(tier) for tier in cascade.tiers])  # type: ignore[misc]  # WholeLines is a Tier: it forwards name and fuzzy to the tier it wraps
    _CACHE[id(cascade)] = (cascade, wrapped)
    return wrapped
