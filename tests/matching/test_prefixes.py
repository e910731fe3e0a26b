"""matching.prefixes: which quotes carry read-tool line numbers, and what is left without them."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from editengine.matching._prefixes import STYLES, may_be_content, strip
from editengine.tools._numbered import format_line

BODY = ("def f():", "    return 1", "", "\tg()")

FORMATS: dict[str, Callable[[int, str], str]] = {
    "numbered.py": format_line,
    "cat -n": lambda n, line: f"{n:>5}\t{line}",
    "arrow": lambda n, line: f"{n}\u2192{line}",
    "padded arrow": lambda n, line: f"{n:>6}\u2192{line}",
    "colon": lambda n, line: f"{n}: {line}",
    "spaced bar": lambda n, line: f"{n:>4} | {line}",
    "bar": lambda n, line: f"{n}|{line}",
}


def numbered(fmt: Callable[[int, str], str], first: int, lines=BODY) -> str:
    return "\n".join(fmt(first + i, line) for i, line in enumerate(lines))


@pytest.mark.parametrize("name", FORMATS)
def test_every_style_is_taken_off_every_line(name):
    found = strip(numbered(FORMATS[name], 98))  # 98..101: the padding shrinks at 100
    assert found is not None
    assert found.text == "\n".join(BODY)
    assert found.first == 98


@pytest.mark.parametrize(
    "blank",
    ["", "     3", "     3\t", "  3 |", "3:"],
    ids=["empty", "bare number", "number and tab", "spaced bar kept", "colon kept"],
)
def test_a_blank_line_may_be_the_bare_number_or_nothing(blank):
    styles = {"     3\t": "\t", "  3 |": " | ", "3:": ": "}
    sep = styles.get(blank, "\t")
    text = f"1{sep}a = 1\n2{sep}b = 2\n{blank}\n4{sep}c = 3"
    found = strip(text)
    assert found is not None and found.text == "a = 1\nb = 2\n\nc = 3"


def test_a_final_newline_is_kept():
    found = strip("  7\tx = 1\n  8\ty = 2\n")
    assert found is not None and found.text == "x = 1\ny = 2\n"


@pytest.mark.parametrize(
    "text",
    [
        "10\tx\n12\ty",  # a gap
        "10\tx\n10\ty",  # a repeat
        "11\tx\n10\ty",  # counting down
        "10\tx\n11\u2192y",  # two styles
        "10\tx\n    y = 2",  # a line without a number
        "10\tx\ny",
        "10\n11\n",  # numbers only: nothing quoted
        "x = 1\n2\ty",  # the first line is not numbered
        "10 x\n11 y",  # a number and a space is not a prefix style
    ],
)
def test_a_quote_not_numbered_one_per_line_in_one_style_is_left_alone(text):
    assert strip(text) is None


def test_rising_numbers_are_enough_when_asked_for():
    tab = STYLES[0]
    found = strip("10\tx\n12\ty\n13\tz", tab, consecutive=False)
    assert found is not None and found.text == "x\ny\nz"
    assert strip("10\tx\n10\ty", tab, consecutive=False) is None
    assert strip("10\u2192x\n11\u2192y", tab, consecutive=False) is None  # another style


def test_a_number_too_long_to_be_a_line_number_is_not_one():
    assert strip("1" * 5000 + "\tx") is None


class TestNumbersThatMayBeContent:
    colon = next(style for style in STYLES if style.name == "colon")

    def test_a_mapping_whose_keys_are_the_quotes_numbers(self):
        content = "codes:\n  1: one\n  2: two\n"
        assert may_be_content(content, "1: one\n2: two", self.colon)

    def test_the_numbers_inside_lines_only(self):
        content = "x = {1: 'a', 2: 'b'}\nprint(1: 2)\n"
        assert not may_be_content(content, "1: x = 1\n2: y = 2", self.colon)

    def test_other_numbers_at_line_starts(self):
        assert not may_be_content("7: seven\n", "41: x\n42: y", self.colon)

    def test_the_quote_standing_as_it_is_inside_a_line(self):
        assert may_be_content("x = {41: 'a'}\n", "41: 'a'}", self.colon)
        assert not may_be_content("x = {41: 'b'}\n", "41: 'a'}", self.colon)

    def test_a_number_met_mid_line_too_often_to_check_counts_as_content(self):
        content = "f(41: x)\n" * 100
        assert may_be_content(content, "41: y\n42: z", self.colon)

    def test_a_number_met_mid_line_is_content_from_its_65th_place_on(self):
        quote = "41: y\n42: z"
        assert not may_be_content("f(41: x)\n" * 64, quote, self.colon)
        assert may_be_content("f(41: x)\n" * 65, quote, self.colon)

    def test_the_quote_standing_as_it_is_after_text_on_its_line(self):
        # The number stands two spaces into the quote: the quote starts two places before it.
        assert may_be_content("x  41: a\n", "  41: a", self.colon)
        assert not may_be_content("x  41: b\n", "  41: a", self.colon)

    def test_a_quote_led_by_an_empty_line(self):
        assert may_be_content("x\n41: a\n", "\n41: a", self.colon)

    @pytest.mark.parametrize("content", ["a\nb\n41: x\n", "\n41: x\n", "a\n  41: x"])
    def test_the_quotes_first_number_leading_any_line_of_the_file(self, content):
        assert may_be_content(content, "41: y", self.colon)

    @pytest.mark.parametrize("content", ["a\nb41: x\n", "X41: x\n", "a\n\u00a041: x\n"])
    def test_the_quotes_first_number_after_any_other_character(self, content):
        assert not may_be_content(content, "41: y", self.colon)

    def test_a_quote_without_numbers_has_none_to_be_content(self):
        assert not may_be_content("1: a\n", "a", self.colon)


def test_a_quote_led_by_empty_lines_is_numbered_from_its_first_line():
    found = strip("\n5: a\n6: b")
    assert found is not None
    assert (found.text, found.first) == ("\na\nb", 4)
