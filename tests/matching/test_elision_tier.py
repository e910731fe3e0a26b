"""The elision tier's rules: quotes opening or closing on a marker, chains of several
segments, the final newline, markers at new_string's edges, blank lines beside markers,
skipped code spelled out, and the refusals."""

from __future__ import annotations

import pytest

from editengine import AmbiguousMatch, UnmatchedElision, edit_text
from editengine.matching import ElisionTier
from editengine.matching._base import MAX_PLACES, Match, TooManyPlaces

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


class TestQuotesOpeningOrClosingOnAMarker:
    @pytest.mark.parametrize(
        ("old", "new", "expected"),
        [
            ("# ...\n    return 1", "# ...\n    return 2", FUNCTION.replace("1\n", "2\n")),
            ("def f():\n    # ...", "def g():\n    # ...", FUNCTION.replace("f()", "g()")),
            (
                "# ...\n    b()\n    # ...",
                "# ...\n    b(2)\n    # ...",
                FUNCTION.replace("b()", "b(2)"),
            ),
            ("# ...\n    c()\n", "# ...\n    d()\n", FUNCTION.replace("c()", "d()")),
        ],
    )
    def test_the_lines_between_the_edge_markers_are_the_span(self, old, new, expected):
        (match,) = ElisionTier().find(FUNCTION, old)
        assert match.similarity == 1.0
        assert apply(FUNCTION, match, new) == expected


class TestMarkersAtNewStringsEdges:
    """A marker at new_string's very edge stands for code outside the span, which stays."""

    @pytest.mark.parametrize(
        "new",
        [
            "# ...\n    return 2",
            "\n# ...\n    return 2",  # with the blank line before it
            "# ...\n# ...\n    return 2",  # however many
        ],
    )
    def test_leading_markers_are_dropped(self, new):
        assert edited(FUNCTION, "# ...\n    return 1", new) == FUNCTION.replace("1\n", "2\n")

    @pytest.mark.parametrize("new", ["def g():\n    # ...", "def g():\n    # ...\n    # ..."])
    def test_trailing_markers_are_dropped(self, new):
        assert edited(FUNCTION, "def f():\n    # ...", new) == FUNCTION.replace("f()", "g()")

    def test_a_blank_line_between_the_marker_and_the_code_is_new_string_s_own(self):
        out = edited(FUNCTION, "# ...\n    return 1", "# ...\n\n    return 2")
        assert out == FUNCTION.replace("    return 1", "\n    return 2")
        out = edited(FUNCTION, "def f():\n    # ...", "def g():\n\n    # ...")
        assert out == FUNCTION.replace("def f():", "def g():\n")

    @pytest.mark.parametrize("new", ["", "# ..."])
    def test_nothing_but_the_marker_deletes_the_quoted_lines_and_keeps_the_rest(self, new):
        assert edited(FUNCTION, "def f():\n    # ...", new) == FUNCTION.replace("def f():", "")


class TestSeveralSegments:
    content = "a\nx\nb\ny\nc\nz\n"
    old = "a\n...\nb\n...\nc"

    def test_each_marker_keeps_the_lines_it_skipped(self):
        (match,) = ElisionTier().find(self.content, self.old)
        assert (match.start, match.end) == (0, self.content.index("\nz"))
        out = apply(self.content, match, "a\n...\nb2\n...\nc")
        assert out == "a\nx\nb2\ny\nc\nz\n"

    def test_each_segment_is_found_after_the_whole_of_the_one_before(self):
        # the last "c" is not the one inside the segment "b / c"
        content = "a\nx\nb\nc\ny\nc\n"
        out = edited(content, "a\n...\nb\nc\n...\nc", "a\n...\nb\nc\n...\nc2")
        assert out == "a\nx\nb\nc\ny\nc2\n"

    def test_new_string_may_spell_out_every_skipped_stretch(self):
        assert edited(self.content, self.old, "a\nx\nb2\ny\nc") == "a\nx\nb2\ny\nc\nz\n"

    @pytest.mark.parametrize(
        ("content", "old", "new"),
        [
            # both stretches written out, in the wrong order
            ("a\nx\nb\ny\nc\nz\n", "a\n...\nb\n...\nc", "a\ny\nb2\nx\nc"),
            ("a\nx1\nx2\nb\ny\nc\n", "a\n...\nb\n...\nc", "a\ny\nx1\nx2\nb\nc"),
            # the first stretch is blank, the second is not written out
            ("a\n\nb\nc\nd\n", "a\n...\nb\n...\nd", "a\nb2\nd"),
        ],
    )
    def test_stretches_not_all_written_out_in_order_are_refused(self, content, old, new):
        (match,) = ElisionTier().find(content, old)
        with pytest.raises(UnmatchedElision) as refused:
            match.rewrite(new)
        assert refused.value.message == (
            "new_string has 0 elision marker(s) between real lines where old_string has 2; "
            "writing it would delete or invent the code the markers stand for."
        )
        assert refused.value.hint == (
            "Use the same '...' markers in new_string as in old_string, one for each skipped "
            "stretch, or quote the skipped code in full."
        )


class TestWhichPlaces:
    def test_a_first_line_at_another_depth_with_no_chain_does_not_hide_a_later_one(self):
        content = "    x = 1\n    y\nx = 1\ny\nend()\n"
        out = edited(content, "x = 1\n# ...\nend()", "x = 2\n# ...\nend()")
        assert out == "    x = 1\n    y\nx = 2\ny\nend()\n"

    def test_past_max_places_the_tier_refuses_naming_itself_and_the_first_places(self):
        content = "a\n" * (MAX_PLACES + 3)
        with pytest.raises(TooManyPlaces) as refused:
            ElisionTier().find(content, "a\n...\na\n...\na")
        assert refused.value.tier == "elision"
        assert "(elision match)" in refused.value.message
        first = refused.value.candidates[:2]
        assert [(r.start_line, r.end_line) for r in first] == [(1, 3), (2, 4)]


class TestInventedMarkers:
    content = "def f():\n    a()\n    b()\n    return 1\n"

    def test_a_comment_marker_only_new_string_has_is_refused(self):
        old = "def f():\n    a()\n    b()\n    return 1"
        with pytest.raises(UnmatchedElision) as refused:
            edit_text(self.content, old, "def f():\n    # ...\n    return 2")
        assert refused.value.message == (
            "new_string contains an elision marker ('...' or '// ... existing code ...') that "
            "old_string does not have; written to the file it would delete the code it stands "
            "for."
        )
        assert refused.value.hint == (
            "Write out the code in full in new_string, or put the same marker in old_string "
            "over the lines it skips."
        )

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            # a bare ... replacing code
            ("def f():\n    a()\n    b()\n    return 1", "def f():\n    ..."),
            # a bare ... added beside the marker old_string has, while a line is lost
            ("def f():\n    # ...\n    return 1", "def f():\n    # ...\n    ...\n    return 2"),
            # two comment markers swapped for one bare ..., while a line is lost
            ("def f():\n    # ...\n    b()\n    # ...", "def f():\n    ...\n    c()"),
        ],
    )
    def test_a_bare_marker_new_string_adds_while_lines_are_lost_is_refused(self, old, new):
        with pytest.raises(UnmatchedElision) as refused:
            edit_text(self.content, old, new)
        assert refused.value.message.startswith("new_string contains an elision marker")

    def test_an_ellipsis_inside_a_line_is_code(self):
        result = edit_text(self.content, "    return 1", "    return ...")
        assert result.new_content == self.content.replace("return 1", "return ...")


class TestBlankLinesBesideMarkers:
    """Blank lines old_string quoted beside a marker belong to the stretch it skips: written
    from the file, not again from new_string. Blank lines only new_string has are its own."""

    @pytest.mark.parametrize(
        ("content", "old", "new", "expected"),
        [
            # the file has two on each side, the quote one: the file's two stay
            (
                "import a\n\n\nsetup()\n\n\nLIMIT = 5\n",
                "import a\n\n# ...\n\nLIMIT = 5",
                "import a\n\n# ...\n\nLIMIT = 6",
                "import a\n\n\nsetup()\n\n\nLIMIT = 6\n",
            ),
            # new_string leaves out the blank lines the quote had: the file's stay too
            (
                "import a\n\n\nsetup()\n\n\nLIMIT = 5\n",
                "import a\n\n\n# ...\n\n\nLIMIT = 5",
                "import a\n# ...\nLIMIT = 6",
                "import a\n\n\nsetup()\n\n\nLIMIT = 6\n",
            ),
            # one blank line in the file for the two the quote has around the marker, or none:
            # the file's stay as they are, none is added
            (
                "import a\n\nLIMIT = 5\n",
                "import a\n\n# ...\n\nLIMIT = 5",
                "import a\n\n# ...\n\nLIMIT = 6",
                "import a\n\nLIMIT = 6\n",
            ),
            (
                "import a\nLIMIT = 5\n",
                "import a\n\n# ...\n\nLIMIT = 5",
                "import a\n\n# ...\n\nLIMIT = 6",
                "import a\nLIMIT = 6\n",
            ),
            # a stretch of blank lines only: it stands for the lines on both sides once
            (
                "import a\n\n\n\nLIMIT = 5\n",
                "import a\n\n# ...\n\nLIMIT = 5",
                "import a\n\n# ...\n\nLIMIT = 6",
                "import a\n\n\n\nLIMIT = 6\n",
            ),
            # blank lines before or after the marker that the quote did not have are added
            (
                "import a\nx\n\n\nLIMIT = 5\n",
                "import a\n# ...\n\nLIMIT = 5",
                "import a\n\n# ...\n\nLIMIT = 6",
                "import a\n\nx\n\n\nLIMIT = 6\n",
            ),
            (
                "import a\n\n\nx\nLIMIT = 5\n",
                "import a\n\n# ...\nLIMIT = 5",
                "import a\n\n# ...\n\nLIMIT = 6",
                "import a\n\n\nx\n\nLIMIT = 6\n",
            ),
            # a line new_string inserts before the marker keeps the quote's blank line after it
            (
                "c()\n\n  \n        c()\n",
                "c()\n\n...\n\n        c()\n",
                "c()\n    c()\n...\n\n        c()\n",
                "c()\n    c()\n\n  \n        c()\n",
            ),
            (
                "return x\na()\n\nx = 1\nend()\n",
                "a()\n# ...\nx = 1\n# ...",
                "a()\n\n# ...\nx = 1\n# ...",
                "return x\na()\n\n\nx = 1\nend()\n",
            ),
        ],
    )
    def test_blank_lines_around_a_marker(self, content, old, new, expected):
        assert edited(content, old, new) == expected


class TestMoreEdges:
    def test_new_string_may_drop_the_first_line_and_spell_out_the_stretch_after_it(self):
        assert edited("a\nx\nb\n", "a\n...\nb", "x\nb2") == "x\nb2\n"

    def test_a_blank_line_after_a_trailing_marker_goes_with_it(self):
        out = edited(FUNCTION, "def f():\n    # ...\n", "def g():\n    # ...\n\n")
        assert out == FUNCTION.replace("f()", "g()")

    def test_a_blank_line_before_a_trailing_marker_alone_is_new_string_s_own(self):
        assert edited("if y:\nlog(x)\npass", "if y:\n...", "\n...") == "\nlog(x)\npass"

    def test_the_matched_lines_own_tabs_win_over_the_file_s_spaces(self):
        content = "c()\na()\na()\n\tc()\n\tc()\n        if y:\n    if y:\n"
        old = "a()\n// ... existing code ...\n\tc()"
        new = "a()\n    if y:\n// ... existing code ...\n    if y:\n\tc()"
        expected = "c()\na()\na()\n\tif y:\n\tif y:\n\tc()\n\tc()\n        if y:\n    if y:\n"
        assert edited(content, old, new) == expected

    def test_a_blank_line_new_string_adds_after_the_quote_s_last_line_is_its_own(self):
        content = "x\nz\nq\nw\nend\n"
        assert edited(content, "x\nz\n# ...\nw\n", "x\nz\n# ...\nw2\n\n") == "x\nz\nq\nw2\n\nend\n"

    def test_a_blank_line_padding_the_quote_after_its_one_line_is_not_written(self):
        content = "x = 0\n\nif y:\n    pass\n    z()\n"
        out = edited(content, "# ...\n    z()\n\n", "# ...\n    z2()\n\n")
        assert out == content.replace("z()", "z2()")

    def test_a_blank_line_inserted_higher_up_is_no_blank_line_beside_the_marker(self):
        content = "a\nb\n\n\nskip\n\n\nend\n"
        out = edited(content, "a\nb\n\n\n# ...\n\n\nend", "a\n\nb\n\n# ...\n\n\nend")
        assert out == "a\n\nb\n\n\nskip\n\n\nend\n"

    def test_new_string_of_fewer_blank_lines_than_the_quote_s_padding_is_written(self):
        content = "x = 0\n\n\n\nif y:\n    pass\n"
        out = edited(content, "\n\n\nif y:\n    # ...", "\n\n")
        # the padding repeated is taken off; the final newline is a line break it adds
        assert out == content.replace("if y:", "\n")
