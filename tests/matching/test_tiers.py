"""Each tier on its own: what it forgives, and what it must not match."""

from __future__ import annotations

import pytest

from editengine import edit_text
from editengine.matching import (
    BlockAnchorTier,
    BoundaryTrimTier,
    ElisionTier,
    ExactTier,
    LineTrimmedTier,
    UnescapeTier,
    UnicodePunctuationTier,
    WhitespaceTier,
)
from editengine.matching._anchor import merge3
from editengine.matching._base import Match
from editengine.matching._elision import is_marker


def apply(content: str, match: Match, new: str) -> str:
    replacement = match.rewrite(new) if match.rewrite else new
    return content[: match.start] + replacement + content[match.end :]


class TestExact:
    def test_finds_every_occurrence_overlapping_ones_too(self):
        matches = ExactTier().find("aaaa", "aa")
        assert [(m.start, m.end) for m in matches] == [(0, 2), (1, 3), (2, 4)]

    def test_empty_old_finds_nothing(self):
        assert ExactTier().find("abc", "") == []

    def test_writes_new_verbatim(self):
        (match,) = ExactTier().find("x = 1\n", "1")
        assert match.rewrite is None


class TestLineTrimmed:
    content = "class A:\n    def f(self):\n        return 1\n"

    def test_matches_despite_missing_indentation_and_reindents_new(self):
        (match,) = LineTrimmedTier().find(self.content, "def f(self):\n    return 1")
        out = apply(self.content, match, "def f(self):\n    return 2")
        assert out == "class A:\n    def f(self):\n        return 2\n"

    def test_keeps_relative_indentation_of_inserted_lines(self):
        (match,) = LineTrimmedTier().find(self.content, "def f(self):\n    return 1")
        out = apply(self.content, match, "def f(self):\n    if ok:\n        return 2")
        assert out == "class A:\n    def f(self):\n        if ok:\n            return 2\n"

    def test_new_already_at_file_depth_is_not_indented_twice(self):
        (match,) = LineTrimmedTier().find(self.content, "def f(self):\n    return 1")
        out = apply(self.content, match, "    def f(self):\n        return 2")
        assert out == "class A:\n    def f(self):\n        return 2\n"

    def test_tabs_in_file_spaces_in_quote(self):
        content = "func f() {\n\tif ok {\n\t\trun()\n\t}\n}\n"
        (match,) = LineTrimmedTier().find(content, "    if ok {\n        run()\n    }")
        out = apply(content, match, "    if ok {\n        run()\n        stop()\n    }")
        assert out == "func f() {\n\tif ok {\n\t\trun()\n\t\tstop()\n\t}\n}\n"

    def test_kept_lines_keep_their_trailing_whitespace(self):
        content = "a = 1   \nb = 2\n"
        (match,) = LineTrimmedTier().find(content, "a = 1\nb = 2")
        assert apply(content, match, "a = 1\nb = 3") == "a = 1   \nb = 3\n"

    def test_partial_line_is_not_a_line_match(self):
        assert LineTrimmedTier().find("x = foo(1)\n", "foo(1)") == []
        assert LineTrimmedTier().find("x = foo(1)\ny\n", "foo(1)\ny") == []

    def test_only_blank_lines_never_match(self):
        assert LineTrimmedTier().find("a\n\n\nb\n", "\n\n") == []


class TestBoundaryTrim:
    def test_blank_lines_around_old_are_ignored_and_taken_off_new(self):
        content = "a\nb\nc\n"
        (match,) = BoundaryTrimTier().find(content, "\n\nb\n\n")
        assert apply(content, match, "\n\nB\n\n") == "a\nB\nc\n"

    def test_no_padding_means_nothing_to_do(self):
        assert BoundaryTrimTier().find("a\nb\n", "b") == []


class TestUnescape:
    def test_over_escaped_newlines_and_quotes(self):
        content = 'print("hi")\nx = 1\n'
        (match,) = UnescapeTier().find(content, 'print(\\"hi\\")\\nx = 1')
        assert apply(content, match, 'print(\\"bye\\")\\nx = 1') == 'print("bye")\nx = 1\n'

    def test_real_escape_sequences_in_source_survive(self):
        content = 'print("a\\n")\n'  # the file really contains backslash-n
        (match,) = UnescapeTier().find(content, 'print(\\"a\\\\n\\")')
        assert apply(content, match, 'print(\\"b\\\\n\\")') == 'print("b\\n")\n'

    def test_new_without_the_escapes_is_left_alone(self):
        content = 'say("hi")\n'
        (match,) = UnescapeTier().find(content, 'say(\\"hi\\")')
        assert apply(content, match, "say('there')") == "say('there')\n"

    def test_nothing_to_unescape(self):
        assert UnescapeTier().find("abc", "b") == []


class TestUnicodePunctuation:
    def test_curly_quotes_in_old_match_ascii_file_and_are_fixed_in_new(self):
        content = 'msg = "hello"\n'
        (match,) = UnicodePunctuationTier().find(content, "msg = “hello”")
        assert apply(content, match, "msg = “bye”") == 'msg = "bye"\n'

    def test_file_typography_is_found_from_ascii_quote(self):
        content = "Use the — dash and “quotes”.\n"
        (match,) = UnicodePunctuationTier().find(content, 'the - dash and "quotes"')
        assert content[match.start : match.end] == "the — dash and “quotes”"

    def test_the_file_typography_survives_in_the_edited_text(self):
        content = "Say “hello” — and “bye”.\n"
        (match,) = UnicodePunctuationTier().find(content, 'Say "hello" - and "bye".')
        out = apply(content, match, 'Say "hello" - and "goodbye".')
        assert out == "Say “hello” — and “goodbye”.\n"

    def test_the_file_typography_survives_in_rewritten_lines(self):
        content = "intro\n  Say “hello”.\n  Next — line.\n"
        (match,) = UnicodePunctuationTier().find(content, 'Say "hello".\nNext - line.')
        out = apply(content, match, 'Say "hello" twice.\nNext - line.')
        assert out == "intro\n  Say “hello” twice.\n  Next — line.\n"

    def test_no_typography_anywhere(self):
        assert UnicodePunctuationTier().find("a-b", "a-c") == []

    def test_an_em_dash_and_ellipsis_the_file_spells_in_ascii(self):
        content = "  # wait -- then retry...\n  retry()\n"
        old = "# wait — then retry…\nretry()"
        (match,) = UnicodePunctuationTier().find(content, old)
        out = apply(content, match, "# wait — then retry twice…\nretry(2)")
        assert out == "  # wait -- then retry twice...\n  retry(2)\n"

    def test_a_file_that_uses_the_em_dash_is_not_read_as_spelling_it(self):
        content = 'x = "—"\ny = "--"\n'
        assert UnicodePunctuationTier().find(content, 'x = "—"\ny = "—"') == []


class TestWhitespace:
    @pytest.mark.parametrize(
        ("content", "old", "quoted"),
        [
            ("        for k, v in params.items():\n", "for k,v in params.items(", "items("),
            ("    c = Conn(host, context=ctx)\n", "Conn(host,context", "context"),
            ("x={a:1,b:2,c:3}\n", "a: 1, b: 2,", "2,"),
            ('names = ["TOML, also INI", "toml"]\n', "TOML,also INI", "INI"),
        ],
    )
    def test_a_fragment_may_stop_at_a_separator_bracket_keyword_or_string_edge(
        self, content, old, quoted
    ):
        (match,) = WhitespaceTier().find(content, old)
        assert content[match.start : match.end].endswith(quoted)

    def test_spacing_inside_a_line(self):
        content = "x = foo(a, b)\ny = 2\n"
        (match,) = WhitespaceTier().find(content, "x=foo(a,b)")
        assert apply(content, match, "x = foo(a, b, c)") == "x = foo(a, b, c)\ny = 2\n"

    def test_moved_line_break(self):
        content = "call(alpha,\n     beta)\n"
        (match,) = WhitespaceTier().find(content, "call(alpha, beta)")
        assert (match.start, match.end) == (0, len(content) - 1)

    def test_words_must_stay_apart(self):
        assert WhitespaceTier().find("return x\n", "returnx") == []
        assert WhitespaceTier().find("returnx = 1\n", "return x") == []

    def test_prefix_of_a_longer_expression_is_refused(self):
        assert WhitespaceTier().find("x = foo(a, b)\n", "x=foo") == []

    def test_does_not_start_inside_a_word(self):
        assert WhitespaceTier().find("max = foo(a)\n", "x=foo(a)") == []

    @pytest.mark.parametrize(
        ("content", "old"),
        [
            ("xlongword = 1\n", "x longword"),  # walking back from the longest token
            ("y = longwordx\n", "longword x"),  # walking forward from it
            ("x longword = 1\n", "xlongword = 1"),
        ],
    )
    def test_words_stay_apart_in_both_directions(self, content, old):
        assert WhitespaceTier().find(content, old) == []

    def test_a_prefix_of_a_call_spaced_before_its_brackets_is_refused(self):
        assert WhitespaceTier().find("x = foo (a, b)\n", "x=foo") == []

    def test_an_operator_is_not_cut_in_two(self):
        assert WhitespaceTier().find("if a.b==c:\n", "a. b") == []

    @pytest.mark.parametrize(
        ("content", "old", "quoted"),
        [
            # A closed call whose result is used: nothing of the call is cut.
            ('assert!(ov.matched("a", true).is_none());\n', 'ov.matched("a",true)', "true)"),
            # A macro's body after its closed parameter list.
            ("#define F(T, I, J) ((I) >> (J))\n", "F(T,I,J)", "J)"),
            # A call quoted in a comment.
            ("# `not isinstance(content, dict)` is odd\n", "isinstance(content,dict)", "dict)"),
            # A keyword before its condition.
            ("x = 1 for (let i = 0; i < n; i++) {}\n", "x=1 for", "for"),
            # A block opening after a closing bracket, the operand of a negation.
            ("if (ok) { run(a, b) }\n", "{ run(a,b) }", "{ run"),
            ("if (!isStream(up)) {}\n", "isStream(up )", "isStream"),
            # The end of a bracketed group's content, whatever its last character.
            ("q = f(a, b?)\n", "a,b?", "b?"),
        ],
    )
    def test_a_fragment_may_start_or_stop_at_these_edges(self, content, old, quoted):
        (match,) = WhitespaceTier().find(content, old)
        assert quoted in content[match.start : match.end]

    def test_a_name_spaced_from_its_call_is_still_not_cut_from_it(self):
        assert WhitespaceTier().find("y = x + foo (a)\n", "x +foo") == []

    def test_a_single_token_quote_is_left_to_stricter_tiers(self):
        assert WhitespaceTier().find("total = 1\n", "total") == []

    def test_linear_walk_on_a_pathological_line(self):
        content = "(" * 5000 + "\n"
        assert WhitespaceTier().find(content, "( ( ( x") == []


class TestElision:
    content = "def f():\n    a()\n    b()\n    c()\n    return 1\n"

    def test_markers_in_old_and_new_keep_the_skipped_code(self):
        (match,) = ElisionTier().find(self.content, "def f():\n    ...\n    return 1")
        out = apply(self.content, match, "def f():\n    ...\n    return 2")
        assert out == "def f():\n    a()\n    b()\n    c()\n    return 2\n"

    def test_comment_marker_with_words(self):
        content = "function f() {\n  a();\n  b();\n  return 1;\n}\n"
        old = "function f() {\n  // ... existing code ...\n  return 1;\n}"
        new = "function f() {\n  // ... existing code ...\n  return 2;\n}"
        (match,) = ElisionTier().find(content, old)
        assert apply(content, match, new) == content.replace("return 1", "return 2")

    def test_closing_segment_binds_at_the_same_depth(self):
        content = "function f() {\n  if (x) {\n    y();\n  }\n  z();\n}\n"
        (match,) = ElisionTier().find(content, "function f() {\n  // ...\n}")
        assert content[match.start : match.end] == content.rstrip("\n")

    def test_no_marker_no_match(self):
        assert ElisionTier().find(self.content, "def f():\n    a()") == []


class TestBlockAnchor:
    content = (
        "def total(items):\n"
        "    result = 0\n"
        "    for item in items:\n"
        "        result += item.price\n"
        "    return result\n"
    )

    def test_one_character_typo_is_found_and_unchanged_lines_come_from_the_file(self):
        old = self.content.replace("for item in items", "for item in itemz").rstrip("\n")
        new = old.replace("item.price", "item.price * item.count")
        (match,) = BlockAnchorTier().find(self.content, old)
        assert match.similarity > 0.95
        assert apply(self.content, match, new) == self.content.replace(
            "item.price", "item.price * item.count"
        )

    def test_a_different_line_is_not_a_typo(self):
        old = self.content.replace("result = 0", "accumulator = compute_start()")
        assert BlockAnchorTier().find(self.content, old) == []

    def test_several_typos_in_one_long_line_are_forgiven(self):
        old = self.content.replace("result += item.price", "reslut += itme.pirce").rstrip("\n")
        assert BlockAnchorTier(max_line_edits=2).find(self.content, old)
        (match,) = BlockAnchorTier().find(self.content, old)
        new = old.replace("return result", "return round(result)")
        assert apply(self.content, match, new) == self.content.replace(
            "return result", "return round(result)"
        )

    def test_several_typos_are_carried_into_the_line_new_string_changes(self):
        old = self.content.replace("result += item.price", "reslut += itme.pirce").rstrip("\n")
        new = old.replace("itme.pirce", "itme.pirce * 2")
        (match,) = BlockAnchorTier().find(self.content, old)
        assert apply(self.content, match, new) == self.content.replace(
            "item.price", "item.price * 2"
        )

    @pytest.mark.parametrize(
        ("line", "misquoted"),
        [
            ("result += item.price", "result += unit.prise"),  # a word replaced
            ("result += item.price", "result += item.pricr12"),  # digits
            ("result += item.price", "reslut += item.pcire"),  # a word scrambled
            ("for item in items:", "for itme in itesm:"),  # too short
        ],
    )
    def test_what_is_not_a_slip_of_a_key_is_not_forgiven(self, line, misquoted):
        old = self.content.replace(line, misquoted)
        assert BlockAnchorTier().find(self.content, old) == []

    def test_a_flipped_literal_with_a_typo_beside_it_is_another_line(self):
        content = "options = {\n    verbose_output: true,\n    retries: 3,\n    name: 'x',\n}\n"
        old = content.replace("verbose_output: true", "verbsoe_output: false")
        assert BlockAnchorTier().find(content, old) == []

    def test_several_typos_in_two_lines_are_too_many(self):
        old = self.content.replace("result += item.price", "reslut += itme.pirce")
        old = old.replace("def total(items):", "def ttoal(itmes):")
        assert BlockAnchorTier().find(self.content, old) == []

    def test_needs_three_lines(self):
        assert BlockAnchorTier().find("a = 1\nb = 2\n", "a = 1\nb = 3") == []

    def test_trailing_newline_does_not_count_as_a_line(self):
        assert BlockAnchorTier().find("a = 1\nb = 2\n", "a = 1\nb = 3\n\n") == []

    def test_exact_block_is_not_its_business(self):
        assert BlockAnchorTier().find(self.content, self.content) == []


@pytest.mark.parametrize(
    "tier",
    [
        ExactTier(),
        LineTrimmedTier(),
        BoundaryTrimTier(),
        UnescapeTier(),
        UnicodePunctuationTier(),
        WhitespaceTier(),
        ElisionTier(),
        BlockAnchorTier(),
    ],
    ids=lambda tier: tier.name,
)
def test_every_tier_finds_nothing_for_absent_text(tier):
    content = "alpha = 1\nbeta = 2\ngamma = 3\n"
    assert tier.find(content, "completely\nunrelated\ntext here\n") == []


class TestTypoCarrying:
    def test_an_edit_beside_a_misquoted_quote_style_merges(self):
        content = self.content
        old = content.replace("'empty'", '"empty"').rstrip("\n")
        new = old.replace('"empty"', '"empty", code=1')
        (match,) = BlockAnchorTier().find(content, old)
        assert apply(content, match, new) == content.replace("'empty'", "'empty', code=1")

    content = (
        "def load(self):\n"
        "    data = read_all(self.path)\n"
        "    if not data:\n"
        "        raise LoadError('empty', path=self.path)\n"
        "    return data\n"
    )

    def test_misquoted_word_in_an_edited_line_is_put_right(self):
        old = self.content.replace("self.path)", "self.pth)", 1).rstrip("\n")
        new = old.replace("read_all(self.pth)", "read_all(self.pth, 'utf-8')")
        (match,) = BlockAnchorTier().find(self.content, old)
        assert apply(self.content, match, new) == self.content.replace(
            "read_all(self.path)", "read_all(self.path, 'utf-8')"
        )

    def test_misquoted_name_in_an_edited_line_is_put_right(self):
        old = self.content.replace("LoadError", "LoadErorr").rstrip("\n")
        new = old.replace("'empty'", "'empty file'")
        (match,) = BlockAnchorTier().find(self.content, old)
        out = apply(self.content, match, new)
        assert out == self.content.replace("'empty'", "'empty file'")

    def test_a_line_inserted_before_the_edited_misquote_does_not_take_its_fix(self):
        old = self.content.replace("read_all", "raed_all").rstrip("\n")
        new = old.replace(
            "    data = raed_all(self.path)",
            "    log('loading')\n    data = raed_all(self.path, 1)",
        )
        (match,) = BlockAnchorTier().find(self.content, old)
        assert apply(self.content, match, new) == self.content.replace(
            "    data = read_all(self.path)",
            "    log('loading')\n    data = read_all(self.path, 1)",
        )

    def test_a_rewritten_line_keeps_the_trailing_whitespace_it_was_written_with(self):
        content = "a = 1\nb = 2\ncould be fonud here \nc = 3\nd = 4\n"
        content = content.replace("fonud", "found")
        old = "a = 1\nb = 2\ncould be fonud here \nc = 3\nd = 4"
        new = "a = 1\nb = 2\ncould be found here \nc = 3\nd = 5"
        (match,) = BlockAnchorTier().find(content, old)
        assert apply(content, match, new) == content.replace("d = 4", "d = 5")

    def test_a_misquote_that_cannot_be_carried_makes_the_tier_step_back(self):
        from editengine.matching._base import DoubtfulMatch

        old = self.content.replace("LoadError", "LoadErorr").rstrip("\n")
        new = old.replace("LoadErorr", "LoadFailure")  # rewrites the very letters misquoted
        (match,) = BlockAnchorTier().find(self.content, old)
        with pytest.raises(DoubtfulMatch):
            match.rewrite(new)


MARKERS = [
    "...", "…", "[...]", "// ...", "# ... existing code ...", "/* ... */", "<!-- ... -->",
    "// existing code", "# existing code here", "# rest of the file unchanged", "// rest of code",
    "# Rest of the implementation", "// other methods unchanged", "// unchanged",
    "# (unchanged)", "// code omitted", "# omitted for brevity", "// same as before",
    "(rest of file ...)", "[existing code ...]", "<!-- rest of the file unchanged -->",
    "// Rest of the code remains the same",
]  # fmt: skip
NOT_MARKERS = [
    "# Otherwise, we have to preserve the long word intact.  Only add",
    "# more tests below", "# other code paths handle this", "# Remaining bytes are ignored",
    "// rest of the args are passed through", "# TODO: handle the error case", "// other",
    "  # etc.",
]  # fmt: skip


@pytest.mark.parametrize("line", MARKERS)
def test_elision_markers_are_recognised(line):
    assert is_marker(line) and is_marker("    " + line)


@pytest.mark.parametrize("line", NOT_MARKERS)
def test_comments_that_only_start_like_a_marker_are_code(line):
    assert not is_marker(line)


class TestElisionDetails:
    def test_new_may_spell_out_what_old_skipped(self):
        content = "def f():\n    a()\n    b()\n    return 1\n"
        old = "def f():\n    # ...\n    return 1"
        new = "def f():\n    a()\n    b()\n    return 2"
        (match,) = ElisionTier().find(content, old)
        assert apply(content, match, new) == "def f():\n    a()\n    b()\n    return 2\n"

    def test_spelled_out_lines_of_a_shallower_quote_move_with_it(self):
        content = "class A:\n    def f(self):\n        a = 1\n        b = 2\n        return a\n"
        old = "    a = 1\n# ... existing code ...\n    return a"
        new = "    a = 10\n    b = 2\n    return a"
        (match,) = ElisionTier().find(content, old)
        assert apply(content, match, new) == content.replace("a = 1", "a = 10")

    def test_spelled_out_lines_of_a_shallower_tab_indented_quote_move_with_it(self):
        content = (
            "\tswitch (a) {\n\t\tcase 1:\n\t\t\tx()\n\t\t\tbreak\n\t\tcase 2:\n\t\t\ty()\n\t}\n"
        )
        old = "switch (a) {\n\tcase 1:\n\t\tx()\n\t\t// ... rest of the function ...\n\t\ty()"
        new = "switch (a) {\n\t// first\n\tcase 1:\n\t\tx()\n\t\tbreak\n\tcase 2:\n\t\ty()"
        result = edit_text(content, old, new)
        assert result.strategy == "elision"
        assert result.new_content == content.replace("\t\tcase 1:", "\t\t// first\n\t\tcase 1:")

    def test_blank_lines_kept_around_a_marker_are_not_doubled(self):
        content = "import a\n\nsetup()\n\nLIMIT = 5\n"
        old = "import a\n\n# ...\n\nLIMIT = 5"
        new = "import a\n\n# ...\n\nLIMIT = 6"
        (match,) = ElisionTier().find(content, old)
        assert apply(content, match, new) == "import a\n\nsetup()\n\nLIMIT = 6\n"

    def test_of_two_openings_the_one_nearest_the_close_is_meant(self):
        content = "steps:\n  - a\nother:\n  x\nsteps:\n  - a\n  - b\nend\n"
        (match,) = ElisionTier().find(content, "steps:\n  - a\n  # ...\nend")
        assert content[: match.start].count("\n") == 4


class TestMerge3:
    @pytest.mark.parametrize(
        ("base", "ours", "theirs", "merged"),
        [
            ("retrun x", "return x", "retrun y", "return y"),  # the typo repeated: fixed
            ("x = lenngth(a)", "x = length(a)", "y = lenngth(a)", "y = length(a)"),
            # The rewrite fixed the typo itself: the fix is not applied a second time.
            ("x = lenngth(a)", "x = length(a)", "y = length(a)", "y = length(a)"),
            ("lenngth", "length", "length", "length"),
            ("foo(a,, b)", "foo(a, b)", "foo(a,, b, c)", "foo(a, b, c)"),
            # Fixed by the rewrite, though the shortest path pairs the typo's ``t`` with
            # ``count``'s: taken as written.
            (
                "atios, maximumt",
                "ratios, maximums",
                "ratios, maximums_count",
                "ratios, maximums_count",
            ),
        ],
    )
    def test_merges(self, base, ours, theirs, merged):
        assert merge3(base, ours, theirs) == merged


def test_an_elided_stretch_keeps_the_file_s_whitespace_only_edges():
    content = "a()\n    \nb()\nc()\n  \nd()\n"
    old = "a()\n\n# ...\n\nd()"
    new = "a(1)\n\n# ...\n\nd()"
    (match,) = ElisionTier().find(content, old)
    assert apply(content, match, new) == content.replace("a()", "a(1)")


def test_blank_lines_the_quote_did_not_have_beside_a_marker_are_new_string_s_own():
    content = "intro\nskipped\n\n\n### Header\n\nbody\n"
    old = "intro\n[...]\n\n### Header\n\nbody"  # one blank quoted after the marker
    new = "intro\n[...]\n\n\nbody"  # the header deleted, both blank lines kept
    (match,) = ElisionTier().find(content, old)
    assert apply(content, match, new) == "intro\nskipped\n\n\n\nbody\n"


class TestMovedLineBreaks:
    content = "def f():\n    call(alpha,\n         beta)\n    return 1\n"

    def edit(self, content: str, old: str, new: str) -> str:
        (match,) = WhitespaceTier().find(content, old)
        return apply(content, match, new)

    def test_a_line_added_after_a_joined_call_keeps_the_call_s_breaks(self):
        out = self.edit(self.content, "call(alpha, beta)\n", "call(alpha, beta)\nlog('done')\n")
        assert out == "def f():\n    call(alpha,\n         beta)\n    log('done')\n    return 1\n"

    def test_a_line_added_before_it_takes_the_call_s_depth(self):
        out = self.edit(self.content, "call(alpha, beta)", "log('start')\ncall(alpha, beta)")
        assert out == "def f():\n    log('start')\n    call(alpha,\n         beta)\n    return 1\n"

    def test_a_renamed_argument_is_renamed_where_the_file_has_it(self):
        out = self.edit(self.content, "call(alpha, beta)", "call(alpha, gamma)")
        assert out == self.content.replace("beta)", "gamma)")

    def test_a_new_string_written_with_the_file_s_breaks_is_written_as_it_is(self):
        content = "x = [\n    1, 2,\n    3,\n]\n"
        out = self.edit(content, "x = [\n    1, 2, 3,\n]", "x = [\n    1, 2,\n    4,\n]")
        assert out == "x = [\n    1, 2,\n    4,\n]\n"

    @pytest.mark.parametrize(
        ("old", "new", "expected"),
        [
            # The quote's final newline was eaten with the span: it is given back.
            ("call(alpha, beta)\n", "call(alpha, gamma)", "    call(alpha,\n         gamma)\n"),
            # No final newline quoted: new_string's own is an added line break.
            ("call(alpha, beta)", "call(alpha, gamma)\n", "    call(alpha,\n         gamma)\n\n"),
            ("call(alpha, beta)", "call(alpha, gamma)", "    call(alpha,\n         gamma)\n"),
        ],
    )
    def test_the_final_newline_rule(self, old, new, expected):
        assert self.edit("    call(alpha,\n         beta)\n", old, new) == expected

    def test_a_file_ending_without_a_newline_does_not_get_one(self):
        content = "    call(alpha,\n         beta)"
        out = self.edit(content, "call(alpha, beta)\n", "call(alpha, gamma)\n")
        assert out == "    call(alpha,\n         gamma)"

    # A JSON list whose quote joins ``},`` and ``{`` on one line, as an agent reformatting
    # it might; new_string is written with the file's breaks.
    records = (
        '[\n  {\n    "name": "a"\n  },\n  {\n    "author": true\n  },\n  {\n    "n": 2\n  }\n]\n'
    )
    joined = '  },\n  {\n    "author": true\n  }, {'

    def test_a_space_new_string_adds_inside_a_string_literal_is_kept(self):
        new = '  },\n  {\n    "author (deprecated)": true\n  },\n  {'
        result = edit_text(self.records, self.joined, new)
        assert result.strategy == "whitespace"
        assert result.new_content == self.records.replace('"author"', '"author (deprecated)"')

    def test_text_added_where_the_file_is_spaced_as_quoted_keeps_new_string_s_spacing(self):
        new = '  },\n  {\n    "author": true, "note": "x y"\n  },\n  {'
        result = edit_text(self.records, self.joined, new)
        assert result.new_content == self.records.replace("true\n", 'true, "note": "x y"\n', 1)

    def test_a_new_string_in_the_file_s_frame_keeps_its_tabs(self):
        # The quote breaks the last line in two; new_string deletes the first line and
        # keeps the others as the file has them, tabs and all.
        content = "/*\n   - drop this step.\n\t keep this line,\n\t and this one too.\n */\n"
        old = "   - drop this step.\n\t keep this line,\n\t and this\n\t one too.\n"
        new = "\t keep this line,\n\t and this one too.\n"
        out = self.edit(content, old, new)
        assert out == "/*\n\t keep this line,\n\t and this one too.\n */\n"
