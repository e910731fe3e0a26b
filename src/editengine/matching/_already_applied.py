"""Edits that are already in the file: an agent retrying after a timeout sends them again.

Applying such an edit twice would duplicate what it added, so the cascade answers with a
no-op success that says so (strategy ``already_applied``).

One rule decides it for every path (``edit``, multi-edit, each patch format, the fixer's
"no change needed"): an edit is applied only if the text it changes stands at that place,
compared no more leniently than old_string and new_string differ. A comparison that cannot
tell old_string from new_string (a whitespace-only change under a whitespace-blind tier, a
deletion whose kept lines are all that is compared) is no evidence either way:
:func:`tells_apart` and :func:`shows_the_change` say when it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rapidfuzz.distance import Indel

from editengine._results import Region, TextEdit, TierAttempt
from editengine._text import LineIndex, NormalizedText
from editengine.matching import _search as search
from editengine.matching._base import Match, Tier, TooManyPlaces, fuzzy_settings
from editengine.matching._elision import Elided, marker_count
from editengine.matching._exact import ExactTier
from editengine.matching._lines import may_hold_the_words_of
from editengine.matching._trimmed import BoundaryTrimTier, LineTrimmedTier
from editengine.matching._whitespace_only import changes_only_whitespace


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


def may_be_a_retry(old: str, new: str) -> bool:
    """new_string is distinctive and reads as an edit of old_string: finding it in the file
    may mean the edit was made before."""
    return distinctive(new) and a_plausible_retry(old, new)


def tells_apart(tier: Tier, old: str, new: str) -> bool:
    """``tier``'s comparison sees the difference between old_string and new_string: it
    takes neither for the whole of the other. A tier that does finds new_string wherever
    old_string still stands, so its finding new_string in the file says nothing about an
    edit made before. (An elision marker in old_string stands for lines by design: that it
    covers new_string's added lines is no blindness.)"""
    if tier.name == "exact":
        return old != new
    try:
        if _stands_whole(tier, old, new):
            return False
        return bool(marker_count(old)) or not _stands_whole(tier, new, old)
    except TooManyPlaces:
        return False


def shows_the_change(old: str, new: str) -> bool:
    """Finding new_string can show this edit made: it carries text old_string lacks (lines
    it adds or rewrites beyond the ones both keep). A deletion's new_string is only the
    context it keeps, and stands in the file whether the lines went or not."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    head = 0
    while head < min(len(old_lines), len(new_lines)) and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while (
        tail < min(len(old_lines), len(new_lines)) - head
        and old_lines[-1 - tail] == new_lines[-1 - tail]
    ):
        tail += 1
    return any(line.strip() for line in new_lines[head : len(new_lines) - tail])


def stands_verbatim(text: str, old: str, new: str) -> bool:
    """new_string stands in ``text`` as whole lines, byte for byte, and shows the change
    (:func:`shows_the_change`): the one proof of an edit made that the patch path and the
    fixer's "no change needed" accept without a place the quote was found at."""
    if not new.strip() or not shows_the_change(old, new):
        return False
    ends_a_line = not new.endswith("\n") and changes_only_whitespace(old, new)
    at = text.find(new)
    while at != -1:
        end = at + len(new)
        if (at == 0 or text[at - 1] == "\n") and (
            not ends_a_line or end == len(text) or text[end] == "\n"
        ):
            return True
        at = text.find(new, at + 1)
    return False


def reads_as(
    old: str, new: str, written: str, place: str, alike: Callable[[str, str], bool]
) -> bool:
    """``place`` already reads as the edit would leave it (``written``), compared no more
    leniently than old_string and new_string differ: byte for byte when they differ only
    in whitespace, by ``alike`` (a token comparison, say) otherwise."""
    if changes_only_whitespace(old, new):
        return written == place
    return alike(written, place)


def _stands_whole(tier: Tier, text: str, quote: str) -> bool:
    found = tier.find(text, quote)
    if tier.fuzzy:
        threshold = getattr(tier, "threshold", 0.9)
        found = [place for place in found if place.similarity >= threshold]
    return any(not text[: place.start].strip() and not text[place.end :].strip() for place in found)


def holding_every_quote(
    tier: Tier, text: str, old: str, new: str, quotes: list[Match]
) -> list[Match]:
    """Where new_string stands under ``tier``'s forgiveness, when every place the tier found
    old_string lies inside one of them: the edit that wrote new_string there was made
    before (an insert or a rename sent again, its quote indented or spaced differently).

    Never under a forgiveness blind to the change itself (:func:`tells_apart`): a
    whitespace-only change found whitespace-blind is found where it was never made."""
    held = _holding_every_quote(tier, text, old, new, quotes)
    if held and not tells_apart(tier, old, new):
        return []
    return held


def _holding_every_quote(
    tier: Tier, text: str, old: str, new: str, quotes: list[Match]
) -> list[Match]:
    if "".join(old.split()) not in "".join(new.split()):
        # old_string cannot lie inside new_string under any spacing, unless a marker in it
        # stands between the lines new_string adds and the ones it keeps.
        return _holding_every_elided_quote(tier, text, old, new, quotes)
    around = tier.find(text, new)
    settings = fuzzy_settings(tier)
    if settings is not None:
        around = [place for place in around if place.similarity >= settings.threshold]
    inside = [
        any(outer.start <= inner.start and inner.end <= outer.end for outer in around)
        for inner in quotes
    ]
    if not around or not all(inside):
        return []
    return [outer for outer in around if any(_holds(outer, inner) for inner in quotes)]


def _holds(outer: Match, inner: Match) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


def _holding_every_elided_quote(
    tier: Tier, text: str, old: str, new: str, quotes: list[Match]
) -> list[Match]:
    """Where new_string stands, when old_string skips code with ``...`` markers, new_string
    only adds lines to it, and every place old_string was found lies inside one of
    new_string's with nothing around it but lines new_string adds.

    A line inserted beside a marker, once made, stands in the stretch the marker skips: the
    quote still matches and, sent again, would be inserted twice. A deletion under a marker
    is no retry: new_string lacks lines old_string keeps.
    """
    if not marker_count(old) or not _only_adds_to_each_segment(old, new):
        return []
    around = tier.find(text, new)
    added = _stripped_lines(new) - _stripped_lines(old)
    held: list[Match] = []
    for quote in quotes:
        outer = next(
            (
                place
                for place in around
                if _holds(place, quote)
                and _stripped_lines(text[place.start : quote.start]) <= added
                and _stripped_lines(text[quote.end : place.end]) <= added
            ),
            None,
        )
        if outer is None:
            return []
        if outer not in held:
            held.append(outer)
    return held


def _only_adds_to_each_segment(old: str, new: str) -> bool:
    """Each stretch of old_string between its markers stands in new_string, in order."""
    squeezed = "".join(new.split())
    position = 0
    for segment in Elided.of(old.split("\n")).segments:
        wanted = "".join("".join(segment).split())
        found = squeezed.find(wanted, position)
        if found < 0:
            return False
        position = found + len(wanted)
    return True


def _stripped_lines(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n")} - {""}


def verbatim_elsewhere(
    source: NormalizedText, old: str, new: str, quotes: list[Match]
) -> Match | None:
    """The one place new_string stands (verbatim, or line for line with its lines'
    whitespace forgiven), when every place old_string was found lies at another depth than
    it was quoted (its first line's indentation differs)."""
    text = source.text
    standing = where_new_stands(source, new)
    if standing is None:
        return None
    quoted = _first_indent(old)
    if quoted is None:
        return None
    for quote in quotes:
        line_start = text.rfind("\n", 0, quote.start) + 1
        if _first_indent(text[line_start : quote.end]) == quoted:
            return None  # quoted where it stands: the edit is still to make
    return standing


def _first_indent(text: str) -> str | None:
    for line in text.split("\n"):
        if line.strip():
            return line[: len(line) - len(line.lstrip())]
    return None


def left_after_a_miss(
    source: NormalizedText, old: str, new: str, wanted: int | None = 1
) -> list[Match]:
    """The places new_string stands (verbatim, line for line, or without its blank padding)
    after no tier matched: ``wanted`` of them (``None``: any number, for ``replace_all``)."""
    if not may_be_a_retry(old, new):
        return []
    if changes_only_whitespace(old, new):
        # Only a comparison that sees whitespace tells a whitespace-only change made.
        found = ExactTier().find(source.text, new)
        return found if found and (wanted is None or len(found) == wanted) else []
    for found in _places_of(source.text, new):
        return found if wanted is None or len(found) == wanted else []
    return []


def where_new_stands(source: NormalizedText, new: str) -> Match | None:
    """The one place new_string stands verbatim, or with its lines' whitespace or its blank
    padding forgiven; ``None`` when it stands nowhere or more than once."""
    for found in _places_of(source.text, new):
        return found[0] if len(found) == 1 else None
    return None


def _places_of(text: str, new: str) -> Iterator[list[Match]]:
    """new_string's places under the strictest forgiveness that finds any (at most one
    list)."""
    if not may_hold_the_words_of(text, new):
        return  # each forgives only whitespace: a word of new_string missing, none finds it
    if search.contains(text, new):
        yield ExactTier().find(text, new)
        return
    for tier in (LineTrimmedTier(), BoundaryTrimTier()):
        try:
            found = tier.find(text, new)
        except TooManyPlaces:
            return  # new_string stands in too many places to tell one: no place is named
        if found:
            yield found
            return


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
