"""The whitespace tier on its own: where a respaced quote starts and stops, and what it
writes there."""

from __future__ import annotations

import pytest

from editengine.matching._base import MAX_PLACES, DoubtfulMatch, TooManyPlaces
from editengine.matching._whitespace import WhitespaceTier, _Frame


def test_a_quote_spaced_differently_is_found_at_its_exact_span():
    content = "head\nresult = compute(alpha, beta)\ntail\n"
    (match,) = WhitespaceTier().find(content, "compute(alpha,beta)")
    assert content[match.start : match.end] == "compute(alpha, beta)"


def test_a_two_token_quote_is_looked_for():
    (match,) = WhitespaceTier().find("x = a ,b\n", "a,b")
    assert (match.start, match.end) == (4, 8)


def test_too_many_places_names_the_tier_and_each_place_s_last_line():
    content = "f(a,\n b)\n" * (MAX_PLACES + 1)
    with pytest.raises(TooManyPlaces) as refused:
        WhitespaceTier().find(content, "f(a, b)")
    assert refused.value.tier == "whitespace"
    assert [(r.start_line, r.end_line) for r in refused.value.candidates[:3]] == [
        (1, 2),
        (3, 4),
        (5, 6),
    ]


def test_a_quote_ending_on_an_open_bracket_before_its_argument_is_not_a_place():
    assert WhitespaceTier().find("y = f(x)\n", "y=f(") == []


def test_a_quote_ending_on_an_open_bracket_of_an_empty_pair_is_a_place():
    (match,) = WhitespaceTier().find("y = f()\n", "y=f(")
    assert (match.start, match.end) == (0, 6)


def test_new_lines_unlike_the_file_s_move_only_the_first_line_to_the_file_s_depth():
    # new_string has only lines of the file, but at other depths than the file's: neither
    # the quote's breaks nor the file's frame, so only the first line's shift is known.
    content = "def f():\n    call(alpha,\n         beta)\n    done()\n"
    (match,) = WhitespaceTier().find(content, "  call(alpha, beta)\n")
    assert match.rewrite is not None
    assert match.rewrite("  call(alpha,\n  beta)\n") == "    call(alpha,\n  beta)\n"


class TestFramePlacesInsertedLines:
    def test_a_line_at_the_quote_s_depth_goes_to_the_file_s_depth_even_in_tabs(self):
        assert _Frame("\t", "    ").place("a\n    b") == "a\n\tb"

    def test_a_deeper_line_keeps_its_extra_depth_in_spaces(self):
        assert _Frame("  ", "    ").place("a\n       b") == "a\n     b"

    def test_a_shallower_line_keeps_its_distance_below_the_file_s_depth(self):
        assert _Frame("        ", "    ").place("a\n  b") == "a\n      b"

    def test_a_line_shallower_than_the_file_allows_stops_at_column_zero(self):
        assert _Frame("  ", "        ").place("a\nb") == "a\nb"

    def test_a_shallower_line_in_a_tab_indented_file_is_a_guess_refused(self):
        with pytest.raises(DoubtfulMatch):
            _Frame("\t", "    ").place("a\n  b")

    def test_a_blank_line_loses_its_spaces_and_tabs(self):
        assert _Frame("  ", "    ").place("a\n \t \n    b") == "a\n\n  b"
