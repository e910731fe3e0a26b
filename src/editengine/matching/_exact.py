"""Exact substring: the model quoted the file verbatim."""

from __future__ import annotations

from typing import ClassVar

from editengine.matching import _search as search
from editengine.matching._base import Match


class ExactTier:
    """Forgives nothing: every non-overlapping verbatim occurrence of old_string, replaced
    by new_string as it is — exactly ``str.replace`` when there is one."""

    name: ClassVar[str] = "exact"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        matches: list[Match] = []
        if not old:
            return matches
        position = search.find(content, old)
        while position != -1:
            end = position + len(old)
            matches.append(Match(position, end))
            position = search.find(content, old, end)
        return matches
