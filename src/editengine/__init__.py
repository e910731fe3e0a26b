"""editengine: a self-correcting search/replace edit engine for AI coding agents."""

from __future__ import annotations

__version__ = "0.1.0"

from editengine.cascade import Cascade
from editengine.errors import (
    AmbiguousMatch,
    BadRequest,
    CountMismatch,
    EditError,
    MatchError,
    NoMatch,
    Region,
    UnmatchedElision,
)
from editengine.matching import default_tiers
from editengine.results import TextEdit, TierAttempt

DEFAULT_CASCADE = Cascade(default_tiers())


def edit_text(
    content: str,
    old_string: str,
    new_string: str,
    *,
    replace_all: bool = False,
    expected_replacements: int | None = None,
    match_mode: str = "auto",
    cascade: Cascade | None = None,
) -> TextEdit:
    """Apply one search/replace edit to ``content``; pure, no I/O.

    >>> edit_text("a = 1\\n", "a = 1", "a = 2").new_content
    'a = 2\\n'
    """
    return (cascade or DEFAULT_CASCADE).edit(
        content,
        old_string,
        new_string,
        replace_all=replace_all,
        expected_replacements=expected_replacements,
        match_mode=match_mode,
    )


__all__ = [
    "DEFAULT_CASCADE",
    "AmbiguousMatch",
    "BadRequest",
    "Cascade",
    "CountMismatch",
    "EditError",
    "MatchError",
    "NoMatch",
    "Region",
    "TextEdit",
    "TierAttempt",
    "UnmatchedElision",
    "__version__",
    "edit_text",
]
