"""Edits that are already in the file: an agent retrying after a timeout sends them again.

Applying such an edit twice would duplicate what it added, so the cascade answers with a
no-op success that says so (strategy ``already_applied``).
"""

from __future__ import annotations

from rapidfuzz.distance import Indel

from editengine import search
from editengine.errors import Region
from editengine.matching.base import Match
from editengine.matching.exact import ExactTier
from editengine.matching.trimmed import LineTrimmedTier
from editengine.results import TextEdit, TierAttempt
from editengine.text import LineIndex, NormalizedText


def distinctive(text: str, at_least: int = 12) -> bool:
    """Long enough that finding it verbatim is no coincidence."""
    return len("".join(text.split())) >= at_least


def a_plausible_retry(old: str, new: str) -> bool:
    """new_string reads as an edit of old_string, not as unrelated text that happens to be
    in the file: a retried edit changes part of what it quoted."""
    if len(old) + len(new) > _COMPARED_BY_CHARACTERS:
        # Character alignment costs the product of the lengths (0.6 s for two 150 KB
        # quotes): long texts are compared token by token instead.
        return Indel.normalized_similarity(old.split(), new.split()) >= 0.5
    return Indel.normalized_similarity(" ".join(old.split()), " ".join(new.split())) >= 0.5


_COMPARED_BY_CHARACTERS = 20_000


def wraps_every_quote(source: NormalizedText, old: str, new: str) -> list[Match]:
    """Where new_string stands, when it contains old_string and holds every copy of it."""
    if old not in new:
        return []
    around = ExactTier().find(source.text, new)
    if not around:
        return []
    quotes = ExactTier().find(source.text, old)
    inside = all(
        any(outer.start <= inner.start and inner.end <= outer.end for outer in around)
        for inner in quotes
    )
    return around if inside else []


def stands_alone(source: NormalizedText, old: str, new: str) -> list[Match]:
    """Where new_string stands when old_string is not in the file verbatim but it is, once."""
    text = source.text
    if search.contains(text, old) or not distinctive(new) or not a_plausible_retry(old, new):
        return []
    if search.count(text, new) != 1:
        return []
    found = ExactTier().find(text, new)
    place = found[0]
    for quote in LineTrimmedTier().find(text, old):
        if quote.end <= place.start or quote.start >= place.end:
            # old_string is still in the file, its whitespace aside, away from new_string:
            # this edit has not been made yet (new_string is another, similar block).
            return []
    return found


def left_after_a_miss(source: NormalizedText, old: str, new: str) -> list[Match]:
    """The one place new_string stands (verbatim or line for line) after no tier matched."""
    if not distinctive(new) or not a_plausible_retry(old, new):
        return []
    text = source.text
    count = search.count(text, new)
    if count > 1:
        return []
    found = ExactTier().find(text, new) if count else LineTrimmedTier().find(text, new)
    return found if len(found) == 1 else []


def no_op(
    source: NormalizedText,
    places: list[Match],
    lines: LineIndex,
    trace: tuple[TierAttempt, ...],
    *,
    old_is_inside: bool,
) -> TextEdit:
    regions = tuple(
        Region(*lines.span_lines(place.start, place.end), similarity=place.similarity)
        for place in places
    )
    if old_is_inside:
        note = "new_string is already in the file where old_string is; the edit was applied before."
    else:
        note = (
            f"old_string is not in the file but new_string already is "
            f"({regions[0].describe()}); the edit looks applied already, so nothing was changed."
        )
    return TextEdit(
        new_content=source.original,
        replacements=0,
        strategy="already_applied",
        spans=regions,
        no_change=True,
        note=note,
        trace=trace,
    )
