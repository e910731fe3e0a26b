"""The whitespace tier on its own: where a respaced quote starts and stops, and what it
writes there."""

from __future__ import annotations

import pytest

from editengine.matching._base import MAX_PLACES, DoubtfulMatch, TooManyPlaces
from editengine.matching._whitespace import (
    WhitespaceTier,
    _Frame,
    _squeezed_places,
    splice_tokens,
)


def test_a_quote_spaced_differently_is_found_at_its_exact_span():
    content = "head\nresult = compute(alpha, beta)\ntail\n"
    (match,) = WhitespaceTier().find(content, "compute(alpha,beta)")
    assert content[match.start : match.end] == "compute(alpha, beta)"


def test_a_two_token_quote_is_looked_for():
    (match,) = WhitespaceTier().find("    return ;\n", "return;")
    assert (match.start, match.end) == (0, 12)


def test_too_many_places_names_the_tier_and_each_place_s_last_line():
    content = "f(a, b\n)\n" * (MAX_PLACES + 1)
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

    def test_a_blank_line_keeps_whitespace_other_than_spaces_and_tabs(self):
        assert _Frame("  ", "    ").place("a\n \f\nb") == "a\n\f\nb"

    def test_a_blank_line_loses_its_spaces_and_tabs(self):
        assert _Frame("  ", "    ").place("a\n \t \n    b") == "a\n\n  b"


@pytest.mark.parametrize(
    ("region", "old", "new", "written"),
    [
        # Tokens dropped from the middle, from the end, from the start.
        ("call(alpha,\n     beta, gamma)", "call(alpha, beta, gamma)", "call(alpha, gamma)",
         "call(alpha,\n     gamma)"),
        ("call(alpha,\n     beta, gamma)", "call(alpha, beta, gamma)", "call(alpha, beta)",
         "call(alpha,\n     beta)"),
        ("x = f(a)\n  + 1", "x = f(a) + 1", "x = f(a)", "x = f(a)"),
        ("x = f(a)\n  + 1", "x = f(a) + 1", "", ""),
        ("not x and\n  y", "not x and y", "x and y", "x and\n  y"),
        ("a = [1,\n  2,\n  3]", "a = [1, 2, 3]", "a = [2, 3]", "a = [2,\n  3]"),
        # A last token rewritten where the file spaces it as quoted.
        ("x = a\n    + b", "x = a + b", "x = a + c", "x = a\n    + c"),
        # A token rewritten between a gap spaced as quoted and one that is not.
        ("x = a +\n    b", "x = a + b", "x = a - b", "x = a -\n    b"),
        # new_string's own spacing kept where the file spaces both sides as quoted.
        ("x = a + b +\n  c", "x = a + b + c", "x = a -b + c", "x = a -b +\n  c"),
        # Tokens added at the end, and after the last one.
        ("f(a,\n  b)", "f(a, b)", "f(a, b, c)", "f(a,\n  b, c)"),
        ("f(a,\n  b)", "f(a, b)", "f(a, b) + g", "f(a,\n  b) + g"),
        # Whole lines inserted before a line of the file.
        ("f(a,\n  b)", "f(a, b)", "f(a,\n  x,\n  b)", "f(a,\n  x,\n  b)"),
        ("f(a,\n  b)", "f(a, b)", "f(a,\n  x,\n  y,\n  b)", "f(a,\n  x,\n  y,\n  b)"),
        ("a = [1,\n  2,\n  3]", "a = [1, 2, 3]", "a = [1,\n  9,\n  2, 3]",
         "a = [1,\n  9,\n  2,\n  3]"),
        ("a = [1,\n  2,\n  3]", "a = [1, 2, 3]", "a = [1,\n  2,\n  9,\n  3]",
         "a = [1,\n  2,\n  9,\n  3]"),
        # Two rewrites, each where the file spaces it as quoted.
        ("x = a + b +\n  c + d", "x = a + b + c + d", "x = a -b + c -d", "x = a -b +\n  c -d"),
        # The first token rewritten.
        ("f(a,\n  b)", "f(a, b)", "g(a,\n  b)", "g(a,\n  b)"),
    ],
)  # fmt: skip
def test_new_string_s_changes_are_made_in_the_file_s_spacing(region, old, new, written):
    assert splice_tokens(region, old, new, _Frame("", "")) == written


def test_lines_inserted_in_an_indented_region_start_at_the_file_s_depth():
    region = "f(a,\n      b)"
    new = "    f(a,\n      x,\n      b)"
    assert splice_tokens(region, "    f(a, b)", new, _Frame("    ", "    ")) == (
        "f(a,\n      x,\n      b)"
    )


@pytest.mark.parametrize(
    ("content", "quote", "span"),
    [
        ("y = -value + 1\n", "-value+1", (4, 14)),  # a sign after an assignment
        ("return -x + 1\n", "-x+1", (7, 13)),  # a mark after a word
        ("if !done && x\n", "done&&x", (4, 13)),  # the operand of a negation
        ('s = "word, other"\n', "word,other", (5, 16)),  # a string's text
        ("y = a + b\n", "y=a", (0, 5)),  # stopped before a space
        ("x = ((a) + a * a)\n", "(a)", (5, 8)),  # at the second of two brackets
        ("y = 1 if (a) else 2\n", "1 if", (4, 8)),  # a keyword before its condition
    ],
)
def test_a_mid_line_quote_that_cuts_no_expression_is_a_place(content, quote, span):
    (match,) = WhitespaceTier().find(content, quote)
    assert (match.start, match.end) == span


@pytest.mark.parametrize(
    ("content", "quote"),
    [
        ("obj.name = 1\n", "name=1"),  # an attribute cut from its object
        ("f(-x, y)\n", "-x,y"),  # a bracket's content started at a sign
        ('y = f("x")\n', "y=f("),  # a call cut before its argument
        ("xfoo(a, b)\n", "foo(a,b)"),  # started inside a word
        ("x.bcdef = 1\n", "a.bcdef"),  # a token before the longest one differs
        ("ab cdefg = 1\n", "a b cdefg"),  # two words run together before the longest
        ("foo_bar = 1\n", "foo _bar"),  # an underscore is part of a word
        ("X-y = 1\n", "-y=1"),  # an operand cut from the name before it
        ("y = X.size\n", "y=X"),  # an object cut from its attribute
        ("y = a+X\n", "y=a+"),  # an operator cut from its operand
        ("y = X-1\n", "y=X"),  # a name cut from the operator after it
        ("y = f(X)\n", "y=f("),  # a call cut before a capitalised argument
        ("y = f(a)X\n", "y=f(a)"),  # a call cut from the name after it
    ],
)
def test_a_mid_line_quote_that_cuts_an_expression_is_not_a_place(content, quote):
    assert WhitespaceTier().find(content, quote) == []


def test_the_squeezed_search_finds_places_one_character_apart():
    assert _squeezed_places("(((\n", ["(", "("]) == [(0, 2), (1, 3)]


def test_a_quote_starting_inside_a_word_is_not_even_a_cut_place():
    assert WhitespaceTier().cut_places("xfoo(a, b)\n", "foo(a,b)") == []
