"""The elision tier's rules: quotes opening or closing on a marker, chains of several
segments, the final newline, markers at new_string's edges, blank lines beside markers,
skipped code spelled out, and the refusals."""

from __future__ import annotations

import pytest

from editengine import AmbiguousMatch, edit_text
from editengine.matching import ElisionTier
from editengine.matching._base import Match

FUNCTION = "def f():\n    a()\n    b()\n    c()\n    return 1\n"


def apply(content: str, match: Match, new: str) -> str:
    replacement = match.rewrite(new) if match.rewrite else new
    return content[: match.start] + replacement + content[match.end :]


def edited(content: str, old: str, new: str) -> str:
    (match,) = ElisionTier().find(content, old)
    return apply(content, match, new)


class TestTheFinalNewline:
    def test_a_quote_ending_in_a_newline_gives_back_the_newline_its_span_ate(self):
        old = "def f():\n    # ...\n    c()\n"
        (match,) = ElisionTier().find(FUNCTION, old)
        assert FUNCTION[match.start : match.end] == "def f():\n    a()\n    b()\n    c()\n"
        assert apply(FUNCTION, match, "def f():\n    # ...\n    d()\n") == FUNCTION.replace(
            "c()", "d()"
        )
        # given back even when new_string forgot it
        assert apply(FUNCTION, match, "def f():\n    # ...\n    d()") == FUNCTION.replace(
            "c()", "d()"
        )

    def test_at_the_last_line_of_a_file_ending_in_a_newline(self):
        old = "def f():\n    # ...\n    return 1\n"
        new = "def f():\n    # ...\n    return 2\n"
        assert edited(FUNCTION, old, new) == FUNCTION.replace("return 1", "return 2")

    def test_a_file_ending_without_a_newline_does_not_get_one(self):
        content = "a()\nb()\nc()"
        assert edited(content, "a()\n# ...\nc()\n", "a()\n# ...\nd()\n") == "a()\nb()\nd()"
        result = edit_text(content, "a()\n# ...\nc()\n", "a()\n# ...\nd()\n")
        assert (result.strategy, result.new_content) == ("elision", "a()\nb()\nd()")

    def test_a_final_newline_only_new_string_has_is_a_line_break_it_adds(self):
        old = "def f():\n    # ...\n    c()"
        assert edited(FUNCTION, old, "def f():\n    # ...\n    d()\n") == FUNCTION.replace(
            "c()", "d()\n"
        )


class TestBlankLinesPaddingTheQuote:
    """Blank lines before old_string's first real line or after its last are left out of
    the span: new_string repeating them does not write them twice."""

    content = "x = 0\n\nif y:\n    pass\n    z()\n"

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            ("\nif y:\n    # ...", "\nif y2:\n    # ..."),
            ("\n\nif y:\n    # ...", "\n\nif y2:\n    # ..."),
            ("# ...\n\nif y:\n    pass", "# ...\n\nif y2:\n    pass"),
            ("if y:\n    # ...\n    z()\n\n", "if y2:\n    # ...\n    z()\n\n"),
            # new_string without the padding leaves the file's blank lines alone too
            ("\nif y:\n    # ...", "if y2:\n    # ..."),
        ],
    )
    def test_padding_new_string_repeats_is_not_written_twice(self, old, new):
        result = edit_text(self.content, old, new)
        assert result.strategy == "elision"
        assert result.new_content == self.content.replace("if y:", "if y2:")

    def test_a_blank_line_only_new_string_has_is_its_own(self):
        result = edit_text(self.content, "if y:\n    # ...", "\nif y2:\n    # ...")
        assert result.new_content == self.content.replace("if y:", "\nif y2:")


class TestAQuoteWithMarkersOnlyAtItsEdges:
    """One segment between edge markers: each place of it is a place of the quote."""

    content = "def a():\n    b()\n    x = 1\ndef c():\n    b()\n    y = 2\n"

    @pytest.mark.parametrize(
        "old", ["    b()\n    # ...", "# ...\n    b()", "# ...\n    b()\n    # ..."]
    )
    def test_standing_at_two_places_is_ambiguous(self, old):
        with pytest.raises(AmbiguousMatch) as refused:
            edit_text(self.content, old, old.replace("b()", "b(1)"))
        assert [(c.start_line, c.end_line) for c in refused.value.candidates] == [(2, 2), (5, 5)]
        assert refused.value.tier == "elision"

    def test_every_place_is_edited_when_all_are_asked_for(self):
        old = "    b()\n    # ..."
        result = edit_text(self.content, old, "    b(1)\n    # ...", replace_all=True)
        assert result.new_content == self.content.replace("b()", "b(1)")

    def test_enough_lines_quoted_make_it_one_place(self):
        old = "def c():\n    b()\n    # ..."
        result = edit_text(self.content, old, old.replace("b()", "b(1)"))
        assert result.new_content == self.content.replace("    b()\n    y", "    b(1)\n    y")
