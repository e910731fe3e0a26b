from __future__ import annotations

from editengine._errors import Region
from editengine.fixer import LineSpan, WindowPolicy


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
