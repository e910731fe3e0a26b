"""A line view lives as long as its text is edited: failing edits of an unchanged file must
not grow the memory its memo keeps, one edit's answers after another."""

from __future__ import annotations

import tracemalloc

from editengine import edit_text
from editengine._errors import NoMatch
from editengine.matching._lines import _MEMO_ENTRIES, line_view

CONTENT = "".join(
    f"def handler_{k}(request):\n    return respond({k}, request)\n" for k in range(40)
)


def _fail(number: int) -> None:
    try:
        edit_text(CONTENT, f"def missing_{number}(query):\n    return answer_{number}(query)", "x")
    except NoMatch:
        pass
    else:  # pragma: no cover - every quote here is absent
        raise AssertionError("the quote matched")


def test_ten_thousand_failing_edits_of_one_file_keep_memory_flat():
    for number in range(100):  # the view, its indexes and the cascade's own caches
        _fail(number)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(100, 10_100):
            _fail(number)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    print(f"traced memory grown over 10,000 failing edits: {grown / 1e6:.2f} MB")
    assert grown < 10_000_000
    assert len(line_view(CONTENT).memo) <= _MEMO_ENTRIES


def test_the_memo_forgets_its_oldest_answers_first():
    memo = line_view("a\nb\n" * 3).memo
    memo.clear()
    for number in range(_MEMO_ENTRIES + 10):
        memo[("first_place", str(number))] = number
    assert len(memo) == _MEMO_ENTRIES
    assert ("first_place", "0") not in memo
    assert memo[("first_place", str(_MEMO_ENTRIES + 9))] == _MEMO_ENTRIES + 9
