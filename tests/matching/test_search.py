"""The substring search for long needles: the same answers as ``str``'s, at its edges."""

from __future__ import annotations

import pytest

from editengine.matching import _search as search

LONG = "x" * 99 + "z"  # 100 characters: found by its first 64, all of them "x"


class _CountingChecks(str):
    """A text that counts the places the search checks with ``startswith``."""

    checks = 0

    def startswith(self, *args: object) -> bool:  # type: ignore[override]  # a narrower stand-in
        type(self).checks += 1
        return super().startswith(*args)  # type: ignore[arg-type]  # passed on as given


@pytest.mark.parametrize(
    ("text", "start"),
    [
        # The needle one place past the last false place checked before the plain search.
        ("x" * 356 + "z", 0),
        ("x" * 355 + "z", 0),
        ("x" * 357 + "z", 0),
        # Twice after many false places: the first one is the answer.
        ("x" * 400 + "z" + "x" * 400 + "z", 0),
        # Before ``start`` and again after it: only the second counts.
        (LONG + "x" * 356 + "z", 1),
        ("y" * 10 + "x" * 50 + "z", 0),
    ],
)
def test_a_long_needle_is_found_where_str_finds_it(text, start):
    assert search.find(text, LONG, start) == text.find(LONG, start)
    assert search.count(text, LONG) == text.count(LONG)


def test_at_most_256_false_places_are_checked_before_the_plain_search_takes_over():
    # 900 places start like the needle and only the last is it: checking each one by one
    # would cost a pass per place, quadratic on a long text.
    text = _CountingChecks("x" * 1000 + "z")
    _CountingChecks.checks = 0
    assert search.find(text, LONG) == 901
    assert _CountingChecks.checks == 257
