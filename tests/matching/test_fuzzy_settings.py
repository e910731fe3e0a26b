"""A fuzzy tier's threshold and margin: its own, or one default, read in one place."""

from __future__ import annotations

from typing import ClassVar

import pytest

from editengine import AmbiguousMatch, Cascade, NoMatch, edit_text
from editengine.matching import BlockAnchorTier, ExactTier
from editengine.matching._base import (
    FUZZY_MARGIN,
    FUZZY_THRESHOLD,
    FuzzySettings,
    Match,
    fuzzy_settings,
)

CONTENT = "alpha\nbeta\ngamma\n"


class _Scored:
    """A fuzzy tier that finds what it is told to, with the similarities it is told."""

    name: ClassVar[str] = "scored"
    fuzzy: ClassVar[bool] = True

    def __init__(self, *similarities: float) -> None:
        self.similarities = similarities

    def find(self, content: str, old: str) -> list[Match]:
        lines = [0, 6, 11]  # where alpha, beta and gamma start
        return [
            Match(start, start + len(content[start:].split("\n")[0]), similarity)
            for start, similarity in zip(lines, self.similarities)
        ]


def test_a_tier_that_sets_nothing_gets_the_one_default() -> None:
    assert fuzzy_settings(_Scored()) == FuzzySettings(FUZZY_THRESHOLD, FUZZY_MARGIN)
    assert fuzzy_settings(ExactTier()) is None
    assert fuzzy_settings(BlockAnchorTier()) == FuzzySettings(0.9, 0.04)
    assert fuzzy_settings(BlockAnchorTier(threshold=0.8, margin=0.1)) == FuzzySettings(0.8, 0.1)


def test_the_cascade_holds_a_tier_without_settings_to_the_default_threshold() -> None:
    below = Cascade([_Scored(FUZZY_THRESHOLD - 0.01)])
    with pytest.raises(NoMatch):
        edit_text(CONTENT, "alpah", "ALPHA", cascade=below)
    at = Cascade([_Scored(FUZZY_THRESHOLD)])
    result = edit_text(CONTENT, "alpah", "ALPHA", cascade=at)
    assert result.new_content == "ALPHA\nbeta\ngamma\n"
    assert result.trace[-1].threshold == FUZZY_THRESHOLD
    assert result.trace[-1].margin == FUZZY_MARGIN


def test_the_cascade_holds_a_tier_without_settings_to_the_default_margin() -> None:
    close = Cascade([_Scored(0.99, 0.99 - FUZZY_MARGIN + 0.01)])
    with pytest.raises(AmbiguousMatch):
        edit_text(CONTENT, "alpah", "ALPHA", cascade=close)
    clear = Cascade([_Scored(0.99, 0.99 - FUZZY_MARGIN - 0.01)])
    assert edit_text(CONTENT, "alpah", "ALPHA", cascade=clear).new_content.startswith("ALPHA")
