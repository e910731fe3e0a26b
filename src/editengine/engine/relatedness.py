"""Is the fixer's correction about the edit the agent asked for, or about something else?

A correction can match uniquely and apply cleanly and still be wrong: a confused (or
manipulated) model may answer with a search string for an unrelated block and a replacement
that deletes it. The cascade cannot see that; :class:`RelatednessGuard` can, by comparing the
correction with what the agent asked for.

A correction is accepted only when both hold:

1. **Where**: its match lies in or within ``near_lines`` lines of one of the regions the
   cascade found most like old_string (``NoMatch.closest``, those no more than
   ``closer_margin`` less similar than the best), *or* its search text is at
   least ``min_search_similarity`` similar to old_string (whitespace-normalised) and not
   clearly less like it (by more than ``closer_margin``) than the region the cascade found
   most like it: a correction that passes over a better-matching region for a worse one
   points elsewhere.
2. **What**: its replacement does what new_string does. Deliberately lenient: refused are a
   replacement that deletes the matched block when new_string is not empty, a replacement
   that adds text when new_string is empty (the agent asked for a deletion), and a
   replacement that shares almost nothing with new_string (token-set similarity under
   ``min_replace_similarity``), and a correction that is not the requested edit: one that
   adds or removes many more tokens than new_string does (over ``edit_slack``, or half as
   many again), or does not add most of what it adds (unless the file already has it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from editengine.errors import BadRequest, Region

_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class RelatednessGuard:
    """Refuses fixer corrections that point away from the requested edit.

    >>> guard = RelatednessGuard()
    >>> guard.why_unrelated(
    ...     old_string="retrun a - b", new_string="return a + b",
    ...     search="return a - b", replace="return a + b",
    ...     spans=(), closest=()) is None
    True
    """

    near_lines: int = 3
    min_search_similarity: float = 0.6
    min_replace_similarity: float = 0.4
    closer_margin: float = 0.05
    edit_slack: int | None = 3

    def __post_init__(self) -> None:
        if self.edit_slack is not None and self.edit_slack < 0:
            raise BadRequest(f"RelatednessGuard: edit_slack must be >= 0 (got {self.edit_slack}).")
        if self.near_lines < 0:
            raise BadRequest(f"RelatednessGuard: near_lines must be >= 0 (got {self.near_lines}).")
        for name in ("min_search_similarity", "min_replace_similarity", "closer_margin"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise BadRequest(f"RelatednessGuard: {name} must be in [0, 1] (got {value!r}).")

    def why_unrelated(
        self,
        *,
        old_string: str,
        new_string: str,
        search: str,
        replace: str,
        spans: Sequence[Region],
        closest: Sequence[Region],
    ) -> str | None:
        """``None`` when the correction is about the requested edit, else why it is not
        (a clause that completes "The LLM fixer proposed a correction, but ...")."""
        placed = self._placement_problem(old_string, search, spans, closest)
        if placed is not None:
            return placed
        return self._replacement_problem(old_string, new_string, search, replace)

    # ------------------------------------------------------------------ where

    def _placement_problem(
        self, old: str, search: str, spans: Sequence[Region], closest: Sequence[Region]
    ) -> str | None:
        best = max(closest, key=lambda region: region.similarity, default=None)
        contenders = [
            region
            for region in closest
            if best is not None and region.similarity >= best.similarity - self.closer_margin
        ]
        if spans and contenders and all(self._near_any(span, contenders) for span in spans):
            return None
        similarity = search_similarity(old, search)
        where = ", ".join(_lines(span) for span in spans) or "a place it does not say"
        if similarity >= self.min_search_similarity:
            if best is None or similarity >= best.similarity - self.closer_margin:
                return None
            return (
                f"it pointed elsewhere: its search text at {where} is {similarity:.0%} similar "
                f"to old_string, while {_lines(best)} is {best.similarity:.0%} similar"
            )
        nearest = ", ".join(_lines(region) for region in closest)
        away = f", away from where old_string most nearly is ({nearest})," if nearest else ""
        return (
            f"it pointed elsewhere: its search text is at {where}{away} and only "
            f"{similarity:.0%} similar to old_string"
        )

    def _near_any(self, span: Region, regions: Sequence[Region]) -> bool:
        reach = self.near_lines
        return any(
            span.start_line <= region.end_line + reach
            and span.end_line >= region.start_line - reach
            for region in regions
        )

    # ------------------------------------------------------------------ what

    def _replacement_problem(self, old: str, new: str, search: str, replace: str) -> str | None:
        if not new.strip():
            added = _line_set(replace) - _line_set(search)
            if added:
                return (
                    "it pointed elsewhere: new_string is empty (a deletion), yet its "
                    "replacement adds text"
                )
            return None
        if not replace.strip():
            return (
                "it pointed elsewhere: its replacement deletes the matched text, "
                "while new_string does not"
            )
        similarity = replace_similarity(new, replace)
        if similarity < self.min_replace_similarity:
            return (
                f"it pointed elsewhere: its replacement is only {similarity:.0%} similar to "
                "new_string"
            )
        if self.edit_slack is None:
            return None
        return _another_edit(old, new, search, replace, self.edit_slack)


def _another_edit(old: str, new: str, search: str, replace: str, slack: int) -> str | None:
    """Why search -> replace is not the edit old -> new, or ``None`` when it is.

    A correction fixes where the edit goes, not what it does: it may add and remove about
    the tokens the request adds and removes (renamed where old_string misquoted them), not
    many more, and must add most of what the request adds unless the file already has it.
    Replacing some other block with new_string, or touching it up, fails this.
    """
    added, removed = _bag(new) - _bag(old), _bag(old) - _bag(new)
    adds, removes = _bag(replace) - _bag(search), _bag(search) - _bag(replace)
    wanted_in, wanted_out = sum(added.values()), sum(removed.values())
    if (wanted_in or wanted_out) and not (adds or removes):
        return "it pointed elsewhere: its replacement changes only whitespace"
    if sum(adds.values()) > wanted_in + max(slack, wanted_in // 2):
        return "it pointed elsewhere: its replacement adds much more than new_string does"
    if sum(removes.values()) > wanted_out + max(slack, wanted_out // 2):
        return "it pointed elsewhere: its replacement removes much more than new_string does"
    covered = sum((added & (adds + _bag(search))).values())
    if wanted_in and covered < wanted_in / 2:
        return "it pointed elsewhere: its replacement does not add what new_string adds"
    return None


def search_similarity(old: str, search: str) -> float:
    """Indel similarity of whitespace-normalised texts, in [0, 1]."""
    return float(Indel.normalized_similarity(_spaced(old), _spaced(search)))


def replace_similarity(new: str, replace: str) -> float:
    """Token-set similarity in [0, 1]: 1 when one's tokens are a subset of the other's, so a
    replacement that quotes more (or less) context than new_string still counts as alike."""
    return fuzz.token_set_ratio(_tokens(new), _tokens(replace)) / 100.0


def _spaced(text: str) -> str:
    return " ".join(text.split())


def _tokens(text: str) -> str:
    # Words and single punctuation marks, so "a+b" and "a + b" are the same tokens.
    return " ".join(_TOKEN.findall(text))


def _bag(text: str) -> Counter[str]:
    return Counter(_TOKEN.findall(text))


def _line_set(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def _lines(region: Region) -> str:
    if region.start_line == region.end_line:
        return f"line {region.start_line}"
    return f"lines {region.start_line}-{region.end_line}"
