"""What every tier shares: the ``Match`` a tier returns and the ``Tier`` protocol."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from editengine._errors import AmbiguousMatch
from editengine._results import Region, TierAttempt


@dataclass(frozen=True)
class Match:
    """A candidate span ``content[start:end]`` of the LF-normalised content.

    ``rewrite`` turns the caller's new_string into the text to write at this span
    (re-indented, unescaped, elisions expanded...); ``None`` writes new_string verbatim.
    ``verbatim``: every line old_string quoted is here as quoted, indentation included —
    what the exact tier would have found but for something the tier forgives (an elision
    marker). When a tier finds too many places and exactly the wanted number of them are
    verbatim, the cascade takes those.
    """

    start: int
    end: int
    similarity: float = 1.0
    rewrite: Callable[[str], str] | None = None
    verbatim: bool = False


# What a fuzzy tier demands of its best candidate, unless it sets its own ``threshold`` and
# ``margin``: this similarity, and this lead over the runner-up.
FUZZY_THRESHOLD = 0.9
FUZZY_MARGIN = 0.05


@runtime_checkable
class Tier(Protocol):
    """A matching strategy: finds *every* place old_string may stand for in content.

    A ``fuzzy`` tier (its candidates carry a ``similarity`` below 1) may also set
    ``threshold`` and ``margin`` (numbers); :func:`fuzzy_settings` reads them, with
    :data:`FUZZY_THRESHOLD` and :data:`FUZZY_MARGIN` for a setting the tier leaves out.
    """

    name: ClassVar[str]
    fuzzy: ClassVar[bool]

    def find(self, content: str, old: str) -> list[Match]: ...


@dataclass(frozen=True)
class FuzzySettings:
    """The similarity a fuzzy tier's candidate must reach, and its lead over the runner-up."""

    threshold: float = FUZZY_THRESHOLD
    margin: float = FUZZY_MARGIN


def fuzzy_settings(tier: Tier) -> FuzzySettings | None:
    """``tier``'s threshold and margin; ``None`` for a tier that is not fuzzy (every
    candidate it finds is certain, so it holds them to nothing)."""
    if not tier.fuzzy:
        return None
    return FuzzySettings(
        _number(getattr(tier, "threshold", None), FUZZY_THRESHOLD),
        _number(getattr(tier, "margin", None), FUZZY_MARGIN),
    )


def _number(value: object, default: float) -> float:
    """A setting that is a number; a flag or text is none (though Python counts True as 1)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return default


class DoubtfulMatch(Exception):
    """Raised by a ``rewrite`` that cannot write new_string here without guessing.

    The cascade records the tier as refused and goes on to the next one; it never reaches
    the caller.
    """


# Places a tier weighs one by one; past them it raises TooManyPlaces naming the first few.
MAX_PLACES = 1_000
NAMED_PLACES = 20


class TooManyPlaces(AmbiguousMatch):
    """A tier found a quote in more places than it weighs one by one (``limit``).

    Weighing each of a hundred thousand overlapping places costs seconds under the file's
    lock; past the limit the tier stops and the edit is refused, naming the first places.
    """

    def __init__(
        self,
        tier: str,
        limit: int,
        regions: tuple[Region, ...],
        *,
        subject: str = "the quote",
        trace: tuple[TierAttempt, ...] = (),
    ) -> None:
        where = ", ".join(region.describe() for region in regions)
        super().__init__(
            f"{subject} matches more than {limit:,} places ({tier} match), the first at "
            f"{where}; so many places are not weighed one by one.",
            hint="Quote old_string exactly as the file has it, spacing included (an exact "
            "quote has no such limit), with enough surrounding lines to match one place.",
            candidates=regions,
            tier=tier,
            trace=trace,
        )
        self.limit = limit


def refuse_past_max_places(tier: str, first_lines: Sequence[int], size: int) -> None:
    """Raise :class:`TooManyPlaces` when a tier found more than :data:`MAX_PLACES` blocks of
    ``size`` lines (``first_lines`` 0-based, in file order)."""
    if len(first_lines) > MAX_PLACES:
        named = first_lines[:NAMED_PLACES]
        raise TooManyPlaces(
            tier, MAX_PLACES, tuple(Region(first + 1, first + size) for first in named)
        )
