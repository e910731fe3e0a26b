"""Which mistakes the benchmark makes, and with which edit kinds.

The tables name every mistake class (:data:`BLOCK_MISTAKES`, :data:`UNLISTED_MISTAKES`), the
pairs made one after the other (:data:`TWO_MISTAKES`, in the order a model makes them: the
text of a line first, then its indentation, then what is written around the lines), the
cells of the cross product (:func:`cross_pairings`, :func:`unlisted_pairings`) and the
outcome each unlisted cell must have. :func:`misquote` applies a list of mistakes to a quote.
The order of every table is part of the bundled benchmark: a new entry goes at the end.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from editengine.evaluation._edit_kinds import BLOCK_KINDS
from editengine.evaluation._mistakes._drafts import Draft, Mistake, Quote
from editengine.evaluation._mistakes._layout import (
    m_boundary_blank_lines,
    m_compressed_spacing,
    m_crlf,
    m_exact,
    m_indentation_shift,
    m_over_escaped,
    m_reformatted_spacing,
    m_tabs_vs_spaces,
    m_trailing_whitespace,
)
from editengine.evaluation._mistakes._text import (
    m_elision,
    m_line_number_prefix,
    m_markdown_fence,
    m_multi_typo,
    m_one_char_typo,
    m_unicode_punctuation,
)
from editengine.evaluation._mistakes._unlisted import (
    m_crlf_in_new,
    m_double_escaped,
    m_duplicated_line,
    m_html_entities,
    m_invisible_chars,
    m_keyword_differs,
    m_literal_differs,
    m_nbsp_indentation,
    m_neighbour_indent,
    m_operator_differs,
    m_read_tool_gutter,
    m_typographic_operators,
    m_wrapped_line,
)

BLOCK_MISTAKES: dict[str, Mistake] = {
    "exact": m_exact,
    "indentation_shift": m_indentation_shift,
    "tabs_vs_spaces": m_tabs_vs_spaces,
    "trailing_whitespace": m_trailing_whitespace,
    "crlf": m_crlf,
    "over_escaped": m_over_escaped,
    "reformatted_spacing": m_reformatted_spacing,
    "compressed_spacing": m_compressed_spacing,
    "boundary_blank_lines": m_boundary_blank_lines,
    "one_char_typo": m_one_char_typo,
    "multi_typo": m_multi_typo,
    "unicode_punctuation": m_unicode_punctuation,
    "elision": m_elision,
    "line_number_prefix": m_line_number_prefix,
    "markdown_fence": m_markdown_fence,
}


# The order two mistakes are made in: a line's text, then its indentation, then its ending
# blanks, then what is written around the lines.
_ORDER = (
    "elision",
    "one_char_typo",
    "multi_typo",
    "reformatted_spacing",
    "compressed_spacing",
    "unicode_punctuation",
    "indentation_shift",
    "tabs_vs_spaces",
    "trailing_whitespace",
    "line_number_prefix",
    "boundary_blank_lines",
    "markdown_fence",
    "crlf",
    "over_escaped",
)


# Pairs a model really makes at once.
TWO_MISTAKES: tuple[tuple[str, str], ...] = (
    ("indentation_shift", "trailing_whitespace"),
    ("line_number_prefix", "markdown_fence"),
    ("indentation_shift", "markdown_fence"),
    ("one_char_typo", "indentation_shift"),
    ("reformatted_spacing", "indentation_shift"),
    ("unicode_punctuation", "trailing_whitespace"),
    ("tabs_vs_spaces", "trailing_whitespace"),
    ("line_number_prefix", "crlf"),
    ("boundary_blank_lines", "indentation_shift"),
    ("compressed_spacing", "trailing_whitespace"),
    ("elision", "indentation_shift"),
    ("over_escaped", "indentation_shift"),
)


CROSS_MISTAKES: tuple[str, ...] = (*BLOCK_MISTAKES, "two_mistakes", "long_line")


# A rename everywhere quotes one fragment: only mistakes a fragment can carry.
REPLACE_ALL_MISTAKES: tuple[str, ...] = (
    "exact",
    "markdown_fence",
    "over_escaped",
    "unicode_punctuation",
    "reformatted_spacing",
    "compressed_spacing",
)


# A fragment of a minified line is renamed, or has a value or an operator changed.
LONG_LINE_KINDS: tuple[str, ...] = ("rename", "literal", "flip")


# Quotes that must be refused whatever their mistake: old stands nowhere near the file
# (``absent``), or fits two identical blocks alike (``ambiguous``). The mistakes a new
# normalisation forgives must not make such a quote placeable.
SAFETY_MISTAKES: dict[str, tuple[str, ...]] = {
    "absent": (
        "markdown_fence",
        "line_number_prefix",
        "compressed_spacing",
        "multi_typo",
        "trailing_whitespace",
        "indentation_shift",
    ),
    "ambiguous": (
        "markdown_fence",
        "compressed_spacing",
        "trailing_whitespace",
        "indentation_shift",
    ),
}


def safety_cells() -> list[tuple[str, str]]:
    """Every (``absent`` or ``ambiguous``, mistake class) pairing the benchmark cuts."""
    return [(safety, m) for safety, mistakes in SAFETY_MISTAKES.items() for m in mistakes]


def cross_pairings() -> list[tuple[str, str]]:
    """Every (mistake class, edit kind) pairing that can be made: every block mistake and
    every pair of mistakes with every block edit, the fragment mistakes with a rename
    everywhere, and re-spaced fragments of long lines with the in-line edits."""
    pairs = [(m, k) for m in (*BLOCK_MISTAKES, "two_mistakes") for k in BLOCK_KINDS]
    pairs += [(m, "replace_all") for m in REPLACE_ALL_MISTAKES]
    pairs += [("long_line", k) for k in LONG_LINE_KINDS]
    return pairs


def misquote(rng: random.Random, quote: Quote, mistakes: Sequence[str]) -> Draft | None:
    """The request a model sends for ``quote`` with ``mistakes`` made (in their natural
    order); ``None`` when one of them cannot be made on this block."""
    draft = Draft.of(quote)
    for name in sorted(mistakes, key=lambda n: _ORDER.index(n) if n in _ORDER else -1):
        made = (BLOCK_MISTAKES.get(name) or UNLISTED_MISTAKES[name])(rng, draft, quote)
        if made is None:
            return None
        draft = made
    return draft


def respace_fragment(rng: random.Random, fragment: str) -> tuple[str, str] | None:
    """A fragment of a long line with its spacing changed the way a model retypes it:
    spaces after commas or colons dropped or added, spaces around ``=`` dropped."""
    rules = [
        (r", (?=\S)", ",", "no space after commas"),
        (r",(?=\S)", ", ", "a space after commas"),
        (r": (?=\S)", ":", "no space after colons"),
        (r":(?=[\"'\w])", ": ", "a space after colons"),
        (r" = ", "=", "no spaces around ="),
    ]
    rng.shuffle(rules)
    for pattern, repl, label in rules:
        spots = [m for m in re.finditer(pattern, fragment)]
        if not spots:
            continue
        chosen = spots if rng.random() < 0.5 else rng.sample(spots, rng.randint(1, len(spots)))
        out, last = [], 0
        for m in sorted(chosen, key=lambda m: m.start()):
            out.append(fragment[last : m.start()])
            out.append(repl)
            last = m.end()
        out.append(fragment[last:])
        changed = "".join(out)
        if changed != fragment:
            return changed, label
    return None


# Mistakes no tier was tuned on (``_unlisted``), taken from how models and the layers that
# carry their tool calls mangle text (public reports against other agents' edit tools, named
# in docs/evaluation.md). They are cut in cells of their own (``u-`` cases of the benchmark)
# so that the earlier cells stay byte for byte as they were. Each says what a careful human
# makes of it (:data:`UNLISTED_OUTCOMES`):
#
# * ``intended``: the quote stands for one place once its transport damage is undone; the
#   intended file is right, a refusal is only a miss;
# * ``either``: the intended file or a refusal are both right (a careful human could not be
#   sure); anything else is wrong;
# * ``refuse``: old says something else than the file (a literal, an operator, a keyword):
#   writing anything is wrong, however close the rest of the block is.
UNLISTED_MISTAKES: dict[str, Mistake] = {
    "html_entities": m_html_entities,
    "double_escaped": m_double_escaped,
    "read_tool_gutter": m_read_tool_gutter,
    "invisible_chars": m_invisible_chars,
    "typographic_operators": m_typographic_operators,
    "crlf_in_new": m_crlf_in_new,
    "nbsp_indentation": m_nbsp_indentation,
    "neighbour_indent": m_neighbour_indent,
    "wrapped_line": m_wrapped_line,
    "duplicated_line": m_duplicated_line,
    "literal_differs": m_literal_differs,
    "operator_differs": m_operator_differs,
    "keyword_differs": m_keyword_differs,
}


UNLISTED_OUTCOMES: dict[str, str] = {
    "html_entities": "intended",
    "double_escaped": "intended",
    "read_tool_gutter": "intended",
    "invisible_chars": "intended",
    "typographic_operators": "intended",
    "crlf_in_new": "intended",
    "nbsp_indentation": "intended",
    "neighbour_indent": "either",
    "wrapped_line": "either",
    "duplicated_line": "either",
    "literal_differs": "refuse",
    "operator_differs": "refuse",
    "keyword_differs": "refuse",
}


# Meaning-changing classes: whatever else the block gets right, the quote is refused.
MEANING_CHANGING: frozenset[str] = frozenset(
    name for name, outcome in UNLISTED_OUTCOMES.items() if outcome == "refuse"
)


# A rename everywhere quotes one fragment: the unlisted mistakes a fragment can carry.
UNLISTED_REPLACE_ALL: tuple[str, ...] = ("html_entities", "invisible_chars")


# A whitespace-only change quoted with the whitespace mistakes that a whitespace-blind
# comparison forgives: never "already applied" while the file does not have it.
WHITESPACE_CHANGE_MISTAKES: tuple[str, ...] = (
    "exact",
    "trailing_whitespace",
    "compressed_spacing",
    "indentation_shift",
    "tabs_vs_spaces",
    "boundary_blank_lines",
    "nbsp_indentation",
)


WHITESPACE_CHANGE = "whitespace_change"  # the category of those cells


def unlisted_pairings() -> list[tuple[str, str]]:
    """Every (mistake, edit kind) pairing the benchmark's ``u-`` cells cut: each unlisted
    mistake with every block edit, the fragment ones with a rename everywhere too, and the
    whitespace mistakes with a whitespace-only change."""
    pairs = [(m, k) for m in UNLISTED_MISTAKES for k in BLOCK_KINDS]
    pairs += [(m, "replace_all") for m in UNLISTED_REPLACE_ALL]
    pairs += [(m, "whitespace_only") for m in WHITESPACE_CHANGE_MISTAKES]
    return pairs


def unlisted_outcome(mistake: str, kind: str) -> str:
    """What a careful human makes of a ``u-`` cell's case (see :data:`UNLISTED_OUTCOMES`)."""
    if kind == "whitespace_only":
        return "intended"  # the change is whitespace; the quote stands once
    return UNLISTED_OUTCOMES[mistake]


def unlisted_category(mistake: str, kind: str) -> str:
    return WHITESPACE_CHANGE if kind == "whitespace_only" else mistake
