from __future__ import annotations

import pytest
from rapidfuzz import fuzz

from editengine._errors import Region
from editengine.fixer import LineSpan, WindowPolicy
from editengine.fixer._window import (
    CLIP_MARK_CLOSE,
    CLIP_MARK_OPEN,
    Excerpt,
    _Focus,
    _ladder,
    _likely_regions,
    _numbered,
    _shortened,
    excerpt,
)


def _hidden(count: int) -> str:
    return f"{CLIP_MARK_OPEN}{count:,} characters not shown{CLIP_MARK_CLOSE}"


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def test_only_files_over_the_threshold_are_windowed():
    policy = WindowPolicy(threshold_lines=400)

    assert not policy.applies_to(400)
    assert policy.applies_to(401)


def test_a_window_surrounds_each_region():
    policy = WindowPolicy(context_lines=10)

    spans = policy.spans(1000, [Region(500, 503, 0.8)])

    assert spans == (LineSpan(490, 513),)


def test_windows_are_clipped_to_the_file():
    policy = WindowPolicy(context_lines=10)

    assert policy.spans(100, [Region(3, 3, 0.9), Region(98, 99, 0.7)]) == (
        LineSpan(1, 13),
        LineSpan(88, 100),
    )


def test_overlapping_and_touching_windows_merge():
    policy = WindowPolicy(context_lines=5)

    spans = policy.spans(
        1000, [Region(100, 100, 0.9), Region(108, 108, 0.8), Region(119, 119, 0.7)]
    )

    assert spans == (LineSpan(95, 124),)


def test_only_the_most_similar_regions_get_a_window():
    policy = WindowPolicy(context_lines=1, max_regions=2)
    regions = [Region(100, 100, 0.5), Region(300, 300, 0.9), Region(500, 500, 0.8)]

    assert policy.spans(1000, regions) == (LineSpan(299, 301), LineSpan(499, 501))


def test_without_regions_the_first_lines_are_shown():
    policy = WindowPolicy(context_lines=20)

    assert policy.spans(1000, []) == (LineSpan(1, 41),)
    assert policy.spans(1000, [Region(5000, 5001, 0.9)]) == (LineSpan(1, 41),)  # stale region
    assert policy.spans(0, []) == ()


def test_a_one_line_file_gets_a_window_around_its_region():
    assert WindowPolicy(context_lines=3).spans(1, [Region(1, 1, 0.9)]) == (LineSpan(1, 1),)


def test_regions_on_the_first_and_the_last_line_get_windows():
    policy = WindowPolicy(context_lines=2)

    assert policy.spans(100, [Region(1, 1, 0.9), Region(100, 100, 0.8)]) == (
        LineSpan(1, 3),
        LineSpan(98, 100),
    )


def test_windows_a_line_apart_stay_apart():
    policy = WindowPolicy(context_lines=0)

    assert policy.spans(50, [Region(10, 10, 0.9), Region(12, 12, 0.8)]) == (
        LineSpan(10, 10),
        LineSpan(12, 12),
    )


# What the prompt shows: excerpt() and the helpers it is made of.


def test_an_empty_file_is_said_to_be_empty_and_is_not_windowed():
    assert excerpt(WindowPolicy(), [], []) == Excerpt("(the file is empty)", (), False)


def test_a_small_file_is_numbered_whole():
    shown = excerpt(WindowPolicy(), ["a", "b"], [])

    assert shown == Excerpt("1\ta\n2\tb", (LineSpan(1, 2),), False)


def test_windows_are_numbered_and_what_lies_between_them_is_named():
    lines = [f"line {n}" for n in range(1, 13)]
    policy = WindowPolicy(threshold_lines=5, context_lines=0, max_regions=2)

    shown = excerpt(policy, lines, [Region(3, 4, 0.9), Region(8, 8, 0.8)])
    one_apart = excerpt(policy, lines, [Region(3, 4, 0.9), Region(6, 6, 0.8)])

    assert shown is not None and one_apart is not None
    assert shown.text == (
        "⋮ lines 1-2 not shown\n 3\tline 3\n 4\tline 4\n⋮ lines 5-7 not shown\n"
        " 8\tline 8\n⋮ lines 9-12 not shown"
    )
    assert (shown.windowed, shown.shown_lines) == (True, 3)
    assert "\n⋮ lines 5-5 not shown\n 6\tline 6\n" in one_apart.text


def test_a_window_that_fits_the_budget_exactly_is_shown():
    lines = ["y" * 1_000] * 9 + ["short 10", "short 11", "short 12"] + ["y" * 1_000] * 8
    expected = (
        "⋮ lines 1-9 not shown\n10\tshort 10\n11\tshort 11\n12\tshort 12\n⋮ lines 13-20 not shown"
    )
    policy = WindowPolicy(threshold_lines=5, context_lines=1, max_regions=1)

    shown = excerpt(policy, lines, [Region(11, 11, 0.9)], max_bytes=_size(expected))

    assert shown is not None
    assert (shown.text, shown.spans) == (expected, (LineSpan(10, 12),))


def test_a_window_within_the_budget_is_shown_unshortened_whatever_lies_outside_it():
    # The cheap bound that skips windows far over the budget counts the window's own lines.
    lines = ["y" * 1_000] * 9 + ["w" * 5_000] + ["y" * 1_000] * 10
    expected = f"⋮ lines 1-9 not shown\n10\t{'w' * 5_000}\n⋮ lines 11-20 not shown"
    policy = WindowPolicy(threshold_lines=5, context_lines=0, max_regions=1)

    shown = excerpt(policy, lines, [Region(10, 10, 0.9)], max_bytes=_size(expected))

    assert shown == Excerpt(expected, (LineSpan(10, 10),), True, 0)


def test_a_file_under_the_line_threshold_has_its_long_lines_shortened_before_it_is_windowed():
    lines = ["short", "x" * 10_000, "end"]

    shown = excerpt(WindowPolicy(), lines, [Region(2, 2, 0.9)], max_bytes=5_000)

    assert shown == Excerpt(
        f"1\tshort\n2\t{'x' * 4_000}{_hidden(6_000)}\n3\tend", (LineSpan(1, 3),), False, 1
    )


def test_a_file_over_the_line_threshold_is_windowed_with_its_long_lines_shortened():
    lines = ["a", "x" * 10_000, "b", "c"]
    policy = WindowPolicy(threshold_lines=2, context_lines=1, max_regions=1)

    shown = excerpt(policy, lines, [Region(2, 2, 0.9)], max_bytes=6_000)

    assert shown == Excerpt(
        f"1\ta\n2\t{'x' * 4_000}{_hidden(6_000)}\n3\tb\n⋮ lines 4-4 not shown",
        (LineSpan(1, 3),),
        True,
        1,
    )


def test_without_a_needle_long_lines_are_shown_from_their_start():
    line = "a" * 3_000 + "XXXX" + "b" * 3_000

    shown = excerpt(WindowPolicy(), [line], [], max_bytes=5_000)

    assert shown is not None
    assert shown.text == f"1\t{line[:4_000]}{_hidden(2_004)}"


def test_only_the_most_similar_region_is_kept_when_one_window_is_all_that_fits():
    lines = [f"{n:03d} " + "z" * 96 for n in range(1, 101)]
    regions = [Region(10, 10, 0.9), Region(50, 50, 0.8), Region(90, 90, 0.7)]
    expected = "⋮ lines 1-7 not shown\n" + "\n".join(
        f"{n:>3}\t{lines[n - 1]}" for n in range(8, 13)
    )
    expected += "\n⋮ lines 13-100 not shown"

    shown = excerpt(WindowPolicy(context_lines=2), lines, regions, max_bytes=_size(expected))

    assert shown is not None and shown.spans == (LineSpan(8, 12),)


# When even the best region alone, shortest lines, is too large: its first lines.
_LONG = ["x" * 1_000] * 100
_TWO_REGIONS = [Region(10, 19, 0.5), Region(50, 59, 0.9)]


def _first_lines(start: int, end: int) -> str:
    """The excerpt of lines start..end of _LONG, each cut to 240 characters."""
    rows = [f"{n:>3}\t{'x' * 240}{_hidden(760)}" for n in range(start, end + 1)]
    after = f"\n⋮ lines {end + 1}-100 not shown" if end < 100 else ""
    return f"⋮ lines 1-{start - 1} not shown\n" + "\n".join(rows) + after


@pytest.mark.parametrize("end", [58, 57, 50])
def test_the_best_region_too_large_to_show_whole_shows_as_many_first_lines_as_fit(end):
    budget = _size(_first_lines(50, end))

    shown = excerpt(WindowPolicy(), _LONG, _TWO_REGIONS, max_bytes=budget)

    assert shown == Excerpt(_first_lines(50, end), (LineSpan(50, end),), True, end - 49)


def test_a_best_region_at_the_end_of_the_file_shows_its_first_lines_too():
    budget = _size(_first_lines(91, 95))

    shown = excerpt(WindowPolicy(), _LONG, [Region(91, 100, 0.9)], max_bytes=budget)

    assert shown is not None and shown.spans == (LineSpan(91, 95),)


def test_when_not_one_line_of_the_best_region_fits_there_is_no_excerpt():
    budget = _size(_first_lines(50, 50)) - 1

    assert excerpt(WindowPolicy(), _LONG, _TWO_REGIONS, max_bytes=budget) is None


def test_the_ladder_halves_the_context_down_to_the_best_region_alone():
    assert _ladder(WindowPolicy()) == [
        (3, 40), (1, 40), (1, 20), (1, 10), (1, 5), (1, 2), (1, 1), (1, 0),
    ]  # fmt: skip
    assert _ladder(WindowPolicy(context_lines=3, max_regions=1)) == [(1, 3), (1, 1), (1, 0)]
    assert _ladder(WindowPolicy(context_lines=0)) == [(3, 0), (1, 0)]


def test_a_line_as_long_as_the_cap_is_shown_whole_and_each_shortened_line_counts():
    lines = ["x" * 10, "y" * 11, "z" * 12]

    text, clipped = _numbered(lines, (LineSpan(1, 3),), 10, _Focus(lines, ""))

    assert text == f"1\t{'x' * 10}\n2\t{'y' * 10}{_hidden(1)}\n3\t{'z' * 10}{_hidden(2)}"
    assert clipped == 2


@pytest.mark.parametrize(
    ("center", "shown"),
    [
        (0, f"abcdefghij{_hidden(16)}"),
        (13, f"{_hidden(8)}ijklmnopqr{_hidden(8)}"),
        (25, f"{_hidden(16)}qrstuvwxyz"),
    ],
)
def test_a_shortened_line_shows_the_cap_around_its_focus_and_counts_what_is_hidden(center, shown):
    assert _shortened("abcdefghijklmnopqrstuvwxyz", 10, center) == shown


def test_hidden_characters_are_counted_with_thousands_separators():
    assert _shortened("x" * 5_010, 10, 0) == f"{'x' * 10}⟪5,000 characters not shown⟫"


@pytest.mark.parametrize(
    ("line", "needle", "column"),
    [
        ("needle here needle", "  needle ", 3),  # the middle of the first copy
        ("xx needle", "needle", 6),
        ("abc", " \n ", 0),  # no needle: the line's start
        ("zzzzzzzzzzzzneedlzzzzzzzzz", "needle", 14),  # the middle of the likeliest part
        ("xyzxyzxyz", "abc", 0),  # nothing alike: the line's start
        ("b" * 400 + "a", "a" * 400, 400),  # the faintest likeness still counts
    ],
)
def test_the_focus_of_a_long_line_is_the_middle_of_the_part_most_like_the_needle(
    line, needle, column
):
    assert _Focus([line], needle).column(0) == column


# Looking for the likeliest lines when the cascade found no region.

_FILE = ["alpha beta", "total = apply_discount(basket, rate)", "zz short", "gamma", "delta"]


def test_the_likeliest_lines_are_found_from_the_longest_line_of_the_quote():
    needle = "zz short\n    total = apply_discount(basket, rate=0.15)  \n"
    probe = "total = apply_discount(basket, rate=0.15)"

    found = _likely_regions(_FILE, needle, 3)

    assert found == [Region(2, 2, fuzz.partial_ratio(probe, _FILE[1]) / 100.0)]


def test_at_most_the_limit_of_likely_lines_is_given():
    lines = ["apply_discount(basket)"] * 4

    assert len(_likely_regions(lines, "apply_discount(basket)", 2)) == 2


def test_a_probe_under_eight_characters_finds_nothing():
    assert _likely_regions(["abcdefg"], "abcdefg", 3) == []
    assert _likely_regions(["abcdefgh"], "abcdefgh", 3) == [Region(1, 1, 1.0)]


def test_a_file_with_too_many_lines_or_characters_is_not_probed():
    many = ["abcdefgh"] + ["."] * 4_999
    assert _likely_regions(many, "abcdefgh", 1) == [Region(1, 1, 1.0)]
    assert _likely_regions([*many, "."], "abcdefgh", 1) == []
    large = ["abcdefgh" + "." * 2_992] + ["." * 3_000] * 999
    assert _likely_regions(large, "abcdefgh", 1) == [Region(1, 1, 1.0)]
    assert _likely_regions([*large, "."], "abcdefgh", 1) == []
