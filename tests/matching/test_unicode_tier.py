"""The unicode punctuation tier: which typography new_string ends up with, and where."""

from __future__ import annotations

import pytest

from editengine.matching import UnicodePunctuationTier
from editengine.matching._base import Match
from editengine.matching._unicode import keep_typography


def _apply(content: str, match: Match, new: str) -> str:
    replacement = match.rewrite(new) if match.rewrite else new
    return content[: match.start] + replacement + content[match.end :]


class TestNewStringTypography:
    def test_marks_the_file_never_uses_are_turned_to_ascii_in_new_text_too(self):
        content = 'msg = "hello"\n'
        (match,) = UnicodePunctuationTier().find(content, "msg = “hello”")
        edited = _apply(content, match, "msg = “bye” + “all”")
        assert edited == 'msg = "bye" + "all"\n'

    def test_marks_the_file_uses_are_kept_in_new_text(self):
        content = 'msg = “hi”\nalt = "x"\n'
        (match,) = UnicodePunctuationTier().find(content, "msg = “hi”")
        edited = _apply(content, match, "msg = “hi” + “there”")
        assert edited == 'msg = “hi” + “there”\nalt = "x"\n'

    def test_a_place_found_verbatim_after_mapping_is_a_full_match(self):
        content = 'a = "x"\nb = "y"\n'
        matches = UnicodePunctuationTier().find(content, "= “x”")
        assert [(m.start, m.end, m.similarity) for m in matches] == [(2, 7, 1.0)]

    def test_lines_found_at_another_depth_get_ascii_marks_in_new_text_too(self):
        content = 'if ready:\n    msg = "hi"\n'
        (match,) = UnicodePunctuationTier().find(content, "if ready:\n  msg = “hi”")
        edited = _apply(content, match, "if ready:\n  msg = “bye” + “all”")
        assert edited == 'if ready:\n    msg = "bye" + "all"\n'

    def test_a_line_new_string_repeats_is_copied_from_the_file_byte_for_byte(self):
        # Equal to the quoted line once the marks are ASCII: the file's line, trailing
        # spaces and all, is kept.
        content = 'if ok:\n    say("hi")  \n    x = 1\n'
        (match,) = UnicodePunctuationTier().find(content, "if ok:\n  say(“hi”)\n  x = 1")
        edited = _apply(content, match, "if ok:\n  say(“hi”)\n  x = 2")
        assert edited == 'if ok:\n    say("hi")  \n    x = 2\n'


class TestSpelledOut:
    def test_an_em_dash_the_file_writes_as_two_hyphens_is_a_full_match(self):
        content = "x = a -- b\n"
        (match,) = UnicodePunctuationTier().find(content, "a — b")
        assert (match.start, match.end, match.similarity) == (4, 10, 1.0)
        assert _apply(content, match, "a — c") == "x = a -- c\n"


@pytest.mark.parametrize(
    ("new", "old", "file_text", "expected"),
    [
        # The characters new_string copied from old_string take the file's typography.
        ("print(“bye”)", "print(“hi”)", 'print("hi")', 'print("bye")'),
        ("x = “b”", "x = “a”", 'x = "a"', 'x = "b"'),
        ("“A” + “B”", "“a” + “b”", '"a" + "b"', '"A" + "B"'),
        ("“tail” “head”", "“head” “tail”", '"head" "tail"', '"tail" "head"'),
        ("“hi” and “bye” and “hi”", "“hi” and “hi”", '"hi" and "hi"', '"hi" and "bye” and “hi"'),
        # What new_string adds, before or between what it kept, stays its own.
        ("x = “a”", "“a”", '"a"', 'x = "a"'),
        ("so x", "x“", 'x"', "so x"),
        ("— x", "x —", "x -", "— x"),
        ("yx“", "xy“", 'xy"', 'yx"'),
        ("““xx", "“xx", '"xx', '"“xx'),
    ],
)
def test_keep_typography_copies_the_file_only_where_new_string_repeats_old(
    new, old, file_text, expected
):
    assert keep_typography(new, old, file_text) == expected


def test_keep_typography_leaves_new_string_alone_when_old_is_the_files_text():
    assert keep_typography("“b”", "“a”", "“a”") == "“b”"
