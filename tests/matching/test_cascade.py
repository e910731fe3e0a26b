"""The cascade's rules: counts, ambiguity, modes, special old/new values, style keeping."""

from __future__ import annotations

import pytest

from editengine import (
    DEFAULT_CASCADE,
    AmbiguousMatch,
    BadRequest,
    Cascade,
    CountMismatch,
    NoMatch,
    OverwriteRequired,
    UnmatchedElision,
    edit_text,
)
from editengine.matching import BlockAnchorTier, ExactTier, LineTrimmedTier


class TestCounts:
    def test_two_exact_matches_are_ambiguous_with_their_lines(self):
        with pytest.raises(AmbiguousMatch) as info:
            edit_text("x = 1\ny = 2\nx = 1\n", "x = 1", "x = 3")
        assert [c.start_line for c in info.value.candidates] == [1, 3]
        assert "line 1, line 3" in str(info.value)
        assert info.value.code == "ambiguous"

    def test_a_looser_tier_never_resolves_a_stricter_ambiguity(self):
        # exact finds "x = 1" twice; line-trimmed alone would find only the indented one.
        content = "x = 1\nif a:\n    x = 1\n"
        with pytest.raises(AmbiguousMatch) as info:
            edit_text(content, "x = 1", "x = 2")
        assert info.value.tier == "exact"

    def test_expected_replacements_matches(self):
        result = edit_text("a a a", "a", "b", expected_replacements=3)
        assert result.new_content == "b b b" and result.replacements == 3

    def test_expected_replacements_mismatch(self):
        with pytest.raises(CountMismatch) as info:
            edit_text("a a", "a", "b", expected_replacements=3)
        assert (info.value.expected, info.value.found) == (3, 2)
        assert info.value.code == "count_mismatch"

    def test_replace_all_changes_every_candidate_of_the_winning_tier(self):
        result = edit_text("foo(1)\nfoo(2)\n", "foo", "bar", replace_all=True)
        assert result.new_content == "bar(1)\nbar(2)\n" and result.replacements == 2

    def test_replace_all_with_a_count_that_disagrees(self):
        with pytest.raises(CountMismatch):
            edit_text("a a", "a", "b", replace_all=True, expected_replacements=3)

    def test_replace_all_through_a_tolerant_tier(self):
        content = "if a:\n    go()\n    stop()\nif b:\n    go()\n    stop()\n"
        result = edit_text(content, "go()\nstop()", "go()\nwait()", replace_all=True)
        assert result.strategy == "line_trimmed"
        assert result.new_content == content.replace("stop()", "wait()")

    @pytest.mark.parametrize("count", [{"replace_all": True}, {"expected_replacements": 1}])
    def test_a_respaced_quote_also_inside_a_longer_expression_is_not_partly_replaced(self, count):
        content = "x = foo\ny = 1\nx = foo (a, b)\n"
        with pytest.raises(AmbiguousMatch) as info:
            edit_text(content, "x=foo", "x = bar", **count)
        assert "line 3" in str(info.value)

    def test_a_single_respaced_edit_takes_the_clean_place(self):
        content = "x = foo\ny = 1\nx = foo (a, b)\n"
        assert edit_text(content, "x=foo", "x = bar").new_content == content.replace(
            "x = foo\n", "x = bar\n", 1
        )

    @pytest.mark.parametrize("bad", [0, -1, True, "2", 1.5])
    def test_bad_expected_replacements(self, bad):
        with pytest.raises(BadRequest):
            edit_text("a", "a", "b", expected_replacements=bad)

    def test_non_string_arguments(self):
        with pytest.raises(BadRequest):
            edit_text("a", None, "b")  # type: ignore[arg-type]  # a wrong type on purpose
        with pytest.raises(BadRequest):
            edit_text(b"a", "a", "b")  # type: ignore[arg-type]  # a wrong type on purpose


class TestFuzzyAcceptance:
    block = "def {name}(items):\n    total = 0\n    for item in items:\n        total += item.{f}\n"

    def test_near_duplicates_are_refused_not_guessed(self):
        content = (
            self.block.format(name="a", f="price") + "\n" + self.block.format(name="b", f="price")
        )
        old = "    total = 0\n    for item in itemz:\n        total += item.price"
        with pytest.raises(AmbiguousMatch) as info:
            edit_text(content, old, old.replace("price", "cost"))
        assert info.value.tier == "block_anchor"
        assert len(info.value.candidates) == 2

    def test_clear_winner_is_accepted(self):
        content = (
            self.block.format(name="a", f="price") + "\n" + self.block.format(name="b", f="weight")
        )
        old = "    total = 0\n    for item in itemz:\n        total += item.price"
        result = edit_text(content, old, old.replace("price", "cost"))
        assert result.strategy == "block_anchor"
        assert "item.cost" in result.new_content and "item.weight" in result.new_content
        assert "itemz" not in result.new_content

    def test_threshold_is_enforced(self):
        tier_cascade = Cascade([ExactTier(), _StrictAnchor()])
        content = self.block.format(name="a", f="price")
        old = "    total = 0\n    for item in itemz:\n        total += item.price"
        with pytest.raises(NoMatch) as info:
            edit_text(content, old, old.replace("price", "cost"), cascade=tier_cascade)
        assert info.value.trace[-1].outcome == "refused"


def _StrictAnchor():
    return BlockAnchorTier(threshold=0.999)


class TestModes:
    content = "if a:\n    go()\n"

    def test_exact_mode_refuses_what_auto_accepts(self):
        assert edit_text(self.content, "if a:\ngo()", "if a:\nrun()").strategy == "line_trimmed"
        with pytest.raises(NoMatch):
            edit_text(self.content, "if a:\ngo()", "if a:\nrun()", match_mode="exact")

    def test_line_trimmed_mode(self):
        result = edit_text(self.content, "if a:\ngo()", "if a:\nrun()", match_mode="line_trimmed")
        assert result.new_content == "if a:\n    run()\n"

    def test_block_anchor_mode_includes_the_stricter_tiers(self):
        assert "exact" in [t.name for t in DEFAULT_CASCADE.tiers_for("block_anchor")]

    def test_unknown_mode(self):
        with pytest.raises(BadRequest) as info:
            edit_text(self.content, "go()", "run()", match_mode="telepathy")
        assert "exact" in str(info.value)

    def test_custom_cascade_and_without(self):
        cascade = DEFAULT_CASCADE.without("line_trimmed", "whitespace", "block_anchor")
        assert "line_trimmed" not in cascade.tier_names
        with pytest.raises(NoMatch):
            edit_text("    go()\n    stop()\n", "go()\n  stop()", "x", cascade=cascade)

    def test_duplicate_tier_names_rejected(self):
        with pytest.raises(ValueError):
            Cascade([ExactTier(), ExactTier()])


class TestSpecialEdits:
    def test_empty_old_replaces_the_whole_file_when_asked_to_overwrite(self):
        result = edit_text("old\n", "", "new\n", overwrite=True)
        assert result.new_content == "new\n" and result.strategy == "whole_file"

    def test_empty_old_on_a_file_with_content_needs_overwrite(self):
        with pytest.raises(OverwriteRequired) as refused:
            edit_text("old\n", "", "new\n")
        assert refused.value.code == "overwrite_required"
        assert "overwrite=true" in refused.value.hint and "expected_hash" in refused.value.hint

    def test_empty_old_on_a_blank_file_needs_no_overwrite(self):
        assert edit_text("", "", "new\n").new_content == "new\n"
        assert edit_text("\n  \n", "", "new\n").new_content == "new\n"

    def test_empty_old_keeps_crlf_and_bom_of_an_existing_file(self):
        result = edit_text("\ufeffa\r\nb\r\n", "", "x\ny\n", overwrite=True)
        assert result.new_content == "\ufeffx\r\ny\r\n"

    def test_empty_old_and_new_on_a_file_with_content_is_refused(self):
        with pytest.raises(BadRequest):
            edit_text("keep me", "", "")

    def test_identical_old_and_new_is_a_no_op(self):
        result = edit_text("a = 1\n", "a = 1", "a = 1")
        assert result.no_change and result.strategy == "no_op" and result.new_content == "a = 1\n"

    def test_already_applied_edit_containing_old_is_not_applied_twice(self):
        content = "import os\nimport sys\n"
        result = edit_text(content, "import os", "import os\nimport sys")
        assert result.strategy == "already_applied" and result.no_change
        assert result.new_content == content

    def test_already_applied_when_old_is_gone_and_new_is_there(self):
        content = "def f():\n    return compute(a, b)\n"
        result = edit_text(content, "    return compute(a)", "    return compute(a, b)")
        assert result.strategy == "already_applied" and result.new_content == content
        assert "line 2" in result.note

    def test_new_already_elsewhere_is_no_retry_while_old_is_still_here(self):
        # Two similar blocks: the edit makes the first like the second, which is no sign
        # that it was made before.
        content = "if (n < 11) {\n    goto skip;\n}\nif (n < 12) {\n    goto skip;\n}\n"
        old = "if (n < 11) {\n    goto skip;\n}   "  # trailing spaces: not verbatim
        result = edit_text(content, old, "if (n < 12) {\n    goto skip;\n}")
        assert result.strategy == "line_trimmed"
        assert result.new_content == content.replace("n < 11", "n < 12")

    def test_an_absent_quote_is_refused_even_if_its_short_replacement_is_in_the_file(self):
        with pytest.raises(NoMatch):
            edit_text("def f():\n    return 2\n", "return 9", "return 2")

    def test_unrelated_text_that_happens_to_be_there_is_no_retry(self):
        content = "def load_settings(path):\n    return parse(read(path))\n"
        with pytest.raises(NoMatch):
            edit_text(content, "class Cache:\n    pass", "    return parse(read(path))")

    def test_old_inside_new_but_also_elsewhere_is_a_real_edit(self):
        content = "import os\nimport sys\n\nimport os\n"
        with pytest.raises(AmbiguousMatch):
            edit_text(content, "import os", "import os\nimport sys")

    def test_elision_marker_only_in_new_is_refused(self):
        content = "def f():\n    a()\n    return 1\n"
        with pytest.raises(UnmatchedElision) as info:
            edit_text(
                content, "def f():\n    a()\n    return 1", "def f():\n    # ...\n    return 2"
            )
        assert info.value.code == "unmatched_elision"

    def test_dropping_an_elision_marker_is_refused(self):
        content = "def f():\n    a()\n    b()\n    return 1\n"
        with pytest.raises(UnmatchedElision):
            edit_text(content, "def f():\n    # ...\n    return 1", "def f():\n    return 2")

    def test_bare_ellipsis_stub_in_new_is_allowed_when_nothing_is_lost(self):
        result = edit_text(
            "class A:\n    pass\n", "class A:\n    pass", "class A:\n    pass\n    ..."
        )
        assert result.new_content == "class A:\n    pass\n    ...\n"


class TestStyle:
    def test_crlf_file_stays_crlf_only(self):
        result = edit_text("a\r\nb\r\nc\r\n", "a\nb\n", "a\nx\ny\n")
        assert result.new_content == "a\r\nx\r\ny\r\nc\r\n"

    def test_mixed_endings_outside_the_edit_are_untouched(self):
        assert edit_text("a\r\nb\nc\r\n", "b", "B").new_content == "a\r\nB\nc\r\n"

    def test_bom_survives(self):
        assert edit_text("\ufeffa = 1\n", "a = 1", "a = 2").new_content == "\ufeffa = 2\n"

    def test_missing_final_newline_survives(self):
        assert edit_text("a\nb", "b", "c").new_content == "a\nc"

    def test_crlf_in_old_on_an_lf_file(self):
        assert edit_text("a\nb\n", "a\r\nb", "a\r\nc").new_content == "a\nc\n"


class TestNoMatch:
    content = "".join(f"line_{n} = compute({n})\n" for n in range(1, 60))

    def test_carries_the_closest_region_with_line_numbers(self):
        with pytest.raises(NoMatch) as info:
            edit_text(self.content, "line_30 = compote(30)\nline_31 = compute(31)", "x")
        best = info.value.closest[0]
        assert best.start_line == 30 and best.similarity > 0.8
        assert "30\tline_30 = compute(30)" in str(info.value)
        assert info.value.code == "no_match"

    def test_names_the_stretch_of_a_long_line_most_like_a_fragment(self):
        line = " ".join(f"const v{i} = compute(a{i}, b{i});" for i in range(300))
        content = "// bundle\n" + line + "\n// end\n"
        with pytest.raises(NoMatch) as info:
            edit_text(content, "const v150 = compute(a150,b15)", "x")
        best = info.value.closest[0]
        assert (best.start_line, best.end_line) == (2, 2) and best.similarity > 0.9
        assert "const v150 = compute(a150, b150);" in best.text and len(best.text) < 120

    def test_trace_names_every_tier_tried(self):
        with pytest.raises(NoMatch) as info:
            edit_text(self.content, "nothing like it", "x")
        assert [a.tier for a in info.value.trace] == list(DEFAULT_CASCADE.tier_names)

    def test_success_trace_ends_with_the_winner(self):
        result = edit_text("  a()\n  b()\n", "a()\nb()", "a()\nc()")
        assert result.trace[-1].tier == "line_trimmed" and result.trace[-1].outcome == "matched"
        assert result.spans[0].start_line == 1 and result.spans[0].end_line == 2


def test_line_trimmed_tier_alone_in_a_cascade():
    cascade = Cascade([LineTrimmedTier()])
    assert edit_text("  a\n", "a", "b", cascade=cascade).new_content == "  b\n"


def test_space_indented_yaml_keeps_its_two_column_steps():
    content = "jobs:\n  test:\n    steps:\n      - run: |\n"
    content += "          pip install a\n          pip install b\n"
    old = "pip install a\npip install b"
    new = "          pip install a\n          # note\n          pip install b"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace(
        "          pip install b", "          # note\n          pip install b"
    )


def test_a_tier_that_steps_back_lets_the_next_one_try():
    content = (
        "def load(self):\n"
        "    data = read_all(self.path)\n"
        "    if not data:\n"
        "        raise LoadError('empty')\n"
        "    return data\n"
    )
    old = content.replace("LoadError", "LoadErorr").rstrip("\n")
    new = old.replace("LoadErorr", "LoadFailure")
    with pytest.raises(NoMatch) as info:
        edit_text(content, old, new)
    assert ("block_anchor", "refused") in [(a.tier, a.outcome) for a in info.value.trace]


def test_two_overlapping_readings_of_one_stretch_are_ambiguous():
    content = "\t\t\t\t},\n\t\t\t\t{ limit: n })\n\t\t\t},\n\t\t\t{ limit: n })\n\t\t},\n"
    with pytest.raises(AmbiguousMatch):
        edit_text(content, "\t\t\t},\n\t\t\t{ limit:n })\n\t\t},", "\t\t\t},\n\t\t},")


def test_a_one_line_quote_that_also_ends_a_longer_line_is_ambiguous():
    content = "fn a(p: &str) -> Result<u8, E> {\n}\nfn b(\n) -> Result<u8, E> {\n}\n"
    with pytest.raises(AmbiguousMatch):
        edit_text(content, "    ) -> Result<u8, E> {", ") -> Result<u16, E> {")


def test_a_one_line_quote_inside_a_longer_word_is_not_another_place():
    content = "max = 1\n    x = 1\n"
    assert edit_text(content, "x = 1  ", "x = 2").new_content == "max = 1\n    x = 2\n"


def test_a_misquoted_indentation_is_not_copied_into_the_edit():
    content = "def f():\n    if ready:\n        start()\n        wait()\n    return 1\n"
    old = "def f():\n    if ready:\n      strt()\n        wait()"  # typo and depth off
    new = "def f():\n    if ready:\n      strt(now=True)\n        wait()"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("start()", "start(now=True)")


SPACED = "".join(
    f"def f{n}(x):\n    if x:\n        return {n}\n    return 0\n\n" for n in range(40)
)


def test_a_tab_indented_region_in_a_file_of_spaces_stays_tab_indented():
    region = "function g() {\n\tif (ok) {\n\t\tbody: 1,\n\t}\n}\n"
    content = SPACED + region + SPACED
    old = "if (ok) {\n\tbody: 1,"  # the common indentation stripped
    new = "if (ok) {\n\tbody_value: 1,"
    result = edit_text(content, old, new)
    assert result.strategy == "line_trimmed"
    assert result.new_content == content.replace("\t\tbody: 1,", "\t\tbody_value: 1,")


def test_a_space_indented_region_in_a_file_of_tabs_stays_space_indented():
    tabbed = SPACED.replace("        ", "\t\t").replace("    ", "\t")
    region = "def g(x):\n  if x:\n    y = 1\n  return y\n"
    content = tabbed + region + tabbed
    result = edit_text(content, "if x:\n  y = 1", "if x:\n  y = 2\n  z = 3")
    assert result.new_content == content.replace("    y = 1\n", "    y = 2\n    z = 3\n")


class TestFirstLineLostItsIndent:
    CONTENT = "class A:\n    def f(self):\n        if x:\n            y()\n        return x\n"

    def test_new_written_from_column_0_moves_as_a_whole(self):
        old = "def f(self):  \n        if x:\n            y()"  # trailing spaces: not exact
        new = "def f(self):\n    if x:\n        y(1)"
        result = edit_text(self.CONTENT, old, new)
        assert result.new_content == self.CONTENT.replace("y()", "y(1)")

    def test_new_in_the_quote_s_own_frame_moves_only_its_first_line(self):
        old = "def f(self):  \n        if x:\n            y()"
        new = "def f(self):\n        if x:\n            y(1)"
        result = edit_text(self.CONTENT, old, new)
        assert result.new_content == self.CONTENT.replace("y()", "y(1)")

    def test_a_respaced_header_with_a_body_from_column_0(self):
        content = "\n  function oldFunc() {\n    // some code\n  }"
        old = "function  oldFunc() {\n    // some code\n  }"
        new = "function newFunc() {\n  // new code\n}"
        result = edit_text(content, old, new)
        assert result.new_content == "\n  function newFunc() {\n    // new code\n  }"


class TestVerbatimAmongElidedCandidates:
    BLOCK = "if (err) {{\n{i}  log();\n{i}  retry();\n{i}}}\n"
    CONTENT = "void f() {\n" + BLOCK.format(i="  ").replace("if", "  if", 1) + "}\n"
    CONTENT += "void g() {\n  while (1) {\n"
    CONTENT += "".join("    " + line + "\n" for line in BLOCK.format(i="").splitlines())
    CONTENT += "  }\n}\n"
    OLD = "    if (err) {\n      // ...\n      retry();\n    }"  # the depth of g's copy
    NEW = "    if (err) {\n      // ...\n      retry(3);\n    }"

    def test_the_copy_quoted_at_its_own_depth_is_the_one_meant(self):
        result = edit_text(self.CONTENT, self.OLD, self.NEW)
        assert result.strategy == "elision"
        assert [span.start_line for span in result.spans] == [9]
        assert result.new_content.count("retry(3);") == 1
        assert "      retry(3);\n    }\n  }\n}\n" in result.new_content

    def test_quoted_at_neither_depth_it_stays_ambiguous(self):
        deeper = "\n".join("  " + line for line in self.OLD.split("\n"))
        with pytest.raises(AmbiguousMatch) as info:
            edit_text(self.CONTENT, deeper, self.NEW)
        assert [c.start_line for c in info.value.candidates] == [2, 9]

    def test_replace_all_still_edits_every_copy(self):
        result = edit_text(self.CONTENT, self.OLD, self.NEW, replace_all=True)
        assert result.replacements == 2 and result.new_content.count("retry(3);") == 2


def test_a_rewritten_line_keeps_the_file_s_tab_and_alignment_spaces():
    content = "func f() {\n\tx := call(a,\n\t     b)\n\treturn x\n}\n"
    old = "    x := call(a,\n         b)\n    return x"  # tabs quoted as spaces
    new = "    x := call(a,\n         b, c)\n    return x"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("\t     b)", "\t     b, c)")


def test_an_inserted_line_at_the_depth_of_the_line_after_it_moves_with_that_line():
    content = "static int f(P *self,\n\t\tvisit v)\n{\n\tVISIT(self->a);\n\tVISIT(self->b);\n}\n"
    old = "static int f(P *self,\n    visit v)\n{\n  VISIT(self->a);"  # tabs quoted as spaces
    new = "static int f(P *self,\n    visit v)\n{\n  // keep\n  VISIT(self->a);"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("{\n", "{\n\t// keep\n")


def test_whitespace_only_lines_of_the_file_survive_a_realigned_edit():
    content = "run: |\n  a=1\n  \n  b=2\n    \n  c=3\n"
    old = "a=1\n\nb=2\n\nc=3"  # quoted without indentation; blank lines bare
    new = "a=1\n\nb=20\n\nc=3"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("b=2", "b=20")


def test_a_quote_s_trailing_blank_lines_never_add_a_line_at_the_end_of_the_file():
    content = "intro\nlast line.\n\n"
    result = edit_text(content, "intro\nlast line.\n \n\n", "outro\nlast line.\n \n\n")
    assert result.new_content == "outro\nlast line.\n\n"


@pytest.mark.parametrize(
    ("content", "old", "new", "expected"),
    [
        ("a\n  b", "b\n", "c\n", "a\n  c"),
        ("x\na\nb", "\n\na\nb\n\n", "\n\na\nc\nb\n\n", "x\na\nc\nb"),
    ],
)
def test_a_file_without_a_final_newline_does_not_get_one_from_the_quote(
    content, old, new, expected
):
    assert edit_text(content, old, new).new_content == expected


def test_a_new_string_without_the_quote_s_padding_keeps_the_file_s_blank_lines():
    content = "x = 1\n\n\ndef f():\n    return 1\n\nnext_line()\n"
    old = "\n \ndef f():\n    return 1\n  \n"  # padded with whitespace-only lines
    new = "def f():\n    return 2"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("return 1", "return 2")


def test_a_line_quoted_at_the_file_s_depth_does_not_decide_the_frame_of_new():
    content = "```python\nr = Seq(\n    Named(\n        'house', Int().sub(\n"
    content += "            Tag(\n                1\n            )\n        )\n    )\n```\n"
    old = "\t\t\t\t\t\t\t\t1\n\t\t\t\t\t\t)\n\t\t\t\t)\n\t\t)\n```"  # a tab per 2 columns
    new = old.replace("1", "2", 1)
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("    1\n", "    2\n")


class TestATypoInTheOnlyDistinctiveLine:
    CONTENT = (
        "fn f() {\n    if a {\n        if b {\n        }\n    }\n\n    let previousTheme = x;\n}\n"
    )
    OLD = "        }\n    }\n\n    let previouseTheme = x;"  # braces cannot vote

    def test_a_close_likeness_places_it(self):
        result = edit_text(self.CONTENT, self.OLD, self.OLD.replace("= x", "= y"))
        assert result.strategy == "block_anchor"
        assert result.new_content == self.CONTENT.replace("= x", "= y")

    def test_two_places_alike_are_not_told_apart(self):
        content = self.CONTENT + self.CONTENT.replace("fn f", "fn g")
        with pytest.raises((AmbiguousMatch, NoMatch)):
            edit_text(content, self.OLD, self.OLD.replace("= x", "= y"))


def test_lines_quoted_at_one_depth_with_spaces_are_rewritten_with_the_file_s_tabs():
    content = "function f() {\n\treturn {\n\t\t\tfile: a(),\n\t\t\thash: b(),\n\t};\n}\n"
    old = "            file: a(),\t\n            hash: b(),   "  # no step tells the width
    new = "            file: a(),\n            hash: c(),"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("hash: b()", "hash: c()")


def test_a_block_comment_s_aligned_lines_do_not_decide_the_model_s_indentation():
    content = (
        "int f(void)\n{\n    /* clean up */\n    (void)end(&s);\n    return Z_OK;\n}\n\n"
        "/* Decompress until the stream ends.\n   inf() returns Z_OK on success,\n"
        "   Z_DATA_ERROR if the data is bad,\n   Z_MEM_ERROR if out of memory,\n"
        "   Z_ERRNO if a read failed */\n"
    )
    old = (
        "\t(void)end(&s);\n\treturn Z_OK;\n}\n\n/* Decompress until the stream ends.\n"
        "   inf() returns Z_OK on success,\n   Z_DATA_ERROR if the data is bad,\n"
        "   Z_MEM_ERROR if out of memory,\n   Z_ERRNO if a read failed */"
    )  # tabs for the file's four spaces; the comment quoted as it is
    new = old.replace("\t(void)", "\t// why\n\t(void)")
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("    (void)", "    // why\n    (void)")


def test_a_quote_stripped_of_common_indentation_with_new_in_the_file_s_tabs():
    content = "int main(void)\n{\n\tprog = argv[0];\n\tif (bname)\n\t  bname++;\n\treturn 0;\n}\n"
    old = "prog = argv[0];\nif (bname)\n  bname++;"  # its own two-space step kept
    new = "\tprog = argv[0];\n\t// why\n\tif (bname)\n\t  bname++;"
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("\tif (bname)", "\t// why\n\tif (bname)")


def test_a_tab_indented_block_followed_by_an_aligned_comment_stays_tab_indented():
    comment = "/* compress from file to def until the buffer is full or end of\n"
    comment += "   input reached; return the last deflate() value, or Z_ERRNO if\n"
    comment += "   there was a read error on the file, or Z_MEM_ERROR if out of\n"
    comment += "   memory for the compressor */\n"
    content = 'local void quit(char *why)\n{\n\tfprintf(stderr, "abort: %s\\n", why);\n'
    content += "\texit(1);\n}\n\n" + comment
    old = '\tfprintf(stderr, "abort:%s\\n", why);\n\texit(1);\n}\n\n' + comment.rstrip("\n")
    new = old.replace("\tfprintf", "\t// why\n\tfprintf").replace("abort:%s", "abort: %s")
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("\tfprintf", "\t// why\n\tfprintf")


def test_comment_continuation_lines_led_by_one_space_do_not_make_a_tab_block_spaces():
    content = "/* Rich comparison.\n *\n * Needs to be a macro.\n */\n#define CMP(a, b) \\\n"
    content += "\tdo { \\\n\t\tswitch (op) { \\\n\t\t} \\\n\t} while (0)\n"
    old = " * Needs to be a macro.\n */\n#define CMP(a, b) \\\n\tdo { \\"
    new = " * Needs to be a macro.\n */\n#define CMP(a, b) \\\n\t/* why */ \\\n\tdo { \\"
    result = edit_text(content, old.replace("macro", "macr0"), new)
    assert result.new_content == content.replace("\tdo {", "\t/* why */ \\\n\tdo {")


def test_the_trace_says_what_each_tier_was_held_to() -> None:
    from editengine.matching._anchor import BlockAnchorTier
    from editengine.matching._cascade import Cascade
    from editengine.matching._exact import ExactTier

    content = "def f():\n    alpha = 1\n    beta = 2\n    gamma = 3\n    return alpha\n"
    quote = "def f():\n    alpha = 1\n    betta = 2\n    gamma = 3\n    return alpha\n"
    cascade = Cascade([ExactTier(), BlockAnchorTier(threshold=0.8, margin=0.07)])
    edit = cascade.edit(content, quote, quote.replace("gamma = 3", "gamma = 4"))
    held_to = {attempt.tier: (attempt.threshold, attempt.margin) for attempt in edit.trace}
    assert held_to == {"exact": (None, None), "block_anchor": (0.8, 0.07)}
    assert edit.new_content == content.replace("gamma = 3", "gamma = 4")
