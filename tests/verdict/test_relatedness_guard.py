"""The relatedness guard on its own: where a fixer correction may sit, what it may write,
and when "no change needed" is believed."""

from __future__ import annotations

import pytest

from editengine._errors import BadRequest
from editengine._results import Region
from editengine.verdict import (
    NotTheRequestedEdit,
    RelatednessGuard,
    core_similarity,
    occurrences,
    search_similarity,
)


@pytest.mark.parametrize(
    "settings",
    [{"near_lines": -1}, {"min_search_similarity": 1.01}, {"closer_margin": -0.01}],
)
def test_settings_out_of_range_are_refused_with_the_setting_named(settings: dict) -> None:
    with pytest.raises(BadRequest) as refused:
        RelatednessGuard(**settings)
    assert next(iter(settings)) in str(refused.value)


def test_settings_at_their_bounds_are_accepted() -> None:
    guard = RelatednessGuard(near_lines=0, min_search_similarity=1.0, closer_margin=0.0)
    assert guard.contenders([Region(1, 1, 0.5)]) == [Region(1, 1, 0.5)]


def test_a_search_cut_inside_a_word_is_named_with_the_word_it_cuts() -> None:
    guard = RelatednessGuard()
    text = "x = cartTotal + 1\n"
    for search in ("cartTota", "artTotal"):
        assert guard.splits_a_word(text=text, search=search) == (
            f"its search text starts or ends inside a word of the file ({search!r} in 'cartTotal')"
        )


def test_a_search_ending_on_an_underscore_word_is_cut_inside_it() -> None:
    why = RelatednessGuard().splits_a_word(text="x = foo_bar\n", search="x = foo")
    assert why is not None and "'foo_bar'" in why


def test_the_word_named_is_cut_to_forty_characters() -> None:
    why = RelatednessGuard().splits_a_word(text="x " + "a" * 50 + "\n", search="a" * 45)
    assert why is not None and why.endswith(f"({'a' * 40!r} in {'a' * 40!r})")


def test_a_search_on_word_boundaries_or_absent_or_empty_splits_nothing() -> None:
    guard = RelatednessGuard()
    assert guard.splits_a_word(text="cartTotal\n", search="cartTotal") is None
    assert guard.splits_a_word(text="x = foo_bar\n", search=" = foo_bar") is None
    assert guard.splits_a_word(text="  foo(x)\n", search="foo(x") is None
    assert guard.splits_a_word(text="y = 1\n", search="z") is None
    assert guard.splits_a_word(text="y = 1\n", search="") is None


def test_every_place_of_the_search_is_checked_not_only_the_first() -> None:
    guard = RelatednessGuard()
    assert guard.splits_a_word(text="ab ab", search="ab") is None
    for text in ("ab xab", "ab xab ab"):
        assert guard.splits_a_word(text=text, search="ab") == (
            "its search text starts or ends inside a word of the file ('ab' in 'xab')"
        )


def test_a_word_cut_at_the_second_character_of_the_file_is_found() -> None:
    assert RelatednessGuard().splits_a_word(text="xab", search="ab") == (
        "its search text starts or ends inside a word of the file ('ab' in 'xab')"
    )


def test_a_search_cut_inside_a_word_at_its_start_is_refused_whatever_follows() -> None:
    why = RelatednessGuard().splits_a_word(text="ab = 1\n", search="b = 1")
    assert why is not None and "'ab'" in why


def test_the_word_named_is_the_one_cut_at_the_start_when_both_ends_are_cut() -> None:
    why = RelatednessGuard().splits_a_word(text="x = cartTotal + 10\n", search="Total + 1")
    assert why is not None and why.endswith("in 'cartTotal')")


def test_a_word_at_the_very_start_of_the_file_is_named_whole() -> None:
    why = RelatednessGuard().splits_a_word(text="cartTotal = x", search="cartTota")
    assert why is not None and why.endswith("in 'cartTotal')")


def test_line_endings_do_not_hide_a_cut_word() -> None:
    why = RelatednessGuard().splits_a_word(text="a\r\nb_c\r\n", search="a\r\nb")
    assert why is not None and "'b_c'" in why


def test_no_regions_leave_no_contenders() -> None:
    assert RelatednessGuard().contenders([]) == []


RETRIES = "a = 1\nretries = 5\nb = 2\n"


def test_no_change_is_believed_at_a_search_like_old_string_when_no_region_was_found() -> None:
    guard = RelatednessGuard()
    assert guard.already_applied_where_meant(
        text=RETRIES,
        old_string="retries = 3\n",
        new_string="retries = 5\n",
        closest=(),
        search="retries = 5\n",
    )
    # Without the search there is no place meant at all.
    assert not guard.already_applied_where_meant(
        text=RETRIES, old_string="retries = 3\n", new_string="retries = 5\n", closest=()
    )


def test_a_search_exactly_as_like_old_string_as_required_counts() -> None:
    old, search = "retries = 3\n", "retries = 5\n"
    guard = RelatednessGuard(min_search_similarity=search_similarity(old, search))
    assert guard.already_applied_where_meant(
        text=RETRIES, old_string=old, new_string=search, closest=(), search=search
    )


def test_a_search_that_is_not_text_or_not_given_shows_no_place() -> None:
    # No search is read as some text that may stand in the file.
    request = {"text": "XXXX = 2\n", "old_string": "XXXX = 1\n", "new_string": "XXXX = 2\n"}
    guard = RelatednessGuard()
    assert not guard.already_applied_where_meant(**request, closest=(), search=None)  # type: ignore[arg-type]  # a wrong type on purpose
    assert not guard.already_applied_where_meant(**request, closest=())


def test_new_string_on_the_line_beside_the_region_meant_is_not_the_edit_done_there() -> None:
    assert not RelatednessGuard().already_applied_where_meant(
        text="count = 3\nother = 9\n",
        old_string="count = 2\n",
        new_string="count = 3\n",
        closest=(Region(2, 2, 0.5),),
    )


def test_a_request_that_only_respaces_is_never_believed_done_by_a_no_change_answer() -> None:
    # Nothing of it can be compared token by token with the place.
    assert not RelatednessGuard().already_applied_where_meant(
        text="x = 1\n", old_string="x=1\n", new_string="x = 1\n", closest=(Region(1, 1, 0.9),)
    )


def test_no_change_is_not_believed_at_a_search_that_passes_over_a_better_region() -> None:
    text = "retries = 3\n" + "pass\n" * 10 + "retries = 5\n"
    assert not RelatednessGuard().already_applied_where_meant(
        text=text,
        old_string="retries = 3\n",
        new_string="retries = 5\n",
        closest=(Region(1, 1, 0.99),),
        search="retries = 5\n",
    )


def test_a_deletion_is_never_already_applied() -> None:
    assert not RelatednessGuard().already_applied_where_meant(
        text=RETRIES, old_string="a = 1\n", new_string="\n", closest=(Region(1, 1, 0.8),)
    )


OLD = "def subtotal(lines):\n    result = 0\n"
LIKE = "def subtotal(items):\n    total = 0\n"
UNLIKE = "x = compute(0)\n"


def test_with_no_margin_the_best_region_itself_is_still_a_contender() -> None:
    # A search inside the best region is placed by the carry, however unlike old_string.
    guard = RelatednessGuard(closer_margin=0.0)
    assert (
        guard.why_misplaced(
            old_string=OLD, search=UNLIKE, spans=(Region(12, 12),), closest=(Region(10, 14, 0.8),)
        )
        is None
    )


def test_a_search_ending_on_the_last_line_of_the_region_is_inside_it() -> None:
    assert (
        RelatednessGuard().why_misplaced(
            old_string=OLD, search=UNLIKE, spans=(Region(12, 14),), closest=(Region(10, 14, 0.8),)
        )
        is None
    )


def test_near_reaches_exactly_near_lines_before_the_region() -> None:
    # Lines 6-7 end three lines before the region at 10: near, so the search's core is
    # compared with the region; were it not near, its similarity would fall short of 0.95.
    guard = RelatednessGuard(min_search_similarity=0.95)
    closest = (Region(10, 14, 0.75),)
    assert (
        guard.why_misplaced(old_string=OLD, search=LIKE, spans=(Region(6, 7),), closest=closest)
        is None
    )
    assert guard.why_misplaced(old_string=OLD, search=LIKE, spans=(Region(5, 6),), closest=closest)


def test_a_near_search_whose_core_is_exactly_as_like_as_the_region_is_placed() -> None:
    core = core_similarity(OLD, LIKE)
    guard = RelatednessGuard(min_search_similarity=1.0, closer_margin=0.0)
    closest = (Region(10, 11, core),)
    assert (
        guard.why_misplaced(old_string=OLD, search=LIKE, spans=(Region(12, 13),), closest=closest)
        is None
    )


def test_a_far_search_exactly_as_like_as_required_is_placed() -> None:
    guard = RelatednessGuard(min_search_similarity=search_similarity(OLD, LIKE))
    assert (
        guard.why_misplaced(old_string=OLD, search=LIKE, spans=(Region(400, 401),), closest=())
        is None
    )


def test_a_far_search_exactly_as_like_as_the_best_region_is_placed() -> None:
    similarity = search_similarity(OLD, LIKE)
    guard = RelatednessGuard(closer_margin=0.0)
    closest = (Region(10, 11, similarity),)
    assert (
        guard.why_misplaced(old_string=OLD, search=LIKE, spans=(Region(400, 401),), closest=closest)
        is None
    )


def test_a_far_search_within_the_margin_below_the_best_region_is_placed() -> None:
    assert (
        RelatednessGuard().why_misplaced(
            old_string=OLD, search=OLD, spans=(Region(400, 401),), closest=(Region(10, 11, 0.99),)
        )
        is None
    )


def test_the_refusal_names_every_place_of_the_search_and_every_region() -> None:
    why = RelatednessGuard().why_misplaced(
        old_string=OLD,
        search="zzz\n",
        spans=(Region(40, 40), Region(50, 51)),
        closest=(Region(10, 11, 0.8), Region(20, 20, 0.5)),
    )
    assert why == (
        "it pointed elsewhere: its search text is at line 40, lines 50-51, away from where "
        "old_string most nearly is (lines 10-11, line 20), and only 0% similar to old_string"
    )


def test_the_refusal_says_when_neither_the_search_nor_a_region_has_a_place() -> None:
    why = RelatednessGuard().why_misplaced(old_string=OLD, search="zzz\n", spans=(), closest=())
    assert why == (
        "it pointed elsewhere: its search text is at a place it does not say and only 0% "
        "similar to old_string"
    )


def test_occurrences_are_every_place_in_order_with_their_lines() -> None:
    text = "a\nb\nc\nb\nd\nb\n"
    assert occurrences(text, "b\n") == [Region(2, 2), Region(4, 4), Region(6, 6)]
    assert occurrences(text, "c\nb\nd") == [Region(3, 5)]
    assert occurrences(text, "a\nb\n") == [Region(1, 2)]
    assert occurrences("x\n\ny\n", "x\n\n") == [Region(1, 2)]
    assert occurrences("\nx\n", "x") == [Region(2, 2)]
    assert occurrences(text, "") == []


def test_overlapping_occurrences_are_each_counted() -> None:
    assert occurrences("xxx\n", "xx") == [Region(1, 1), Region(1, 1)]


def test_the_core_of_a_search_that_quotes_old_string_among_context_is_old_string() -> None:
    old = "X = 1\n    beta = 2\n"
    search = "header\nX = 1\n  beta = 2\nfooter\nmore\n"
    assert search_similarity(old, search) < 1.0
    assert core_similarity(old, search) == 1.0
    assert core_similarity("\r\n" + old, search.replace("\n", "\r\n")) == 1.0
    assert core_similarity(old, "header\n" + old) == 1.0


def test_the_core_is_made_of_whole_lines_not_of_words_across_line_breaks() -> None:
    assert core_similarity("a = 1\nb = 2\n", "head\na = 1 b\n= 2\ntail\n") < 1.0


def test_a_blank_old_string_is_like_no_line() -> None:
    assert core_similarity("\n", "a = 1\n") == 0.0


def test_similarity_ignores_how_whitespace_is_spread() -> None:
    assert search_similarity("a  b\n\tc", "a b c") == 1.0
    assert search_similarity("a b", "ab") < 1.0


def test_without_the_file_a_misquoted_name_is_renamed_only_as_the_search_shows() -> None:
    old = "count = line.XXXY\nfor line in lines:\n    result += line.cost\n"
    new = old.replace("    result", "    if line.XXXY == 0:\n        continue\n    result")
    search = "for item in items:\n    total += item.price\n"
    replace = (
        "for item in items:\n    if item.XXXX == 0:\n        continue\n    total += item.price\n"
    )
    guard = RelatednessGuard()
    request = {"old_string": old, "new_string": new, "search": search, "replace": replace}
    assert guard.replacement(**request, file_text="count = item.XXXX\n") == replace
    with pytest.raises(NotTheRequestedEdit, match="turns 'XXXY' into 'XXXX'"):
        guard.replacement(**request)
