"""The refusals the cascade raises, worded for an agent: what went wrong, where, what next."""

from __future__ import annotations

from collections.abc import Sequence

from editengine._errors import AmbiguousMatch, CountMismatch, NoMatch, OverwriteRequired
from editengine._results import Region, TierAttempt
from editengine.matching._base import TooManyPlaces
from editengine.matching._closest import closest_regions
from editengine.matching._meaning import meaning_difference

# A region this like the quote was near enough to be a typo's, were it not for a difference
# of meaning: the refusal names that difference.
_NEAR_ENOUGH_TO_NAME = 0.8

_LISTED = 20


def _places(regions: Sequence[Region]) -> str:
    where = ", ".join(region.describe() for region in regions[:_LISTED])
    if len(regions) > _LISTED:
        where += f" and {len(regions) - _LISTED} more"
    return where


def ambiguous(
    tier: str, regions: tuple[Region, ...], trace: tuple[TierAttempt, ...]
) -> AmbiguousMatch:
    return AmbiguousMatch(
        f"old_string matches {len(regions)} places ({tier} match): {_places(regions)}.",
        hint="Include more surrounding lines in old_string so it matches exactly one place, "
        "or set replace_all=true to change every occurrence.",
        candidates=regions,
        tier=tier,
        trace=trace,
    )


def overlapping(
    tier: str, regions: tuple[Region, ...], trace: tuple[TierAttempt, ...]
) -> AmbiguousMatch:
    """Places of old_string that share text (``0, 0`` in ``[0, 0, 0]``): which one is meant
    is a guess, and replacing every one is not defined (each replacement would cut into the
    next), so neither replace_all nor expected_replacements can settle it."""
    return AmbiguousMatch(
        f"old_string matches {len(regions)} places ({tier} match): {_places(regions)}. The "
        "places overlap (they share text), so editing one is a guess and replacing all of "
        "them is not defined.",
        hint="Include the characters before or after the part you mean so old_string matches "
        "exactly one place; replace_all cannot be used on overlapping occurrences.",
        candidates=regions,
        tier=tier,
        trace=trace,
    )


def too_many_places(
    tier: str, limit: int, first: tuple[Region, ...], trace: tuple[TierAttempt, ...]
) -> AmbiguousMatch:
    """The cascade's wording of a tier's :class:`TooManyPlaces`: about old_string, with the
    trace of the tiers tried."""
    return TooManyPlaces(tier, limit, first, subject="old_string", trace=trace)


def near_tie(
    tier: str, regions: tuple[Region, ...], trace: tuple[TierAttempt, ...]
) -> AmbiguousMatch:
    return AmbiguousMatch(
        f"old_string is not in the file verbatim and nearly fits several places "
        f"({_places(regions)}); editing one of them would be a guess.",
        hint="Copy old_string exactly from the place you mean, with enough lines to tell it "
        "apart from the others.",
        candidates=regions,
        tier=tier,
        trace=trace,
    )


def _new_string_line(content: str, old: str, new: str) -> int | None:
    """The line where new_string stands in ``content``; ``None`` when it does not, or when
    it is too slight (blank, or inside old_string) to say anything."""
    if len(new.strip()) < 3 or new in old:
        return None
    at = content.find(new)
    return None if at < 0 else content.count("\n", 0, at) + 1


def made_before_or_meant_here(
    tier: str, quoted: tuple[Region, ...], standing: Region, trace: tuple[TierAttempt, ...]
) -> AmbiguousMatch:
    return AmbiguousMatch(
        f"old_string is not in the file as quoted: it stands only loosely at {_places(quoted)} "
        f"({tier} match), while new_string already stands at {standing.describe()}. Either the "
        "edit was made before, or those lines are meant; telling which would be a guess.",
        hint=f"Re-read {standing.describe()}: if the edit is already there, nothing is left to "
        "do; otherwise copy old_string exactly from the lines you mean.",
        candidates=(*quoted, standing),
        tier=tier,
        trace=trace,
    )


def partial_count(
    tier: str,
    places: tuple[Region, ...],
    cut: tuple[Region, ...],
    trace: tuple[TierAttempt, ...],
) -> AmbiguousMatch:
    return AmbiguousMatch(
        f"old_string is not in the file verbatim; respaced, it stands at {_places(places)} "
        f"({tier} match) but also inside longer expressions at {_places(cut)}. Replacing only "
        "the first would leave the others behind.",
        hint="Quote old_string exactly as the file spells it, or edit the places one by one.",
        candidates=(*places, *cut),
        tier=tier,
        trace=trace,
    )


def count_mismatch(
    tier: str, expected: int, regions: tuple[Region, ...], trace: tuple[TierAttempt, ...]
) -> CountMismatch:
    return CountMismatch(
        f"Expected {expected} replacement(s) but old_string matches {len(regions)} place(s) "
        f"({tier} match): {_places(regions)}.",
        hint="Adjust expected_replacements, or make old_string match exactly the places to change.",
        expected=expected,
        found=len(regions),
        candidates=regions,
        tier=tier,
        trace=trace,
    )


def no_match(content: str, old: str, trace: tuple[TierAttempt, ...], new: str = "") -> NoMatch:
    """Nothing found: name the tiers tried and show the most similar region, numbered.

    When new_string stands in the file as given (an edit sent twice, too short for the
    already-applied rule to vouch for), say so: the likeliest reason for the miss."""
    closest = closest_regions(content, old)
    tried = ", ".join(attempt.tier for attempt in trace)
    message = f"old_string was not found in the file (tried: {tried})."
    standing = _new_string_line(content, old, new)
    if standing is not None:
        message += (
            f" new_string already stands in the file at line {standing}: if this edit was "
            "made before, nothing is left to do."
        )
    if closest:
        best = closest[0]
        numbered = "\n".join(
            f"{best.start_line + offset:>6}\t{line}"
            for offset, line in enumerate(best.text.split("\n"))
        )
        # Agents copy what they are shown: say plainly that the numbers are not text (the
        # cascade strips them when they come back, but a clean quote is the better retry).
        message += (
            f" The most similar region is {best.describe()}, shown with line numbers that are "
            f"not part of the file (leave out each number and the tab after it):\n{numbered}"
        )
        differs = (
            meaning_difference(old, best.text, content)
            if best.similarity >= _NEAR_ENOUGH_TO_NAME
            else None
        )
        if differs is not None:
            message += (
                f"\nIt differs from {best.describe()} in {differs}; a difference of meaning "
                "is never forgiven as a typo."
            )
        others = ", ".join(region.describe() for region in closest[1:])
        if others:
            message += f"\nOther similar regions: {others}."
    return NoMatch(
        message,
        closest=closest,
        hint="Re-read the file around those lines and copy old_string exactly as it stands "
        "there, including indentation; keep it short but unique.",
        trace=trace,
    )


def whitespace_change_untold(
    tier: str, regions: tuple[Region, ...], trace: tuple[TierAttempt, ...]
) -> NoMatch:
    """A whitespace-only change whose quote matches only with whitespace forgiven, where its
    lines do not pair with the file's or the quote's indentation frame is not the file's."""
    return NoMatch(
        f"old_string and new_string differ only in whitespace, and old_string matches "
        f"{_places(regions)} only with whitespace forgiven ({tier} match): which whitespace "
        "the change means there cannot be told (its lines do not pair with the file's one "
        "for one, or every line is quoted at another depth), so nothing was changed.",
        hint="Read the lines again and copy old_string exactly, whitespace and all; then "
        "send new_string with the whitespace you want.",
        closest=regions,
        trace=trace,
    )


def overwrite_required(path: str | None = None, sha256: str | None = None) -> OverwriteRequired:
    """An empty old_string on a file with content, neither ``overwrite`` nor a matching
    ``expected_hash`` given: most often the quote was lost on the way, and replacing the
    whole file would erase everything new_string does not repeat."""
    what = path or "the file"
    by_hash = (
        f"expected_hash={sha256!r} (the file's current sha256)"
        if sha256
        else ("expected_hash set to the sha256 of the file's current content")
    )
    return OverwriteRequired(
        f"old_string is empty, which would replace all of {what} with new_string, but "
        f"{what} has content and no overwrite was asked for; nothing was changed.",
        hint="To change part of the file, quote that part in old_string. To replace the "
        f"whole file on purpose, pass overwrite=true, or {by_hash}.",
    )
