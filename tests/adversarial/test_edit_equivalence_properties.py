"""Properties of carrying the requested edit onto a corrected search, on generated texts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine.engine._edit_equivalence import (
    CannotCarry,
    NotTheRequestedEdit,
    carry_edit,
    replacement_to_write,
    same_tokens,
    token_list,
)

from .base_cases import BASE_CASES

WORDS = ["a", "b", "x", "item", "line", "total", "0", "1", "True", "(", ")", "=", "+", "-", ":"]
SPACES = [" ", "\n", "\n    ", "  ", "\n\n"]


@st.composite
def code(draw, min_size=1, max_size=14):
    words = draw(st.lists(st.sampled_from(WORDS), min_size=min_size, max_size=max_size))
    gaps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words), max_size=len(words)))
    return "".join(word + gap for word, gap in zip(words, gaps))


@settings(max_examples=200, deadline=None)
@given(code(), code(min_size=0))
def test_with_a_true_quote_the_carried_edit_is_new_string(old, new):
    # No misquote: the search is old_string itself, so the edit to write is new_string (its
    # tokens; spacing outside the changed stretches stays the search's own).
    if same_tokens(old, new):
        return
    assert same_tokens(carry_edit(old, new, old), new)


@settings(max_examples=200, deadline=None)
@given(code(), code(min_size=0), code(), code(min_size=0))
def test_only_the_two_documented_outcomes(old, new, search, replace):
    try:
        written = replacement_to_write(old, new, search, replace)
    except NotTheRequestedEdit as refused:
        assert str(refused)
        return
    # Whatever is written has the model's tokens: the cross-check held.
    assert same_tokens(written, replace)


@settings(max_examples=300, deadline=None)
@given(code(), code(min_size=0), st.sampled_from(["pre\n", "head = 1\n", ""]))
def test_extra_context_in_the_search_is_kept_as_it_is(old, new, context):
    # The search quotes more before old_string: the context survives, the edit is made.
    if same_tokens(old, new) or not old.endswith("\n"):
        return
    try:
        carried = carry_edit(old, new, context + old)
    except CannotCarry:
        return
    assert token_list(carried) == token_list(context) + token_list(new)


# ------------------------------------------------------------------ over the corpus's bases

_TOKEN = re.compile(r"\w+|[^\w\s]")
EXTRA = ["0", "1", "-", "+", "!", "not", "None", "False", "(", ")", ",", "x"]


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([base for base in BASE_CASES if not base.replace_all]),
    st.integers(min_value=0),
    st.sampled_from(["drop", "insert", "swap_in"]),
    st.sampled_from(EXTRA),
)
def test_one_token_more_less_or_other_is_refused(base, where, how, extra):
    # The sound correction, with one token dropped, added or replaced anywhere: the edit
    # written would not be the one requested.
    found = list(_TOKEN.finditer(base.replace))
    at = found[where % len(found)]
    if how == "drop":
        mutated = base.replace[: at.start()] + base.replace[at.end() :]
    elif how == "insert":
        mutated = base.replace[: at.start()] + extra + " " + base.replace[at.start() :]
    else:
        if at.group() == extra:
            return
        mutated = base.replace[: at.start()] + extra + base.replace[at.end() :]
    if token_list(mutated) == token_list(base.replace):
        return
    with pytest.raises(NotTheRequestedEdit):
        replacement_to_write(base.old, base.new, base.search, mutated, file_text=base.content)
