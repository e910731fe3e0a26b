"""Fences and line-number prefixes through ``edit_text``: taken off where the file shows they
cannot be content, never written into a file, and a retry is never applied twice."""

from __future__ import annotations

import pytest

from editengine import BadRequest, NoMatch, edit_text
from editengine.tools._numbered import number_lines

PY = (
    "import os\n\n\ndef load(path):\n    with open(path) as handle:\n        return handle.read()\n"
)
NEW_BODY = "    with open(path, encoding='utf-8') as handle:\n        return handle.read()"
OLD_BODY = "    with open(path) as handle:\n        return handle.read()"
EXPECTED = PY.replace("open(path)", "open(path, encoding='utf-8')")


def fenced(text: str, tag: str = "python", closing: str = "\n```\n") -> str:
    return f"```{tag}\n{text}{closing}"


class TestFences:
    @pytest.mark.parametrize("tag", ["python", "py", ""])
    @pytest.mark.parametrize("closing", ["\n```", "\n```\n", "\n```\n\n"])
    def test_a_fenced_new_string_writes_only_the_code(self, tag, closing):
        result = edit_text(PY, OLD_BODY, fenced(NEW_BODY, tag, closing))
        assert result.new_content == EXPECTED
        assert result.strategy == "markdown_fence+exact"
        assert "fence around new_string was taken off" in (result.note or "")

    def test_a_fenced_old_string_is_found(self):
        result = edit_text(PY, fenced(OLD_BODY), NEW_BODY)
        assert result.new_content == EXPECTED
        assert "around old_string was taken off" in (result.note or "")

    def test_both_fenced(self):
        result = edit_text(PY, fenced(OLD_BODY, "py"), fenced(NEW_BODY, "", "\n```"))
        assert result.new_content == EXPECTED
        assert "old_string and new_string" in (result.note or "")

    def test_the_final_newline_follows_old_string(self):
        # old_string ends with a newline: the fenced body takes one too, no more, no less.
        with_newline = edit_text(PY, OLD_BODY + "\n", fenced(NEW_BODY))
        assert with_newline.new_content == EXPECTED
        without = edit_text(PY, OLD_BODY, fenced(NEW_BODY + "\n", closing="\n```"))
        assert without.new_content == EXPECTED.replace("read()\n", "read()\n\n")

    def test_a_fenced_old_string_takes_new_strings_final_newline(self):
        result = edit_text(PY, fenced(OLD_BODY), NEW_BODY + "\n")
        assert result.new_content == EXPECTED

    def test_with_the_wrong_indentation_too(self):
        flat = "\n".join(line[4:] for line in OLD_BODY.split("\n"))
        flat_new = "\n".join(line[4:] for line in NEW_BODY.split("\n"))
        result = edit_text(PY, fenced(flat), fenced(flat_new))
        assert result.new_content == EXPECTED
        assert result.strategy == "markdown_fence+line_trimmed"

    def test_in_a_file_with_fence_lines_the_strings_are_taken_literally(self):
        doc = "# Use\n\n```python\nload('a')\n```\n"
        result = edit_text(doc, "```python\nload('a')\n```", "```python\nload('b')\n```")
        assert result.new_content == "# Use\n\n```python\nload('b')\n```\n"
        assert result.strategy == "exact"
        # ... and a fenced new_string is content there, written as sent.
        added = edit_text(doc, "# Use", fenced("# Usage", "md", "\n```"))
        assert added.new_content.startswith("```md\n# Usage\n```\n")

    def test_a_partial_fence_is_not_taken_off(self):
        with pytest.raises(NoMatch):
            edit_text(PY, "```python\n" + OLD_BODY, NEW_BODY)

    def test_exact_mode_takes_the_strings_as_sent(self):
        with pytest.raises(NoMatch):
            edit_text(PY, fenced(OLD_BODY), NEW_BODY, match_mode="exact")

    def test_a_fence_around_an_unchanged_quote_is_a_no_op(self):
        result = edit_text(PY, fenced(OLD_BODY), OLD_BODY)
        assert result.no_change and result.new_content == PY
        assert result.strategy == "markdown_fence+no_op"

    def test_a_replace_all_of_a_fenced_fragment(self):
        content = "a = load(x)\nb = load(y)\n"
        result = edit_text(content, fenced("load(", "", "\n```"), "read(", replace_all=True)
        assert result.new_content == "a = read(x)\nb = read(y)\n"

    def test_a_crlf_file_keeps_its_endings(self):
        crlf = PY.replace("\n", "\r\n")
        result = edit_text(crlf, OLD_BODY, fenced(NEW_BODY).replace("\n", "\r\n"))
        assert result.new_content == EXPECTED.replace("\n", "\r\n")


class TestRetriesWithFences:
    def test_a_fenced_new_string_sent_again_changes_nothing(self):
        request = (OLD_BODY, fenced(NEW_BODY))
        once = edit_text(PY, *request).new_content
        again = edit_text(once, *request)
        assert again.new_content == once
        assert again.no_change and again.strategy == "markdown_fence+already_applied"

    def test_a_flip_sent_again_is_not_flipped_back_or_fenced(self):
        content = "def ready(self):\n    self.enabled = True\n    return self.enabled\n"
        old = "    self.enabled = True\n    return self.enabled"
        new = fenced("    self.enabled = False\n    return self.enabled")
        once = edit_text(content, old, new).new_content
        assert once == content.replace("True", "False")
        assert edit_text(once, old, new).new_content == once


def numbered(text: str, first: int = 1, fmt: str = "tab") -> str:
    lines = text.split("\n")
    if fmt == "tab":
        return number_lines(text, start=1).text if first == 1 else _shifted(lines, first)
    formats = {
        "arrow": lambda n, line: f"{n}\u2192{line}",
        "colon": lambda n, line: f"{n}: {line}",
        "bar": lambda n, line: f"{n:>4} | {line}",
    }
    return "\n".join(formats[fmt](first + i, line) for i, line in enumerate(lines))


def _shifted(lines: list[str], first: int) -> str:
    return "\n".join(f"{first + i:>6}\t{line}" for i, line in enumerate(lines))


class TestLineNumberPrefixes:
    @pytest.mark.parametrize("fmt", ["tab", "arrow", "colon", "bar"])
    def test_numbers_on_old_and_new_are_taken_off(self, fmt):
        result = edit_text(PY, numbered(OLD_BODY, 5, fmt), numbered(NEW_BODY, 5, fmt))
        assert result.new_content == EXPECTED
        assert result.strategy == "line_number_prefix+exact"
        assert "The numbers agree with where the text stands (line 5)" in (result.note or "")

    def test_numbers_on_old_only(self):
        result = edit_text(PY, numbered(OLD_BODY, 5, "arrow"), NEW_BODY)
        assert result.new_content == EXPECTED

    def test_the_read_tools_own_format_round_trips(self):
        shown = number_lines(PY, start=5, limit=2).text
        assert shown == _shifted(OLD_BODY.split("\n"), 5)
        result = edit_text(PY, shown, _shifted(NEW_BODY.split("\n"), 5))
        assert result.new_content == EXPECTED

    def test_stale_numbers_do_not_move_the_edit(self):
        # The numbers name lines 1-2, where other text stands; the quote stands at 5-6.
        result = edit_text(PY, numbered(OLD_BODY, 1, "arrow"), numbered(NEW_BODY, 1, "arrow"))
        assert result.new_content == EXPECTED
        assert "said line 1, but the text stands at line 5" in (result.note or "")

    def test_new_string_renumbered_after_a_deleted_line(self):
        old = numbered("import os\n\n\ndef load(path):", 1, "arrow")
        new = "1\u2192import os\n4\u2192def load(path):"
        result = edit_text(PY, old, new)
        assert result.new_content == PY.replace("import os\n\n\n", "import os\n")

    def test_new_string_numbered_on_some_lines_only_is_refused(self):
        new = (
            "     5\t    with open(path, 'rb') as handle:\n"
            "\t    log(path)\n"
            "     6\t        return 1"
        )
        with pytest.raises(BadRequest, match="some lines only"):
            edit_text(PY, numbered(OLD_BODY, 5), new)

    def test_numbers_that_skip_are_not_a_read_tools(self):
        old = "5\u2192    with open(path) as handle:\n7\u2192        return handle.read()"
        with pytest.raises(NoMatch):
            edit_text(PY, old, NEW_BODY)

    def test_mixed_styles_are_not_a_read_tools(self):
        old = "5\u2192    with open(path) as handle:\n     6\t        return handle.read()"
        with pytest.raises(NoMatch):
            edit_text(PY, old, NEW_BODY)

    def test_a_crlf_quote_with_numbers(self):
        old = numbered(OLD_BODY, 5, "bar").replace("\n", "\r\n")
        result = edit_text(PY, old, numbered(NEW_BODY, 5, "bar"))
        assert result.new_content == EXPECTED

    def test_inside_a_fence(self):
        old = fenced(numbered(OLD_BODY, 5, "arrow"))
        result = edit_text(PY, old, fenced(numbered(NEW_BODY, 5, "arrow")))
        assert result.new_content == EXPECTED
        assert result.strategy == "markdown_fence+line_number_prefix+exact"

    def test_exact_mode_takes_the_strings_as_sent(self):
        with pytest.raises(NoMatch):
            edit_text(PY, numbered(OLD_BODY, 5, "arrow"), NEW_BODY, match_mode="exact")


class TestNumbersThatAreContent:
    YAML = "codes:\n1: one\n2: two\n3: three\n"

    def test_a_yaml_mapping_quoted_as_it_stands_is_not_stripped(self):
        result = edit_text(self.YAML, "1: one\n2: two", "1: uno\n2: two")
        assert result.new_content == "codes:\n1: uno\n2: two\n3: three\n"
        assert result.strategy == "exact"

    def test_quoted_at_another_depth_it_is_still_the_mapping(self):
        nested = "codes:\n  1: one\n  2: two\n  3: three\n"
        result = edit_text(nested, "1: one\n2: two\n3: three", "1: uno\n2: two\n3: three")
        assert result.new_content == "codes:\n  1: uno\n  2: two\n  3: three\n"
        assert result.strategy == "line_trimmed"

    def test_the_mapping_copied_from_a_read_tool_loses_only_the_tools_numbers(self):
        shown = number_lines(self.YAML, start=2, limit=2).text  # "     2\t1: one\n..."
        new = shown.replace("one", "uno")
        result = edit_text(self.YAML, shown, new)
        assert result.new_content == "codes:\n1: uno\n2: two\n3: three\n"
        assert result.strategy == "line_number_prefix+exact"

    def test_a_misquoted_mapping_is_not_read_as_numbered_text(self):
        # "one" and "two" stand alone too: stripped, the quote would be edited there.
        content = "1: one\n2: two\nnames:\none\ntwo\n"
        result = edit_text(content, "1: one \n2:  two", "1: uno\n2: two")
        assert result.new_content == "1: uno\n2: two\nnames:\none\ntwo\n"
        assert "line_number_prefix" not in result.strategy


class TestRetriesWithNumbers:
    @pytest.mark.parametrize("fmt", ["tab", "arrow", "colon"])
    def test_the_same_numbered_request_sent_again_changes_nothing(self, fmt):
        request = (numbered(OLD_BODY, 5, fmt), numbered(NEW_BODY, 5, fmt))
        once = edit_text(PY, *request).new_content
        again = edit_text(once, *request)
        assert again.new_content == once and again.no_change

    def test_a_numbered_deletion_sent_again_deletes_nothing_more(self):
        content = "a = compute_first()\nb = compute_second()\nc = compute_third()\n"
        old = numbered("a = compute_first()\nb = compute_second()", 1, "arrow")
        new = "1\u2192a = compute_first()"
        once = edit_text(content, old, new).new_content
        assert once == "a = compute_first()\nc = compute_third()\n"
        assert edit_text(once, old, new).new_content == once


def test_the_closest_region_says_its_numbers_are_not_text():
    with pytest.raises(NoMatch) as info:
        edit_text(PY, "    with open(pth) as h:\n        return h.read()", "x")
    assert "line numbers that are not part of the file" in str(info.value)


def test_a_refusal_of_a_cleaned_quote_says_what_was_taken_off():
    with pytest.raises(NoMatch) as info:
        edit_text(PY, fenced("    return nothing_like_this()"), "x")
    assert "fence around old_string was taken off" in str(info.value)
