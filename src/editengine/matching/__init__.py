"""Matching tiers: each forgives one kind of mistake a model makes when quoting code."""

from editengine.matching.anchor import BlockAnchorTier
from editengine.matching.base import Match, Tier
from editengine.matching.elision import ElisionTier
from editengine.matching.exact import ExactTier
from editengine.matching.trimmed import BoundaryTrimTier, LineTrimmedTier
from editengine.matching.unescape import UnescapeTier
from editengine.matching.unicode import UnicodePunctuationTier
from editengine.matching.whitespace import WhitespaceTier

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
