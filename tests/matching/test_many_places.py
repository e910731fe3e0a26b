"""Tiers stay linear on one token or line repeated through the file. The whitespace tier,
past a budget of walks, searches the squeezed file (same places, same order); it and the
elision tier refuse a quote past MAX_PLACES places, naming the first, instead of weighing
each one."""

from __future__ import annotations

import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import AmbiguousMatch, EditEngine, edit_text
from editengine._results import Region
from editengine._text import NormalizedText
from editengine.matching import _already_applied as already_applied
from editengine.matching import _whitespace as whitespace
from editengine.matching._base import (
    DoubtfulMatch,
    Match,
    TooManyPlaces,
    refuse_past_max_places,
)
from editengine.matching._whitespace import MAX_PLACES, WhitespaceTier

# Texts of a few words, marks and every kind of spacing, so tokens repeat and places overlap.
_PIECES = st.sampled_from(["a", "b", "ab", "(", ")", ",", ".", "=", "é", "_x", "1"])
_SPACING = st.sampled_from(["", "", " ", "  ", "\n", "\t", " \n  ", "\u00a0", "\r\n"])


@st.composite
def _texts(draw: st.DrawFn, most: int) -> str:
    parts = draw(st.lists(st.tuples(_PIECES, _SPACING), min_size=1, max_size=most))
    return "".join(piece + space for piece, space in parts)


def _written(match: Match) -> str | None:
    """What the place would write for a sample new_string (its rewrite compared by effect)."""
    if match.rewrite is None:
        return None
    try:
        return match.rewrite("ab (\n  b, x)\n")
    except DoubtfulMatch:
        return "<steps back>"


def _places(content: str, quote: str, *, walk_budget: int) -> tuple[list, list]:
    tier = WhitespaceTier()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(whitespace, "_WALK_BUDGET", walk_budget)
        patch.setattr(whitespace, "may_hold_the_words_of", lambda content, old: True)
        found, cut = tier.find(content, quote), tier.cut_places(content, quote)
    return (
        [(m.start, m.end, m.similarity, m.verbatim, _written(m)) for m in found],
        [(m.start, m.end) for m in cut],
    )


@settings(max_examples=400, deadline=None)
@given(content=_texts(40), quote=_texts(6))
def test_the_squeezed_search_finds_exactly_the_places_the_walks_find(content, quote):
    walked = _places(content, quote, walk_budget=10**9)
    squeezed = _places(content, quote, walk_budget=0)
    assert squeezed == walked


@settings(max_examples=200, deadline=None)
@given(content=_texts(40), data=st.data())
def test_a_quote_cut_from_the_file_and_respaced_is_found_by_the_squeezed_search(content, data):
    start = data.draw(st.integers(0, len(content)))
    end = data.draw(st.integers(start, len(content)))
    quote = " ".join(content[start:end].split())
    walked = _places(content, quote, walk_budget=10**9)
    squeezed = _places(content, quote, walk_budget=0)
    assert squeezed == walked


def _respaced_places(count: int) -> tuple[str, str]:
    """``count`` separate lines ``call(a, b)`` and the quote ``call(a,b)``."""
    return "".join(f"call(a, b)\n# {n}\n" for n in range(count)), "call(a,b)"


def test_replace_all_on_exactly_max_places_respaced_places_is_made():
    content, quote = _respaced_places(MAX_PLACES)
    result = edit_text(content, quote, "call(b,a)", replace_all=True)
    assert result.strategy == "whitespace"
    assert result.replacements == MAX_PLACES
    assert result.new_content.count("call(b,a)") == MAX_PLACES


def test_one_place_past_max_places_is_refused_naming_the_first_places():
    content, quote = _respaced_places(MAX_PLACES + 1)
    with pytest.raises(AmbiguousMatch) as refused:
        edit_text(content, quote, "call(b,a)", replace_all=True)
    error = refused.value
    assert f"more than {MAX_PLACES:,} places (whitespace match)" in str(error)
    assert [region.start_line for region in error.candidates[:3]] == [1, 3, 5]
    assert len(error.candidates) == 20
    assert "spacing included" in (error.hint or "")
    assert error.trace[-1].tier == "whitespace"
    assert error.trace[-1].outcome == "ambiguous"
    assert error.trace[-1].candidates == MAX_PLACES + 1


def test_one_repeated_token_is_refused_quickly_and_leaves_the_file_as_it_was(tmp_path):
    original = "a " * 200_000
    (tmp_path / "tokens.txt").write_text(original)
    engine = EditEngine(tmp_path, journal=False)
    with pytest.raises(AmbiguousMatch) as refused:
        engine.edit("tokens.txt", "  ".join(["a"] * 200), "b")
    assert "more than" in str(refused.value)
    assert (tmp_path / "tokens.txt").read_text() == original


def test_the_walks_give_way_only_past_their_budget(monkeypatch):
    squeezed_calls = []
    real = whitespace._squeezed_places

    def counted(content, tokens):
        squeezed_calls.append(len(tokens))
        return real(content, tokens)

    monkeypatch.setattr(whitespace, "_squeezed_places", counted)
    few = "x = f(a,  b)\n" * 10
    WhitespaceTier().find(few, "f(a, b)")
    assert squeezed_calls == []
    # Every walk from an "a" goes a hundred tokens before the quote's last "a a" fails it.
    long_walks = "a b " * 2_000
    assert WhitespaceTier().find(long_walks, "a b " * 50 + "a  a") == []
    assert squeezed_calls == [102]


def _elided_places(count: int) -> tuple[str, str]:
    """A file whose elided quote ``a / ... / a`` stands in ``count`` places (lines i, i+1)."""
    return "a\n" * (count + 1), "a\n...\na"


def test_an_elided_quote_in_exactly_max_places_is_ambiguous_with_every_place_counted():
    content, quote = _elided_places(MAX_PLACES)
    with pytest.raises(AmbiguousMatch) as refused:
        edit_text(content, quote, "b\n...\nb")
    assert f"matches {MAX_PLACES} places (elision match)" in str(refused.value)
    assert len(refused.value.candidates) == MAX_PLACES


def test_an_elided_quote_past_max_places_is_refused_naming_the_first_places():
    content, quote = _elided_places(MAX_PLACES + 1)
    with pytest.raises(AmbiguousMatch) as refused:
        edit_text(content, quote, "b\n...\nb")
    error = refused.value
    assert f"more than {MAX_PLACES:,} places (elision match)" in str(error)
    assert [(r.start_line, r.end_line) for r in error.candidates[:2]] == [(1, 2), (2, 3)]
    assert len(error.candidates) == 20
    assert error.trace[-1].tier == "elision"
    assert error.trace[-1].outcome == "ambiguous"


def test_chains_sharing_their_tail_count_once_toward_the_limit():
    # Two thousand "}" before one unique tail: every chain ends on the same lines, so the
    # one starting last is the only place, however many first lines there are.
    content = "}\n" * 2_000 + "def tail():\n    return 1\n"
    result = edit_text(content, "}\n...\ndef tail():", "}\n...\ndef tail(x):")
    assert result.strategy == "elision"
    assert result.new_content.endswith("}\ndef tail(x):\n    return 1\n")
    assert result.spans[0].start_line == 2_000


def _shifted_blocks(count: int) -> tuple[str, str]:
    """``count`` separate two-line blocks at depth 4 and the quote of one at depth 2."""
    return "".join(f"    first()\n    second()\n# {n}\n" for n in range(count)), (
        "  first()\n  second()"
    )


def test_replace_all_on_exactly_max_places_indent_shifted_blocks_is_made():
    content, quote = _shifted_blocks(MAX_PLACES)
    result = edit_text(content, quote, "  first()\n  third()", replace_all=True)
    assert result.strategy == "line_trimmed"
    assert result.replacements == MAX_PLACES
    assert result.new_content.count("    first()\n    third()\n") == MAX_PLACES


def test_indent_shifted_blocks_past_max_places_are_refused_naming_the_first():
    content, quote = _shifted_blocks(MAX_PLACES + 1)
    with pytest.raises(AmbiguousMatch) as refused:
        edit_text(content, quote, "  first()\n  third()", replace_all=True)
    error = refused.value
    assert f"more than {MAX_PLACES:,} places (line_trimmed match)" in str(error)
    assert [(r.start_line, r.end_line) for r in error.candidates[:2]] == [(1, 2), (4, 5)]
    assert error.trace[-1].tier == "line_trimmed"
    assert error.trace[-1].outcome == "ambiguous"


def test_new_string_standing_in_too_many_places_names_no_place_instead_of_failing():
    content, new = _shifted_blocks(MAX_PLACES + 1)
    source = NormalizedText.of(content)
    assert already_applied.where_new_stands(source, new) is None
    assert already_applied.left_after_a_miss(source, "absent()", new, None) == []
    assert already_applied.left_after_a_miss(source, "absent()", new, 1) == []


def test_a_typographic_quote_past_max_places_is_refused_by_the_punctuation_tier():
    content = "    say(\u201chi\u201d)\n" * (MAX_PLACES + 2)
    with pytest.raises(AmbiguousMatch) as refused:
        edit_text(content, 'say("hi")\nsay("hi")', 'say("bye")\nsay("hi")')
    assert "(unicode_punctuation match)" in str(refused.value)
    assert "more than" in str(refused.value)


@pytest.mark.parametrize("quote", ["", "\n", " ", "..."])
def test_every_default_tier_answers_a_degenerate_quote_on_a_typographic_file(quote):
    # The cascade never hands a tier an empty quote, but a tier called on its own must
    # still answer (the punctuation tier once searched for "" for ever).
    from editengine import default_tiers

    def endless(*_: object) -> None:
        raise TimeoutError("the tier did not answer within 10 s")

    content = "a b\nc d\n\u201cx\u201d\n"
    previous = signal.signal(signal.SIGALRM, endless)
    try:
        for tier in default_tiers():
            signal.alarm(10)
            found = tier.find(content, quote)
            signal.alarm(0)
            assert all(0 <= match.start <= match.end <= len(content) for match in found)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_refusal_names_the_tier_the_limit_and_each_place_and_says_what_to_do():
    refusal = TooManyPlaces("whitespace", 1_000, (Region(3, 4), Region(9, 9)))
    assert str(refusal).startswith(
        "the quote matches more than 1,000 places (whitespace match), the first at "
        f"{Region(3, 4).describe()}, {Region(9, 9).describe()}; so many places are not "
        "weighed one by one."
    )
    assert refusal.hint == (
        "Quote old_string exactly as the file has it, spacing included (an exact quote has "
        "no such limit), with enough surrounding lines to match one place."
    )
    assert refusal.tier == "whitespace"
    assert refusal.candidates == (Region(3, 4), Region(9, 9))


def test_blocks_past_max_places_are_refused_by_the_tier_that_found_them():
    with pytest.raises(TooManyPlaces) as refused:
        refuse_past_max_places("indentation", list(range(0, 2 * (MAX_PLACES + 1), 2)), 2)
    assert refused.value.tier == "indentation"
    assert refused.value.candidates[:2] == (Region(1, 2), Region(3, 4))
