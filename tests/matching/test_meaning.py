"""A difference that changes meaning is never forgiven as a typo, by any tier: a number, an
operator, a keyword, a name the file holds elsewhere, or the inside of a string literal
that differs between the quote and the file is refused (and named); a slip of the keys in
a name, spacing, a typographic spelling of an operator and a forgotten line-end comma are
still forgiven."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from editengine import EditError, edit_text
from editengine.matching._meaning import meaning_difference

FAST = settings(max_examples=60, deadline=None, derandomize=True, database=None)

# A block the fuzzy tiers can reach: distinctive lines around the one the mistake strikes.
LINES = [
    "def configure(application, settings):",
    "    application.timeout_seconds = 30",
    "    application.retry_budget = 2",
    "    application.service_name = 'billing'",
    "    if application.retry_budget > 1:",
    "        application.mode = 'strict'",
    "    return application",
]
CONTENT = "\n".join(LINES) + "\n"
NEW_LAST = "    return application.freeze()"

NUMBERS = st.sampled_from([("30", "31"), ("30", "3"), ("2", "20"), ("1", "0"), ("2", "2.0")])
OPERATORS = st.sampled_from([(">", ">="), (">", "<"), ("=", "+="), (".", ",")])
KEYWORDS = st.sampled_from([("if", "while"), ("return", "yield"), ("def", "class")])
LITERALS = st.sampled_from([("billing", "gnillib"), ("strict", "loose"), ("billing", "bill")])


def _quote(line: int, old: str, new: str) -> tuple[str, str]:
    lines = list(LINES)
    assert old in lines[line]
    lines[line] = lines[line].replace(old, new, 1)
    return "\n".join(lines), "\n".join([*lines[:-1], NEW_LAST])


def _never_written(line: int, pair: tuple[str, str]) -> None:
    old, new = _quote(line, *pair)
    try:
        result = edit_text(CONTENT, old, new)
    except EditError as refused:
        assert refused.code in ("no_match", "ambiguous"), refused.code
        return
    pytest.fail(f"written by {result.strategy}: {pair} forgiven as a typo")


@FAST
@given(NUMBERS, st.sampled_from([1, 2, 4]))
def test_a_number_that_differs_is_never_written(pair: tuple[str, str], line: int) -> None:
    if pair[0] in LINES[line]:
        _never_written(line, pair)


@FAST
@given(OPERATORS)
def test_an_operator_that_differs_is_never_written(pair: tuple[str, str]) -> None:
    line = next(i for i, text in enumerate(LINES) if pair[0] in text.strip()[3:])
    _never_written(line, pair)


@FAST
@given(KEYWORDS)
def test_a_keyword_that_differs_is_never_written(pair: tuple[str, str]) -> None:
    line = next(i for i, text in enumerate(LINES) if text.strip().startswith(pair[0] + " "))
    _never_written(line, pair)


@FAST
@given(LITERALS)
def test_the_inside_of_a_string_that_differs_is_never_written(pair: tuple[str, str]) -> None:
    line = next(i for i, text in enumerate(LINES) if f"'{pair[0]}'" in text)
    _never_written(line, pair)


def test_a_name_the_file_holds_elsewhere_is_not_a_typo_for_another() -> None:
    # ``rtry`` is a name the file holds too: the quote may mean that other line, no typo.
    assert meaning_difference("a.retry = 1", "a.rtry = 1", "a.retry = 1\na.rtry = 1") is not None


@FAST
@given(st.sampled_from([1, 2, 3, 6]), st.integers(0, 10_000))
def test_a_slip_of_the_keys_in_a_name_is_still_forgiven(line: int, seed: int) -> None:
    words = [w for w in ("application", "timeout_seconds", "retry_budget", "service_name")]
    word = next(w for w in words if w in LINES[line])
    at = 2 + seed % (len(word) - 4)
    slipped = word[:at] + word[at + 1] + word[at] + word[at + 2 :]  # two keys swapped
    if slipped == word or slipped in CONTENT:
        return
    old, new = _quote(line, word, slipped)
    result = edit_text(CONTENT, old, new)
    assert result.new_content == CONTENT.replace("    return application\n", NEW_LAST + "\n")


@pytest.mark.parametrize(
    ("quote", "found"),
    [
        ("if a \u2260 b:", "if a != b:"),
        ("if a \u2264 b:", "if a <= b:"),
        ("x = a \u2212 b", "x = a - b"),
        ("f(a) \u2192 b", "f(a) -> b"),
        ("retries: 3", "retries: 3,"),
        ("name:  'x'", "name: 'x'"),
        ("procesing = 1", "processing = 1"),
    ],
)
def test_what_is_no_difference_of_meaning(quote: str, found: str) -> None:
    assert meaning_difference(quote, found) is None


@pytest.mark.parametrize(
    ("quote", "found", "named"),
    [
        ("if a \u2260 b:", "if a == b:", "an operator"),
        ("y := 99", "y := 2", "a number"),
        ("if a < b:", "if a <= b:", "an operator"),
        ("while ready:", "if ready:", "a keyword"),
        ("log('tset')", "log('test')", "the inside of a string literal"),
        ("retries: 3;", "retries: 3,", "an operator"),
    ],
)
def test_what_is_a_difference_of_meaning_and_how_it_is_named(
    quote: str, found: str, named: str
) -> None:
    said = meaning_difference(quote, found)
    assert said is not None and said.startswith(named), said
