"""matching.quotes: what old_string and new_string read once a fence or line numbers are taken
off, and the words that tell the agent so (the agent acts on them, so they are pinned)."""

from __future__ import annotations

import pytest

from editengine import BadRequest, edit_text
from editengine.matching._quotes import read

FENCE_NOTE = (
    "The Markdown fence around {} was taken off: the file has no fence lines, so it was not "
    "part of the text."
)
TAB_NOTE = (
    "Line-number prefixes ('    42\\t') were taken off {}: they come from a read tool, not "
    "from the file."
)


def test_a_fence_is_taken_off_unless_the_strings_are_to_be_taken_literally():
    reading = read("x = 1\n", "```python\nx = 1\n```", "x = 2")
    assert (reading.old, reading.new) == ("x = 1", "x = 2")
    assert reading.notes == (FENCE_NOTE.format("old_string"),)
    literal = read("x = 1\n", "```python\nx = 1\n```", "x = 2", literal=True)
    assert (literal.old, literal.notes) == ("```python\nx = 1\n```", ())


def test_an_empty_fence_is_taken_literally():
    reading = read("x = 1\n", "```\n```", "x = 2")
    assert (reading.old, reading.new, reading.cleanups) == ("```\n```", "x = 2", ())


@pytest.mark.parametrize(
    ("old", "new", "which"),
    [
        ("x = 1", "```\nx = 2\n```", "new_string"),
        ("```\nx = 1\n```", "```\nx = 2\n```", "old_string and new_string"),
    ],
)
def test_the_fence_note_names_the_strings_it_was_taken_off(old, new, which):
    assert read("x = 1\n", old, new).notes == (FENCE_NOTE.format(which),)


def test_two_fenced_strings_keep_their_own_endings():
    # The body before the closing fence ends with a newline in old_string only.
    reading = read("x = 1\n", "```\nx = 1\n\n```", "```\nx = 2\n```")
    assert (reading.old, reading.new) == ("x = 1\n", "x = 2")


def test_a_fenced_body_already_ending_like_the_other_string_gets_no_second_newline():
    reading = read("x = 1\n", "x = 1\n", "```\nx = 2\n\n```")
    assert reading.new == "x = 2\n"


@pytest.mark.parametrize(
    ("new", "which", "expected_new"),
    [
        ("2\tb = 3", "old_string and new_string", "b = 3"),
        ("b = 3", "old_string", "b = 3"),
        # Numbered in another style: those numbers are not the read tool's, so they stay.
        ("2\u2192b = 3", "old_string", "2\u2192b = 3"),
    ],
)
def test_the_numbers_note_names_the_strings_they_were_taken_off(new, which, expected_new):
    reading = read("a = 1\nb = 2\n", "2\tb = 2", new)
    assert (reading.old, reading.new) == ("b = 2", expected_new)
    assert reading.notes == (TAB_NOTE.format(which),)


def test_the_edit_says_whether_the_numbers_named_its_lines():
    agreed = edit_text("a = 1\nb = 2\n", "2\tb = 2", "b = 3")
    assert agreed.note == (
        TAB_NOTE.format("old_string") + " The numbers agree with where the text stands (line 2)."
    )
    stale = edit_text("a = 1\nb = 2\n", "5\tb = 2", "5\tb = 3")
    assert stale.note == (
        TAB_NOTE.format("old_string and new_string") + " The numbers said line 5, but the text "
        "stands at line 2 (the file changed since it was read?); the text decided."
    )


def test_the_edits_own_note_comes_before_the_clean_ups():
    result = edit_text(
        "x = 1\nresult = compute(a, b)\n", "```\nresult = compute(a)\n```", "result = compute(a, b)"
    )
    assert result.strategy == "markdown_fence+already_applied"
    assert result.note == (
        "old_string is not in the file but new_string already is (line 2); the edit looks "
        "applied already, so nothing was changed. " + FENCE_NOTE.format("old_string")
    )


@pytest.mark.parametrize("new", ["x = 2\n3\ty = 3", "3\ty = 3\nx = 2", "3\tb = 3\n2\tc = 4"])
def test_new_string_numbered_on_some_lines_or_out_of_order_is_refused(new):
    with pytest.raises(BadRequest) as refused:
        read("a = 1\nb = 2\n", "2\tb = 2", new)
    assert str(refused.value) == (
        "old_string carries line-number prefixes ('    42\\t') copied from a read tool, and "
        "new_string carries them on some lines only (or numbered out of order), so which of its "
        "text is meant cannot be told; nothing was changed.\n"
        "Send old_string and new_string without the line numbers: only the text after each "
        "number (and its separator) belongs to the file."
    )
