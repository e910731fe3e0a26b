"""The line-trimmed and boundary-trim tiers: every place they find, and new_string there."""

from __future__ import annotations

from editengine.matching import BoundaryTrimTier, LineTrimmedTier
from editengine.matching._base import Match


def _apply(content: str, match: Match, new: str) -> str:
    replacement = match.rewrite(new) if match.rewrite else new
    return content[: match.start] + replacement + content[match.end :]


def _spans(matches: list[Match]) -> list[tuple[int, int]]:
    return [(match.start, match.end) for match in matches]


def _span_of(content: str, text: str, start: int = 0) -> tuple[int, int]:
    position = content.index(text, start)
    return position, position + len(text)


class TestLinesThatOnlyEndAndBeginAsQuoted:
    """A quote found as whole lines also fits where its first line merely ends and its last
    merely begins a file line: the tier names both places, so the edit is not a guess."""

    def test_a_two_line_quote_is_found_whole_and_where_its_lines_only_end_and_begin(self):
        content = "x = foo()\nbar() + 1\n\ndef f():\n    foo()\n    bar()\n"
        matches = LineTrimmedTier().find(content, "foo()\nbar()")
        assert _spans(matches) == [
            _span_of(content, "    foo()\n    bar()"),
            _span_of(content, "x = foo()\nbar() + 1"),
        ]

    def test_middle_lines_must_be_the_same_and_the_outer_ones_only_end_and_begin_alike(self):
        content = (
            "x = foo()\nmid()\nbar() + 1\n"
            "y = foo()\nother()\nbar() + 2\n"
            "  foo()\n  mid()\n  bar()\n"
        )
        matches = LineTrimmedTier().find(content, "foo()\nmid()\nbar()")
        assert _spans(matches) == [
            _span_of(content, "  foo()\n  mid()\n  bar()"),
            _span_of(content, "x = foo()\nmid()\nbar() + 1"),
        ]

    def test_a_blank_middle_line_is_matched_like_any_other(self):
        content = "x = foo()\n\nbar() + 1\n  foo()\n\n  bar()\n"
        matches = LineTrimmedTier().find(content, "foo()\n\nbar()")
        assert _spans(matches) == [
            _span_of(content, "  foo()\n\n  bar()"),
            _span_of(content, "x = foo()\n\nbar() + 1"),
        ]

    def test_a_quote_with_a_blank_first_line_has_no_partial_places(self):
        content = "x = 1\n  \n  bar()\nbar() + 1\n"
        assert _spans(LineTrimmedTier().find(content, "\nbar()")) == [
            _span_of(content, "  \n  bar()")
        ]

    def test_every_such_place_is_found_in_order_after_text_that_only_mentions_the_last_line(
        self,
    ):
        # bar() first stands inside a line: that is no place; the places after it are found.
        content = (
            "print(bar())\n"
            "x = foo()\nmid()\nbar() + 1\n"
            "y = foo()\nmid()\nbar() + 2\n"
            "  foo()\n  mid()\n  bar()\n"
        )
        matches = LineTrimmedTier().find(content, "foo()\nmid()\nbar()")
        assert _spans(matches) == [
            _span_of(content, "  foo()\n  mid()\n  bar()"),
            _span_of(content, "x = foo()\nmid()\nbar() + 1"),
            _span_of(content, "y = foo()\nmid()\nbar() + 2"),
        ]

    def test_a_last_line_that_also_ends_the_middle_line_is_still_found_where_it_begins_a_line(
        self,
    ):
        content = "x = start()\nlog(done)\ndone = True\n  start()\n  log(done)\n  done\n"
        matches = LineTrimmedTier().find(content, "start()\nlog(done)\ndone")
        assert _spans(matches) == [
            _span_of(content, "  start()\n  log(done)\n  done"),
            _span_of(content, "x = start()\nlog(done)\ndone = True"),
        ]

    def test_a_place_may_begin_on_the_line_that_ends_the_place_before(self):
        content = "x = foo()\nbar() foo()\nbar() + 2\n  foo()\n  bar()\n"
        matches = LineTrimmedTier().find(content, "foo()\nbar()")
        assert _spans(matches) == [
            _span_of(content, "  foo()\n  bar()"),
            _span_of(content, "x = foo()\nbar() foo()"),
            _span_of(content, "bar() foo()\nbar() + 2"),
        ]

    def test_a_last_line_too_close_to_the_file_start_for_the_quote_is_no_place(self):
        content = "bar() + 1\nx = foo()\nbar() + 2\n  foo()\n  bar()\n"
        matches = LineTrimmedTier().find(content, "foo()\nbar()")
        assert _spans(matches) == [
            _span_of(content, "  foo()\n  bar()"),
            _span_of(content, "x = foo()\nbar() + 2"),
        ]


class TestOneLineQuoteInsideLongerLines:
    def test_found_between_word_boundaries_but_not_glued_to_a_word(self):
        content = "n + 1\nx = n + 1;\ny = n + 12\nz = an + 1\nw = my_n + 1\n"
        matches = LineTrimmedTier().find(content, "n + 1")
        assert _spans(matches) == [(0, 5), _span_of(content, "n + 1", 6)]

    def test_a_line_that_begins_with_the_quote_is_a_place_of_its_own(self):
        content = "foo(1)\nfoo(1) + 2\n"
        matches = LineTrimmedTier().find(content, "foo(1)")
        assert _spans(matches) == [(0, 6), (7, 13)]

    def test_every_place_in_a_line_is_found(self):
        content = "go()\nx = go() + go() + go()\n"
        matches = LineTrimmedTier().find(content, "go()")
        assert _spans(matches) == [(0, 4), (9, 13), (16, 20), (23, 27)]

    def test_a_run_of_one_mark_is_found_at_each_offset_of_a_longer_run(self):
        content = "--\nx -- y ---\n"
        matches = LineTrimmedTier().find(content, "--")
        assert _spans(matches) == [(0, 2), (5, 7), (10, 12), (11, 13)]


class TestBoundaryTrim:
    def test_one_blank_line_before_the_quote_is_padding(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\nb")
        assert _apply(content, match, "\nB") == "a\nB\nc\n"

    def test_a_quote_of_blank_lines_only_finds_nothing(self):
        assert BoundaryTrimTier().find("a\n\n\nb\n", "\n  \n\n") == []

    def test_deleting_a_padded_quote_deletes_its_lines(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb\n\n")
        assert _apply(content, match, "") == "a\nc\n"

    def test_only_trailing_blank_lines_are_padding_too(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "b\n\n\n")
        assert _apply(content, match, "B\n\n\n") == "a\nB\nc\n"

    def test_new_string_keeps_its_blank_lines_when_it_lacks_the_quotes_trailing_padding(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "b\n\n")
        assert _apply(content, match, "\nB1\nB2\nB3") == "a\n\nB1\nB2\nB3\nc\n"

    def test_new_string_keeps_its_blank_lines_when_it_lacks_the_quotes_leading_padding(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb\n\n")
        assert _apply(content, match, "B\n\n\n") == "a\nB\n\n\nc\n"

    def test_stray_spaces_around_a_one_line_quote_find_every_place_in_lines(self):
        content = "x = foo(1) + foo(1) + foo(1)\n"
        matches = BoundaryTrimTier().find(content, "  foo(1)  ")
        assert _spans(matches) == [(4, 10), (13, 19), (22, 28)]
        assert [match.similarity for match in matches] == [1.0, 1.0, 1.0]
        assert _apply(content, matches[1], "  foo(2)  ") == "x = foo(1) + foo(2) + foo(1)\n"

    def test_a_padded_one_line_quote_without_a_final_newline_is_found_inside_a_line(self):
        content = "x = foo(1) + 2\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nfoo(1)")
        assert (match.start, match.end) == (4, 10)
        assert _apply(content, match, "\n\nfoo(2)") == "x = foo(2) + 2\n"

    def test_a_padded_one_line_quote_is_found_inside_a_line_when_no_line_is_it(self):
        content = "x = foo(1) + 2\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nfoo(1)\n\n")
        assert (match.start, match.end) == (4, 10)
        assert _apply(content, match, "\n\nfoo(2)\n\n") == "x = foo(2) + 2\n"

    def test_a_padded_one_line_quote_that_is_a_whole_line_takes_the_line(self):
        content = "def f():\n    foo(1)\n"
        (match,) = BoundaryTrimTier().find(content, "\n\n  foo(1)\n\n")
        assert (match.start, match.end) == (9, len(content))
        assert _apply(content, match, "\n\n  foo(2)\n\n") == "def f():\n    foo(2)\n"

    def test_a_padded_quote_of_several_lines_is_not_looked_for_inside_lines(self):
        assert BoundaryTrimTier().find("a = Y +\nX\n", "\n\nY +\nX\n\n") == []

    def test_a_padded_quote_of_several_lines_is_found_and_new_string_loses_the_padding(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb\nc\n\n")
        assert _apply(content, match, "\n\nB\nC\n\n") == "a\nB\nC\n"

    def test_a_final_newline_of_new_string_is_kept_when_old_string_had_none(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb")
        assert _apply(content, match, "\n\nB\n") == "a\nB\n\nc\n"

    def test_new_string_one_blank_line_short_of_the_trailing_padding_keeps_its_blank_lines(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb\n\n")
        assert _apply(content, match, "\n\nB\n") == "a\n\n\nB\nc\n"

    def test_a_new_string_of_blank_lines_only_is_written_as_given(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb\n\n")
        assert _apply(content, match, "\n\n") == "a\n\n\nc\n"
