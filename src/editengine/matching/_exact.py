"""Exact substring: the model quoted the file verbatim."""

from __future__ import annotations

from typing import ClassVar

from editengine.matching import _search as search
from editengine.matching._base import Match


class ExactTier:
    """Forgives nothing: every verbatim occurrence of old_string, replaced by new_string as
    it is — exactly ``str.replace`` when there is one. Occurrences that overlap (``0, 0``
    twice in ``[0, 0, 0]``) are all found: the cascade refuses them as ambiguous."""

    name: ClassVar[str] = "exact"
    fuzzy: ClassVar[bool] = False

    def find(self, content: str, old: str) -> list[Match]:
        if not old:
            return []
        return [Match(start, start + len(old)) for start in search.occurrences(content, old)]
