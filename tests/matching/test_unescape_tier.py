"""The unescape tier: where an over-escaped old_string stands, and what new_string becomes."""

from __future__ import annotations

from editengine.matching import UnescapeTier
from editengine.matching._base import Match


def _apply(content: str, match: Match, new: str) -> str:
    replacement = match.rewrite(new) if match.rewrite else new
    return content[: match.start] + replacement + content[match.end :]


class TestWhatIsSearched:
    def test_a_quote_with_nothing_it_could_unescape_is_left_to_the_exact_tier(self):
        # A backslash before a letter that is no escape: both passes leave the quote as is.
        assert UnescapeTier().find("path = 'C:\\dir'\n", "C:\\dir") == []

    def test_a_quote_that_unescapes_to_blank_lines_finds_nothing(self):
        assert UnescapeTier().find("a = 1\n\n\nb = 2\n", "\\n\\n") == []

    def test_the_greedy_pass_runs_when_one_level_of_unescaping_changes_nothing(self):
        # A backslash before a real line break is no escape for the first pass.
        content = "alpha = 1\nbeta = 2\n"
        (match,) = UnescapeTier().find(content, "alpha = 1\\\nbeta = 2")
        assert (match.start, match.end) == (0, len("alpha = 1\nbeta = 2"))


class TestExactPlaces:
    def test_every_place_of_the_unescaped_quote_is_found_in_order(self):
        content = 'log("a")\nx = 1\nlog("a")\ny = 2\nlog("a")\n'
        matches = UnescapeTier().find(content, 'log(\\"a\\")')
        assert [(m.start, m.end) for m in matches] == [(0, 8), (15, 23), (30, 38)]
        assert [m.similarity for m in matches] == [1.0, 1.0, 1.0]

    def test_a_multi_line_quote_starting_mid_line_is_found_where_it_stands(self):
        content = "x = call(1)\ny = 2\n"
        (match,) = UnescapeTier().find(content, "call(1)\\ny = 2")
        assert (match.start, match.end) == (4, len(content) - 1)
        assert _apply(content, match, "call(2)\\ny = 3") == "x = call(2)\ny = 3\n"


class TestLineBlocks:
    content = 'def greet():\n    print("hi")\n    return 1\n'

    def test_an_over_escaped_quote_with_the_wrong_indentation_is_found_by_its_lines(self):
        (match,) = UnescapeTier().find(self.content, 'print(\\"hi\\")\\nreturn 1')
        assert self.content[match.start : match.end] == '    print("hi")\n    return 1'

    def test_new_string_is_unescaped_and_reindented_there(self):
        (match,) = UnescapeTier().find(self.content, 'print(\\"hi\\")\\nreturn 1')
        edited = _apply(self.content, match, 'print(\\"bye\\")\\nreturn 2')
        assert edited == 'def greet():\n    print("bye")\n    return 2\n'
