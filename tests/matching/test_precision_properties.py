"""Precision rules as properties: a difference of meaning is never forgiven, overlapping
places are never edited silently, an empty old_string never replaces content unasked."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import AmbiguousMatch, EditError, OverwriteRequired, edit_text
from editengine.matching._meaning import meaning_difference
from editengine.matching._search import occurrences

BLOCK = (
    "def configure(app):\n    app.timeout = {a}\n    app.retries = {b}\n"
    "    app.name = 'svc'\n    return app\n"
)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 500), st.integers(0, 500), st.integers(1, 50))
def test_a_number_that_differs_is_never_written(timeout, retries, delta):
    content = BLOCK.format(a=timeout, b=retries)
    old = BLOCK.format(a=timeout, b=retries + delta)
    new = old.replace(f"timeout = {timeout}", f"timeout = {timeout + 1}")
    with pytest.raises(EditError):
        edit_text(content, old, new)


@pytest.mark.parametrize(
    ("file_op", "quoted_op"),
    [("+", "-"), ("<", "<="), ("==", "!="), ("and", "or"), ("True", "False")],
)
def test_an_operator_or_keyword_that_differs_is_never_written(file_op, quoted_op):
    content = (
        f"def f(a, b):\n    total = a {file_op} b\n    if total:\n"
        "        return total\n    return 0\n"
    )
    old = content.replace(f"a {file_op} b", f"a {quoted_op} b")
    with pytest.raises(EditError) as refused:
        edit_text(content, old, old.replace("return 0", "return 1"))
    assert "never forgiven" in str(refused.value)


def test_a_name_the_file_has_elsewhere_is_no_typo_but_a_misspelt_one_is():
    assert meaning_difference("int min;", "int max;") is not None
    assert meaning_difference("x = procesing(a)", "x = processing(a)") is None
    assert meaning_difference("x = tabel(a)", "x = table(a)", "y = tabel(b)\n") is not None
    assert meaning_difference("say('empty')", 'say("empty")') is None


def test_typos_in_identifiers_are_still_forgiven():
    content = (
        "def load(self):\n    data = read_all(self.path)\n    if not data:\n"
        "        raise LoadError(path)\n    return data\n"
    )
    old = content.replace("read_all", "raed_all")
    new = old.replace("return data", "return list(data)")
    result = edit_text(content, old, new)
    assert result.new_content == content.replace("return data", "return list(data)")


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab", max_size=30), st.text(alphabet="ab", min_size=1, max_size=5))
def test_occurrences_are_every_start_overlapping_ones_included(text, needle):
    expected = [i for i in range(len(text)) if text.startswith(needle, i)]
    assert occurrences(text, needle) == expected


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="0, ", min_size=1, max_size=6), st.integers(2, 6))
def test_overlapping_places_are_never_edited_silently(unit, repeats):
    content = unit * repeats
    needle = unit * 2
    places = occurrences(content, needle)
    overlapping = any(b < a + len(needle) for a, b in pairwise(places))
    if not overlapping:
        return
    for options in ({}, {"replace_all": True}):
        with pytest.raises(AmbiguousMatch):
            edit_text(content, needle, "X", **options)


@given(st.text(min_size=1).filter(str.strip), st.text())
def test_an_empty_old_string_never_replaces_content_unasked(content, new):
    with pytest.raises(OverwriteRequired):
        edit_text(content, "", new + "x")
    assert edit_text(content, "", new + "x", overwrite=True).strategy == "whole_file"
