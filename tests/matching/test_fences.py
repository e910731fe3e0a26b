"""matching.fences: which Markdown fences wrap a whole quote, and which files hold fences."""

from __future__ import annotations

import pytest

from editengine.matching._fences import has_fence_lines, unwrap


class TestUnwrap:
    @pytest.mark.parametrize(
        "text",
        [
            "```\nx = 1\n```",
            "```python\nx = 1\n```",
            "```python\nx = 1\n```\n",
            "~~~\nx = 1\n~~~",
            "```c++\nx = 1\n```",
            "\n\n```py\nx = 1\n```\n\n",
            "\n```py\nx = 1\n```",  # one blank line before
            "  ```py\nx = 1\n  ```  ",
            "```\nx = 1\n`````",  # a closing fence may be longer
        ],
    )
    def test_a_fence_around_the_whole_string_is_taken_off(self, text):
        assert unwrap(text) == "x = 1"

    def test_the_body_keeps_its_lines_indentation_and_inner_blank_lines(self):
        assert unwrap("```\n    a\n\n\tb\n```") == "    a\n\n\tb"

    @pytest.mark.parametrize(
        "text",
        [
            "x = 1",
            "```python\nx = 1",  # opening only
            "x = 1\n```",  # closing only
            "```python x = 1 ```",  # one line
            "intro\n```\nx = 1\n```",  # text before the fence
            "```\nx = 1\n```\nmore",  # text after the fence
            "```\na\n```\n```\nb\n```",  # two blocks
            "```\nx = 1\n~~~",  # the other fence character
            "````\nx = 1\n```",  # a closing fence shorter than the opening
            "```\nx = 1\n``` trailing",
            "```",  # a fence line alone: an opening and a closing, but nothing inside
            "\n~~~\n",
        ],
    )
    def test_anything_short_of_a_whole_wrapper_is_left_alone(self, text):
        assert unwrap(text) is None


class TestFenceLinesInAFile:
    @pytest.mark.parametrize(
        "content",
        [
            "# Title\n\n```python\nx = 1\n```\n",
            "def f():\n    '''\n    ~~~\n    f()\n    ~~~\n    '''\n",
            "```\n",
            "a\n   ```",
            "\n  ```",  # the line after a first, empty one
            "```\nx = '```'",  # a mark inside a line after the fence line
            "s = '```'\n```\n",  # a fence line after a mark inside a line
            "a = '```'\n```\nb = '```'\n",
            "~~~\ns = '```'",  # the other mark, when the first is only inside a line
        ],
    )
    def test_a_line_starting_with_a_fence_counts(self, content):
        assert has_fence_lines(content)

    @pytest.mark.parametrize(
        "content",
        [
            "x = 1\n",
            "s = '```'\n",
            "s = '```'",  # on the last line, with no line break after it
            "md = f'{a}```'\nb = '~~~'\n",
            "x = 1\nb```",  # one character before the mark
            "X```",
            "x = 1\n\u00a0```\n",  # a no-break space is text, not indentation
            "",
        ],
    )
    def test_fence_marks_inside_lines_do_not(self, content):
        assert not has_fence_lines(content)
