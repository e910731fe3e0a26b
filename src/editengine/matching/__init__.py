"""Matching tiers: each forgives one kind of mistake a model makes when quoting code."""

from editengine.matching.base import Match, Tier
from editengine.matching.exact import ExactTier

__all__ = ["ExactTier", "Match", "Tier", "default_tiers"]


def default_tiers() -> list[Tier]:
    """The tiers of the default cascade, strictest first."""
    return [ExactTier()]
