"""The line view the tolerant tiers share: words looked up once, lines answered from one
pass, runs of lines found under any key, the indentation a block is written in, and the
blank lines a quote was padded with."""

from __future__ import annotations

import pytest

from editengine import edit_text
from editengine.matching import _search as search
from editengine.matching._indent_style import IndentStyle
from editengine.matching._lines import (
    LineView,
    find_line_blocks,
    line_view,
    may_hold_the_words_of,
    strip_key,
    with_quoted_padding,
    without_blank_edges,
)

SPACES_4 = IndentStyle(False, 4)
SPACES_2 = IndentStyle(False, 2)
TABS = IndentStyle(True, 1)


# ------------------------------------------------------------------------- looking up words


def test_a_piece_found_missing_is_remembered_missing() -> None:
    view = LineView("alpha beta")
    assert view.may_hold_all(["gamma"]) is False
    assert view.may_hold_all(["gamma"]) is False  # answered from memory


def test_a_piece_found_is_remembered_found_wherever_it_stands() -> None:
    view = LineView("xabc")  # found at offset 1
    assert view.may_hold_all(["abc"]) is True
    assert view.may_hold_all(["abc"]) is True


def test_looking_up_goes_on_until_the_reading_budget_is_overspent() -> None:
    # Twice the text may be read: "abcd" and "bcd" read 4 characters each, exactly the
    # budget of 8, so "zz" is still looked up and found missing.
    assert LineView("abcd").may_hold_all(["abcd", "bcd", "zz"]) is False
    # "cd" overspends it: what is left goes unread.
    assert LineView("abcd").may_hold_all(["abcd", "bcd", "cd", "zz"]) is True


def test_a_word_missing_at_the_start_of_the_quote_rules_the_text_out() -> None:
    # The text holds "xyz", the first word less its first letter, but not "wxyz".
    assert may_hold_the_words_of("xyz abc", "wxyz abc") is False
    assert may_hold_the_words_of("wxyz abc", "wxyz abc") is True


def test_a_long_quote_is_judged_by_the_words_of_its_head_and_tail() -> None:
    text = "present"
    quote = "present " * 600 + "absentword " + "present " * 600
    assert may_hold_the_words_of(text, quote) is True  # the middle goes unread
    assert may_hold_the_words_of(text, "present absentword") is False


# ------------------------------------------------------------------ lines found in one pass


def test_lines_looked_up_in_one_pass_are_answered_without_searching_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = LineView("a\n  b\nb\nc\n")
    view.look_up_stripped_equal(["b", "c", "zz"], limit=4)

    def no_search(*args: object) -> int:
        raise AssertionError("the text was searched again")

    monkeypatch.setattr(search, "find", no_search)
    assert view.lines_stripped_equal("b", limit=4) == [1, 2]
    assert view.lines_stripped_equal("c", limit=4) == [3]
    assert view.lines_stripped_equal("zz", limit=4) == []


def test_a_limit_past_the_index_bound_still_answers_none_for_more_lines() -> None:
    # Past 256 places a key is answered from the index of every line, but only when no
    # limit is asked for: the limit still holds.
    view = LineView("x\n" * 400)
    assert view.lines_stripped_equal("x", limit=300) is None
    assert view.lines_stripped_equal("x") == list(range(400))


def test_a_line_found_a_few_times_is_found_without_indexing_every_line() -> None:
    view = LineView("x\ny\nx\n")
    assert view.lines_stripped_equal("x") == [0, 2]
    assert "stripped_index" not in view.__dict__


def test_a_translated_text_is_searched_under_the_same_limit() -> None:
    view = LineView("x\nx\nx\n")
    assert view.lines_stripped_equal("y", limit=1, text="y\ny\ny\n") is None
    assert view.lines_stripped_equal("y", text="y\ny\ny\n") == [0, 1, 2]


def test_questions_about_one_line_are_counted_as_many_times_as_the_view_has_lines() -> None:
    # Each question costs at least one line (a 1,500-line view: 1,500 // 1,024 is one);
    # once the questions have cost as many lines as the view has, the list answers.
    view = LineView("x\n" * 1_499 + "x")
    for _ in range(1_500):
        assert view.start(0) == 0
    assert "_bounds" not in view.__dict__
    assert view.start(0) == 0
    assert "_bounds" in view.__dict__


# ------------------------------------------------------------------------ shared views


def test_texts_alike_at_both_ends_but_not_between_get_views_of_their_own() -> None:
    # Same length, same first and last 256 characters: only the middle tells them apart.
    text = "a" * 300 + "X" + "a" * 300
    other = "a" * 300 + "Y" + "a" * 300
    assert line_view(other) is not line_view(text)
    assert line_view(other).text is other


def test_the_four_views_used_last_are_kept_and_the_fifth_is_let_go() -> None:
    texts = [f"kept view {number}\n" for number in range(5)]
    views = [line_view(text) for text in texts]
    for text, view in zip(texts[1:], views[1:]):
        assert line_view(text) is view
    assert line_view(texts[0]) is not views[0]


# ------------------------------------------------------------------------ runs of lines


def _folded(line: str) -> str:
    return line.strip().casefold()


@pytest.mark.parametrize("indexed", [False, True], ids=["fresh view", "stripped lines indexed"])
def test_runs_are_found_under_a_key_of_the_callers_own(indexed: bool) -> None:
    view = LineView("Begin\n  RETURN X\nend\nreturn x\nend\n")
    if indexed:
        view.stripped_index  # noqa: B018 - built as a tier of many segments builds it
    # Keyed by the caller's function on every file line, not by the stripped text.
    assert find_line_blocks(view, ["return x", "end"], _folded) == [1, 3]
    assert find_line_blocks(view, ["begin"], _folded) == [0]


def test_a_quote_line_missing_from_the_indexed_file_finds_no_run() -> None:
    view = LineView("a\nb\n")
    view.stripped_index  # noqa: B018 - the index path: the missing line is the rarest
    assert find_line_blocks(view, ["a", "zzz"], strip_key) == []


def test_a_run_cannot_start_before_the_first_line() -> None:
    # The anchor "bb" on line 0 would put the run's start at line -1, which is the last
    # line, "a", counted from the end: no run.
    assert find_line_blocks(LineView("bb\nq\na"), ["a", "bb"], strip_key) == []


def test_an_anchor_too_early_does_not_stop_the_later_ones() -> None:
    assert find_line_blocks(LineView("bb\na\nbb"), ["a", "bb"], strip_key) == [1]


def test_a_quoted_blank_line_does_not_match_the_nothing_after_the_final_newline() -> None:
    view = LineView("q\naa\n")
    assert find_line_blocks(view, ["aa", ""], strip_key) == []
    assert find_line_blocks(LineView("q\naa\n\n"), ["aa", ""], strip_key) == [1]


# ------------------------------------------------------------------- a block's indentation


def test_the_style_near_a_line_reads_three_hundred_lines_either_side() -> None:
    # One 2-space line at the top, then unindented lines: it is seen from line 300, not
    # from line 301.
    view = LineView("\n".join(["  a"] + ["x"] * 700))
    assert view.indent_near(0) == SPACES_2
    assert view.indent_near(300) == SPACES_2
    assert view.indent_near(301) == SPACES_4
    assert view.indent_of_block(300, 1) == SPACES_2
    assert view.indent_of_block(301, 1) == SPACES_4


def test_a_blocks_style_is_read_around_its_own_first_line() -> None:
    # 200 lines indented by two spaces, then 800 by four.
    view = LineView("\n".join(["x", "  y"] * 100 + ["x", "    y"] * 400))
    assert view.indent_of_block(0, 1) == SPACES_2
    assert view.indent_of_block(400, 1) == SPACES_4
    # Line 195 has more 4-space lines than 2-space ones within 300 lines, none within 5.
    assert view.indent_of_block(195, 1) == SPACES_4
    assert view.indent_of_block(195, 1, radius=5) == SPACES_2


def test_a_tab_indented_block_in_a_file_of_spaces_keeps_its_tabs() -> None:
    content = (
        "def f():\n    a = 1\n    if a:\n        b = 2\n\tc = 3\n\tif c:\n\t\td = 4\n    return a\n"
    )
    assert LineView(content).indent_of_block(4, 3) == TABS
    result = edit_text(content, "c = 3\nif c:\n    d = 4", "c = 3\nif c:\n    d = 4\n    e = 5")
    assert result.new_content == content.replace("\t\td = 4\n", "\t\td = 4\n\t\te = 5\n")


def test_an_unindented_block_takes_the_style_around_it() -> None:
    assert LineView("def f():\n  a\n  b\nx = 1\ny = 2\n").indent_of_block(3, 2) == SPACES_2
    assert LineView("def f():\n\ta\n\tb\nx = 1\ny = 2\n").indent_of_block(3, 2) == TABS


def test_a_space_indented_block_in_a_file_of_tabs_takes_the_width_of_its_space_lines() -> None:
    # Among the lines led by spaces, the step from the top line's 2 to nothing tells the width.
    view = LineView("  y\n\ta\n\tb\n\tc\n            x\n\td\n")
    assert view.indent_of_block(4, 1) == SPACES_2
    # No space-led line tells a width (a 12-column step is no level): four columns.
    view = LineView("\ta\n\tb\n\tc\n            x\n\td\n")
    assert view.indent_of_block(3, 1) == SPACES_4
    # The block's only space-led line lies past the lines read around it: four columns too.
    view = LineView("\n".join(["\ta"] * 10 + ["x"] * 300 + ["            y"]))
    assert view.indent_of_block(10, 301) == SPACES_4


# ------------------------------------------------------------------------- blank edges


def test_blank_lines_at_the_quotes_edges_are_taken_off_new_string_as_many_as_quoted() -> None:
    old_lines, trim_new = without_blank_edges("\nfoo\n\n")
    assert old_lines.lines == ["foo"]
    assert old_lines.trailing_newline is True
    assert trim_new("\nFOO\n\n") == "FOO\n"
    assert trim_new("\nFOO") == "FOO"
    assert trim_new("\nA\nB\n\n") == "A\nB\n"
    # One more blank line at the end than quoted: that one stays.
    assert trim_new("\nFOO\n\n\n") == "FOO\n\n"


def test_new_string_without_blank_edges_is_left_as_it_is() -> None:
    _, trim_new = without_blank_edges("\nfoo\n\n")
    assert trim_new("FOO\nBAR") == "FOO\nBAR"
    assert trim_new("  ") == "  "  # a single line is never taken off
    _, trim_new = without_blank_edges("foo\n\n")
    assert trim_new("FOO\n") == "FOO\n"  # its final newline is kept


def test_new_string_is_padded_with_the_blank_lines_the_quote_had() -> None:
    assert with_quoted_padding(["", "a"], ["b"]) == ["", "b"]
    assert with_quoted_padding(["a", ""], ["", "b"]) == ["", "b", ""]
    # A blank quote pads only once, before.
    assert with_quoted_padding(["", ""], ["x"]) == ["", "", "x"]


def test_new_string_already_padded_is_not_padded_again() -> None:
    assert with_quoted_padding(["", "a"], ["", "b"]) == ["", "b"]
    assert with_quoted_padding(["a", ""], ["b", ""]) == ["b", ""]
