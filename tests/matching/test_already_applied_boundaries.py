"""matching/_already_applied.py on its own: when an edit counts as made already, at each boundary.

The cascade tests reach these helpers through whole edits; here each decision is pinned at
the edge where it flips — how long is distinctive, how alike is a plausible retry, when is
old_string "away from" new_string.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from editengine._results import TierAttempt
from editengine._text import LineIndex, NormalizedText
from editengine.matching._already_applied import (
    a_plausible_retry,
    distinctive,
    holding_every_quote,
    left_after_a_miss,
    no_op,
    verbatim_elsewhere,
    where_new_stands,
    wraps_every_quote,
)
from editengine.matching._base import Match


def spans(matches: list[Match]) -> list[tuple[int, int]]:
    return [(m.start, m.end) for m in matches]


def test_distinctive_means_twelve_characters_besides_whitespace():
    assert distinctive("abcdef  ghijkl")
    assert not distinctive("abcdef \n ghijk")


def test_alike_at_exactly_one_half_is_a_plausible_retry():
    assert a_plausible_retry("ab", "ac")  # one kept of two on each side: 0.5
    assert not a_plausible_retry("ab", "cd")


def test_spacing_alone_never_makes_a_retry_implausible():
    few, more = "a b c d e f g h", "a  b c d e f g h i j"
    assert a_plausible_retry(few, more)
    assert a_plausible_retry(more, few)


def test_long_texts_are_compared_token_by_token():
    # Alike letter by letter, but not one token in common.
    old, new = "ab " * 3400, "ba " * 3400
    assert len(old) + len(new) > 20_000
    assert not a_plausible_retry(old, new)
    assert a_plausible_retry("ab " * 30, "ba " * 30)  # short: letter by letter
    assert a_plausible_retry(old, new.replace("ba", "ab", 3399))


def test_texts_of_exactly_the_bound_are_still_compared_letter_by_letter():
    old, new = "ab " * 3333 + "x", "ba " * 3333 + "y"
    assert len(old) + len(new) == 20_000
    assert a_plausible_retry(old, new)


def test_long_texts_alike_at_exactly_one_half_are_a_plausible_retry():
    old, new = "a " + "b" * 10_000, "a " + "c" * 10_000  # tokens: one of two kept
    assert a_plausible_retry(old, new)


def test_a_quote_ending_where_new_string_ends_is_wrapped():
    text = "def f():\n    setup()\n    call(value)\n"
    source = NormalizedText.of(text)
    found = wraps_every_quote(source, "call(value)\n", "    setup()\n    call(value)\n")
    assert spans(found) == [(9, len(text))]


def test_a_quote_starting_where_new_string_starts_is_wrapped():
    text = "call(value)\ncleanup()\n"
    found = wraps_every_quote(NormalizedText.of(text), "call(value)\n", text)
    assert spans(found) == [(0, len(text))]


# -- new_string around the quote, under a tier's forgiveness ---------------------------------


# The request texts of these tests: a tier is asked whether it takes one for the other.
_QUOTED = {
    "b",
    "a b c",
    "a = start()\n...\nb = end()",
    "a = start()\nc = added()\n...\nb = end()",
}


class _Places:
    """A tier that finds new_string at given places of any file, and nowhere in the
    old_strings quoted: it tells the two apart."""

    name: ClassVar[str] = "places"
    fuzzy: ClassVar[bool] = False

    def __init__(self, *places: Match) -> None:
        self.places = list(places)

    def find(self, content: str, old: str) -> list[Match]:
        return [] if content in _QUOTED else self.places


class _Blind(_Places):
    """A tier that also takes old_string whole for new_string: blind to the change."""

    def find(self, content: str, old: str) -> list[Match]:
        return [Match(0, len(content))] if content in _QUOTED else self.places


class _FuzzyPlaces(_Places):
    fuzzy: ClassVar[bool] = True


class _FuzzyPlacesAt(_FuzzyPlaces):
    threshold = 0.8


def held(tier: _Places, *quotes: Match) -> list[tuple[int, int]]:
    return spans(holding_every_quote(tier, "text", "b", "a b c", list(quotes)))


def test_a_quote_sharing_an_edge_with_new_string_lies_inside_it():
    tier = _Places(Match(0, 10))
    assert held(tier, Match(0, 4)) == [(0, 10)]
    assert held(tier, Match(6, 10)) == [(0, 10)]
    assert held(tier, Match(6, 11)) == []


def test_only_the_places_holding_a_quote_are_answered():
    # The second place ends after the quote but starts after it too: it holds nothing.
    tier = _Places(Match(0, 10), Match(20, 30))
    assert held(tier, Match(2, 5)) == [(0, 10)]


def test_a_tier_blind_to_the_change_proves_nothing():
    # It would find new_string where old_string still stands: finding it is no retry.
    assert held(_Blind(Match(0, 10)), Match(2, 5)) == []


def test_a_fuzzy_tier_counts_places_from_its_own_threshold():
    assert held(_FuzzyPlacesAt(Match(0, 10, similarity=0.8)), Match(2, 5)) == [(0, 10)]
    assert held(_FuzzyPlacesAt(Match(0, 10, similarity=0.79)), Match(2, 5)) == []


def test_a_fuzzy_tier_without_a_threshold_is_held_to_nine_tenths():
    assert held(_FuzzyPlaces(Match(0, 10, similarity=0.9)), Match(2, 5)) == [(0, 10)]
    assert held(_FuzzyPlaces(Match(0, 10, similarity=0.89)), Match(2, 5)) == []


# -- a quote found at another depth -----------------------------------------------------------

_DEPTHS = "def f():\n    if ready:\n        call(a)\ndef g():\n    call(b)\n"


@pytest.mark.parametrize(
    "old",
    ["        call(a)", "\n        call(a)", "        call(a)  "],
    ids=["as quoted", "after a blank line", "with trailing spaces"],
)
def test_a_quote_found_at_the_depth_it_was_quoted_is_an_edit_to_make(old):
    start = _DEPTHS.index("        call(a)")
    quote = Match(start, start + len("        call(a)"))
    source = NormalizedText.of(_DEPTHS)
    assert verbatim_elsewhere(source, old, "call(b)", [quote]) is None


def test_a_quote_found_only_at_another_depth_points_at_new_string():
    start = _DEPTHS.index("        call(a)")
    quote = Match(start, start + len("        call(a)"))
    found = verbatim_elsewhere(NormalizedText.of(_DEPTHS), "    call(a)", "call(b)", [quote])
    assert found is not None and _DEPTHS[found.start : found.end] == "call(b)"


# -- new_string standing alone ----------------------------------------------------------------


def test_new_string_found_verbatim_once_is_left_after_a_miss():
    text = "x = 1\nresult = compute(value)\n"
    found = left_after_a_miss(NormalizedText.of(text), "result = compute()", "compute(value)")
    assert spans(found) == [(15, 29)]


def test_new_string_found_twice_is_not_left_after_a_miss():
    text = "result = compute(value)\nresult = compute(value)\n"
    source = NormalizedText.of(text)
    assert left_after_a_miss(source, "result = compute()", "result = compute(value)") == []


def test_new_string_found_line_for_line_once_is_left_after_a_miss():
    text = "def f():\n        first_call(a)\n        second_call(b)\n"
    old, new = "first_call()\nsecond_call()", "first_call(a)\nsecond_call(b)"
    found = left_after_a_miss(NormalizedText.of(text), old, new)
    assert len(found) == 1
    assert text[found[0].start : found[0].end].split() == new.split()


def test_new_string_found_line_for_line_twice_is_not_left_after_a_miss():
    block = "        first_call(a)\n        second_call(b)\n"
    text = "def f():\n" + block + "def g():\n" + block
    old, new = "first_call()\nsecond_call()", "first_call(a)\nsecond_call(b)"
    assert left_after_a_miss(NormalizedText.of(text), old, new) == []


def test_where_new_stands_answers_only_a_single_place():
    once = "x = 1\nresult = compute(value)\n"
    place = where_new_stands(NormalizedText.of(once), "compute(value)")
    assert place is not None and (place.start, place.end) == (15, 29)
    twice = "result = compute(value)\nresult = compute(value)\n"
    assert where_new_stands(NormalizedText.of(twice), "compute(value)") is None


# -- the answer -------------------------------------------------------------------------------


def test_the_no_op_answer_keeps_the_file_and_says_where_and_why():
    text = "a\nb\nc\n"
    source = NormalizedText.of(text)
    trace = (TierAttempt("exact", "matched", 1),)
    places = [Match(2, 5, similarity=0.9)]

    inside = no_op(source, places, LineIndex(text), trace, old_is_inside=True)
    alone = no_op(source, places, LineIndex(text), trace, old_is_inside=False)

    assert inside.new_content == text and inside.replacements == 0
    assert inside.strategy == "already_applied" and inside.no_change
    assert inside.trace == trace
    (region,) = inside.spans
    assert (region.start_line, region.end_line, region.similarity) == (2, 3, 0.9)
    assert inside.note == (
        "new_string is already in the file where old_string is; the edit was applied before."
    )
    assert alone.note == (
        f"old_string is not in the file but new_string already is ({region.describe()}); "
        "the edit looks applied already, so nothing was changed."
    )
    assert alone.spans == inside.spans


# -- an elided quote sent again after its insertion -------------------------------------------

ELIDED_OLD = "a = start()\n...\nb = end()"


def held_elided(tier: _Places, text: str, new: str, quote: Match) -> list[tuple[int, int]]:
    return spans(holding_every_quote(tier, text, ELIDED_OLD, new, [quote]))


# new_string adds a line next to the marker: old_string does not lie inside it as it is.
ELIDED_NEW = "a = start()\nc = added()\n...\nb = end()"


def test_lines_added_before_an_elided_quote_may_be_all_that_surrounds_it():
    text = "c = added()\nX"
    quote, place = Match(len(text) - 1, len(text)), Match(0, len(text))
    assert held_elided(_Places(place), text, ELIDED_NEW, quote) == [(0, len(text))]
    assert held_elided(_Places(place), "d = other()\nX", ELIDED_NEW, quote) == []


def test_lines_added_after_an_elided_quote_may_be_all_that_surrounds_it():
    text = "X\nc = added()"
    quote, place = Match(0, 1), Match(0, len(text))
    assert held_elided(_Places(place), text, ELIDED_NEW, quote) == [(0, len(text))]
    assert held_elided(_Places(place), "X\nd = other()", ELIDED_NEW, quote) == []


def test_only_a_place_holding_the_elided_quote_answers():
    text = "c = added()\nX"
    quote = Match(len(text) - 1, len(text))
    empty_at_the_quote = Match(quote.start, quote.start)  # holds nothing, surrounds nothing
    tier = _Places(empty_at_the_quote, Match(0, len(text)))
    assert held_elided(tier, text, ELIDED_NEW, quote) == [(0, len(text))]


@pytest.mark.parametrize(
    ("new", "held"),
    [
        # old_string's stretches out of order in new_string: not an edit of it.
        ("b = end()\nc = added()\n...\na = start()", False),
        # The first stretch stands twice; the one before the second stretch counts.
        ("a = start()\nc = added()\n...\nb = end()\na = start()", True),
    ],
)
def test_new_string_must_hold_the_elided_quotes_stretches_in_order(new, held):
    text = "c = added()\nX"
    place = Match(0, len(text))
    found = held_elided(_Places(place), text, new, Match(len(text) - 1, len(text)))
    assert found == ([(0, len(text))] if held else [])
