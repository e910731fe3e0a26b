"""Every forgiveness is a decoding applied to old_string and new_string alike.

Indentation spelled in Unicode spaces (a chat window's copy) is read as ASCII spaces in both
strings, so the edit lands as if it had been quoted right and nothing the decoding took off
old_string is written into the file through new_string.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import edit_text
from editengine.matching._invisibles import INVISIBLES
from editengine.matching._spaces import UNICODE_SPACES, decode, decoded

SPACES = sorted(UNICODE_SPACES)
WORDS = st.sampled_from(["x", "y", "total", "value", "count", "name", "items"])


@st.composite
def indented_files(draw: st.DrawFn) -> list[str]:
    """Lines of code indented with ASCII spaces, each distinct."""
    depths = draw(st.lists(st.integers(0, 3), min_size=3, max_size=8))
    lines = []
    for index, depth in enumerate(depths):
        name = draw(WORDS)
        lines.append(" " * (4 * depth) + f"{name}{index} = {index}")
    return lines


def _spelled(line: str, space: str) -> str:
    body = line.lstrip(" ")
    return space * (len(line) - len(body)) + body


@settings(max_examples=60, deadline=None)
@given(
    indented_files(),
    st.data(),
    st.sampled_from(SPACES),
    st.booleans(),
)
def test_unicode_indentation_is_decoded_in_old_and_new_alike(
    lines: list[str], data: st.DataObject, space: str, new_spelled_too: bool
) -> None:
    first = data.draw(st.integers(0, len(lines) - 2))
    last = data.draw(st.integers(first + 1, len(lines) - 1))
    changed = data.draw(st.integers(first, last))
    content = "\n".join(lines) + "\n"
    block = lines[first : last + 1]
    edited = [*block]
    edited[changed - first] = edited[changed - first].replace(" = ", " = 10 + ")
    intended = "\n".join([*lines[:first], *edited, *lines[last + 1 :]]) + "\n"
    old = "\n".join(_spelled(line, space) for line in block)
    new = "\n".join(_spelled(line, space) if new_spelled_too else line for line in edited)

    result = edit_text(content, old, new)

    assert result.new_content == intended
    assert not UNICODE_SPACES.intersection(result.new_content)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=[" ", "\t", "a", "=", "\n", *SPACES[:4]], max_size=60))
def test_decoding_touches_only_indentation_and_keeps_line_lengths(text: str) -> None:
    out = decoded(text)
    assert len(out) == len(text)
    for before, after in zip(text.split("\n"), out.split("\n")):
        body = before.lstrip(" \t" + "".join(SPACES))
        assert after.endswith(body)
        assert not UNICODE_SPACES.intersection(after[: len(after) - len(body)])


def test_nothing_is_decoded_where_the_file_indents_with_unicode_spaces() -> None:
    content = "def a():\n\u00a0\u00a0x = 1\n"
    assert decode(content, "\u00a0\u00a0x = 1", "\u00a0\u00a0x = 2") is None
    result = edit_text(content, "\u00a0\u00a0x = 1", "\u00a0\u00a0x = 2")
    assert result.new_content == "def a():\n\u00a0\u00a0x = 2\n"


@pytest.mark.parametrize(
    ("content", "old", "new", "expected"),
    [
        # A non-breaking space inside a line is content, not indentation: kept.
        (
            "label = 'a\u00a0b'\n",
            "label = 'a\u00a0b'",
            "label = 'a\u00a0c'",
            "label = 'a\u00a0c'\n",
        ),
        # The file's tabs stay tabs.
        (
            "if a:\n\tx = 1\n\ty = 2\n",
            "if a:\n\u00a0\u00a0\u00a0\u00a0x = 1\n\u00a0\u00a0\u00a0\u00a0y = 2",
            "if a:\n\u00a0\u00a0\u00a0\u00a0x = 1\n\u00a0\u00a0\u00a0\u00a0y = 3",
            "if a:\n\tx = 1\n\ty = 3\n",
        ),
        # Ideographic spaces, as a CJK input method types them.
        (
            "def a():\n  x = 1\n",
            "def a():\n\u3000\u3000x = 1",
            "def a():\n\u3000\u3000x = 2",
            "def a():\n  x = 2\n",
        ),
    ],
    ids=["nbsp-inside-a-line", "file-tabs", "ideographic"],
)
def test_what_the_decoding_lets_through(content: str, old: str, new: str, expected: str) -> None:
    assert edit_text(content, old, new).new_content == expected


def test_the_decoding_names_itself() -> None:
    result = edit_text(
        "def a():\n    x = 1\n",
        "def a():\n\u00a0\u00a0\u00a0\u00a0x = 1",
        "def a():\n\u00a0\u00a0\u00a0\u00a0x = 2",
    )
    assert result.strategy == "unicode_indentation+exact"
    assert result.note is not None and "non-breaking" in result.note


# -- invisible characters a copy leaves in the quote -------------------------------------

INVISIBLE = sorted(INVISIBLES)


@settings(max_examples=60, deadline=None)
@given(indented_files(), st.data(), st.booleans())
def test_invisible_characters_are_taken_out_of_old_and_new_alike(
    lines: list[str], data: st.DataObject, new_carries_them: bool
) -> None:
    first = data.draw(st.integers(0, len(lines) - 2))
    last = data.draw(st.integers(first + 1, len(lines) - 1))
    changed = data.draw(st.integers(first, last))
    content = "\n".join(lines) + "\n"
    block = lines[first : last + 1]
    edited = [*block]
    edited[changed - first] = edited[changed - first].replace(" = ", " = 10 + ")
    intended = "\n".join([*lines[:first], *edited, *lines[last + 1 :]]) + "\n"
    char = data.draw(st.sampled_from(INVISIBLE))
    row = data.draw(st.integers(0, len(block) - 1))

    def sprinkled(text_lines: list[str]) -> str:
        out = [*text_lines]
        line = out[row]
        at = len(line) - len(line.lstrip()) + 1
        out[row] = line[:at] + char + line[at:]
        return "\n".join(out)

    old = sprinkled(block)
    new = sprinkled(edited) if new_carries_them else "\n".join(edited)
    result = edit_text(content, old, new)
    assert result.new_content == intended
    assert not INVISIBLES.intersection(result.new_content)


def test_an_invisible_character_the_file_holds_is_content() -> None:
    content = "word = 'a\u200bb'\n"
    result = edit_text(content, "word = 'a\u200bb'", "word = 'a\u200bc'")
    assert result.new_content == "word = 'a\u200bc'\n" and result.strategy == "exact"


def test_an_invisible_character_only_new_string_adds_is_its_own() -> None:
    # A zero-width joiner new_string adds (inside an emoji) is not taken out of it.
    content = "label = 'family'\n"
    result = edit_text(content, "label = 'family'", "label = 'man\u200dwoman'")
    assert result.new_content == "label = 'man\u200dwoman'\n"


# -- HTML entities a tool layer wrote --------------------------------------------------------

COMPARISONS = st.sampled_from(["<", ">", "<=", "&&", '== "x"', "!= 'y'"])


def _escaped(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


@settings(max_examples=60, deadline=None)
@given(COMPARISONS, COMPARISONS, st.booleans())
def test_html_entities_are_read_back_in_old_and_new_alike(
    op: str, new_op: str, new_escaped_too: bool
) -> None:
    content = f"def check(a, b):\n    if a {op} b:\n        return 1\n"
    old = f"    if a {op} b:\n        return 1"
    new = f"    if a {new_op} b:\n        return 2"
    result = edit_text(content, _escaped(old), _escaped(new) if new_escaped_too else new)
    assert result.new_content == content.replace(old, new)
    assert "&lt;" not in result.new_content and "&amp;" not in result.new_content


def test_entities_are_the_text_in_a_file_that_holds_entities() -> None:
    content = "<p>Tom &amp; Jerry</p>\n"
    result = edit_text(content, "Tom &amp; Jerry", "Tom &amp; Spike")
    assert result.new_content == "<p>Tom &amp; Spike</p>\n" and result.strategy == "exact"


# -- read-tool gutters ------------------------------------------------------------------------

GUTTERS = st.sampled_from(
    [
        lambda n: f"{n:>4} \u2502 ",
        lambda n: f"L{n}: ",
        lambda n: f"{n}:\t",
        lambda n: f"{n:>4}  ",
        lambda n: f"{n:>6}\t",
    ]
)


@settings(max_examples=60, deadline=None)
@given(indented_files(), st.data(), GUTTERS, st.booleans())
def test_a_read_tools_gutter_is_taken_off_old_and_new(
    lines: list[str], data: st.DataObject, gutter, new_numbered_too: bool
) -> None:
    first = data.draw(st.integers(0, len(lines) - 2))
    last = data.draw(st.integers(first + 1, len(lines) - 1))
    content = "\n".join(lines) + "\n"
    block = lines[first : last + 1]
    edited = [line.replace(" = ", " = 10 + ") for line in block]
    old = "\n".join(gutter(first + 1 + i) + line for i, line in enumerate(block))
    new_lines = [gutter(first + 1 + i) + line for i, line in enumerate(edited)]
    new = "\n".join(new_lines) if new_numbered_too else "\n".join(edited)
    result = edit_text(content, old, new)
    assert result.new_content == "\n".join([*lines[:first], *edited, *lines[last + 1 :]]) + "\n"


def test_numbers_the_file_itself_starts_lines_with_are_content() -> None:
    content = "L1: first\nL2: second\n"
    result = edit_text(content, "L1: first\nL2: second", "L1: first\nL2: changed")
    assert result.new_content == "L1: first\nL2: changed\n" and result.strategy == "exact"


def test_lines_matched_line_trimmed_take_no_unicode_indentation_from_new_string() -> None:
    # The file indents one line with non-breaking spaces, so the quote is not decoded up
    # front; the lines matched indent with tabs, and line_trimmed's forgiveness of the
    # quote's non-breaking spaces is applied to new_string alike.
    content = "a:\n\u00a0\u00a0x = 1\nb:\n\ty = 2\n"
    old = "b:\n\u00a0\u00a0\u00a0\u00a0y = 2"
    new = "b:\n\u00a0\u00a0\u00a0\u00a0y = 3\n\u00a0\u00a0\u00a0\u00a0z = 4"
    assert (
        edit_text(content, old, new).new_content == "a:\n\u00a0\u00a0x = 1\nb:\n\ty = 3\n\tz = 4\n"
    )


def test_a_quote_standing_as_sent_is_not_decoded() -> None:
    # The non-breaking space starts the quote, but stands mid-line in the file: content.
    result = edit_text("total\u00a0= 1\n", "\u00a0= 1", " = 2")
    assert result.new_content == "total = 2\n" and result.strategy == "exact"
