"""Matching tiers: each forgives one kind of mistake a model makes when quoting code."""

from editengine._public import publish
from editengine.matching._anchor import BlockAnchorTier
from editengine.matching._base import Match, Tier
from editengine.matching._elision import ElisionTier
from editengine.matching._exact import ExactTier
from editengine.matching._trimmed import BoundaryTrimTier, LineTrimmedTier
from editengine.matching._unescape import UnescapeTier
from editengine.matching._unicode import UnicodePunctuationTier
from editengine.matching._whitespace import WhitespaceTier

__all__ = [
    "BlockAnchorTier",
    "BoundaryTrimTier",
    "ElisionTier",
    "ExactTier",
    "LineTrimmedTier",
    "Match",
    "Tier",
    "UnescapeTier",
    "UnicodePunctuationTier",
    "WhitespaceTier",
    "default_tiers",
]


def default_tiers() -> list[Tier]:
    """The tiers of the default cascade, strictest first."""
    return [
        ExactTier(),
        LineTrimmedTier(),
        BoundaryTrimTier(),
        UnescapeTier(),
        UnicodePunctuationTier(),
        WhitespaceTier(),
        ElisionTier(),
        BlockAnchorTier(),
    ]


publish(globals())  # public names show this package, not their private module
