"""How a model misquotes an edit: each mistake class is a small pure function.

A mistake is ``(rng, Draft, Quote) -> Draft | None``: it changes the draft request (old and new
lines, their line endings, text written around them) the way one everyday mistake does, or
returns ``None`` when it cannot be made on this block (a tab mistake needs indentation, a
fence needs a file without fence lines). The classes, by what they change:

- :mod:`._drafts` — the quote, the draft and how a draft is rendered;
- :mod:`._layout` — indentation, tabs, trailing blanks, line endings, escaping, spacing;
- :mod:`._text` — typos, typographic punctuation, elision, line numbers, fences;
- :mod:`._unlisted` — the classes invented from the peers' trackers, three of them meant to
  be refused;
- :mod:`._registry` — which mistakes meet which edit kinds in the benchmark's cross product
  (``cross_product.cut`` makes one request of a cell), and in what order two compose.
"""

from __future__ import annotations

from editengine.evaluation._mistakes._drafts import Draft, Mistake, Quote
from editengine.evaluation._mistakes._layout import compress_line
from editengine.evaluation._mistakes._registry import (
    BLOCK_MISTAKES,
    MEANING_CHANGING,
    TWO_MISTAKES,
    UNLISTED_MISTAKES,
    UNLISTED_OUTCOMES,
    WHITESPACE_CHANGE_MISTAKES,
    cross_pairings,
    misquote,
    respace_fragment,
    safety_cells,
    unlisted_category,
    unlisted_outcome,
    unlisted_pairings,
)
from editengine.evaluation._mistakes._text import curly, window_scores
from editengine.evaluation._mistakes._unlisted import INVISIBLES, html_escape

__all__ = [
    "BLOCK_MISTAKES",
    "INVISIBLES",
    "MEANING_CHANGING",
    "TWO_MISTAKES",
    "UNLISTED_MISTAKES",
    "UNLISTED_OUTCOMES",
    "WHITESPACE_CHANGE_MISTAKES",
    "Draft",
    "Mistake",
    "Quote",
    "compress_line",
    "cross_pairings",
    "curly",
    "html_escape",
    "misquote",
    "respace_fragment",
    "safety_cells",
    "unlisted_category",
    "unlisted_outcome",
    "unlisted_pairings",
    "window_scores",
]
