"""The bundled benchmark's cross product: every edit kind x mistake x fresh/retry cell is cut,
labelled, and well formed (what each cell's cases must be, not what the engine makes of them)."""

import re
from collections import Counter

import pytest

from editengine import edit_text
from editengine._resources import benchmark_path
from editengine.evaluation import _edit_kinds as ek
from editengine.evaluation import _mistakes as mk
from editengine.evaluation._dataset import read_dataset

LINE_NUMBER = re.compile(r"^ *(\d+)(?:\t|\u2192|: | \| )")


@pytest.fixture(scope="module")
def cases():
    return read_dataset(benchmark_path())


@pytest.fixture(scope="module")
def cross(cases):
    return [c for c in cases if c.id.startswith("x-")]


def test_every_cell_has_fresh_and_retried_cases(cross):
    cells = Counter((c.category, c.edit_kind, c.request) for c in cross)
    for mistake, kind in mk.cross_pairings():
        assert cells[(mistake, kind, "fresh")] >= 9, (mistake, kind)
        assert cells[(mistake, kind, "retry")] >= 5, (mistake, kind)
    # Nothing outside the pairings, and every edit kind meets every block mistake.
    assert {(m, k) for m, k, _ in cells} == set(mk.cross_pairings())
    for mistake in (*mk.BLOCK_MISTAKES, "two_mistakes"):
        assert {k for m, k, _ in cells if m == mistake} >= set(ek.BLOCK_KINDS)


def test_every_case_says_its_edit_kind_mistakes_and_request(cases):
    for case in cases:
        assert case.edit_kind in ek.EDIT_KINDS, case.id
        assert case.mistakes, case.id
        assert case.request in ("fresh", "retry"), case.id
    kinds = Counter(c.edit_kind for c in cases)
    assert min(kinds.values()) >= 100, kinds


def test_two_mistakes_name_both_and_every_pair_is_cut(cross):
    pairs = Counter(c.mistakes for c in cross if c.category == "two_mistakes")
    assert all(len(pair) == 2 and pair in mk.TWO_MISTAKES for pair in pairs)
    assert len(pairs) == len(mk.TWO_MISTAKES)


def test_a_retry_is_the_same_request_on_the_file_the_first_produced(cross):
    fresh = {c.id: c for c in cross if c.request == "fresh"}
    retries = [c for c in cross if c.request == "retry"]
    assert len(retries) >= 5 * len(mk.cross_pairings())
    for retry in retries:
        first = fresh[retry.id.removesuffix("-retry")]
        assert retry.content == first.expected_content, retry.id
        assert (retry.old_string, retry.new_string) == (first.old_string, first.new_string)
        assert (retry.replace_all, retry.expected_replacements) == (
            first.replace_all,
            first.expected_replacements,
        )
        # Unchanged is right: a refusal and a no-op success both leave the file as it is.
        assert retry.expect == "refuse" and retry.expected_content is None, retry.id


def test_deletions_carry_every_mistake(cross):
    mistakes = {m for c in cross if c.edit_kind == "delete_lines" for m in c.mistakes}
    assert mistakes >= set(mk.BLOCK_MISTAKES)


def test_line_numbers_are_the_files_own_and_consecutive(cross):
    checked = 0
    for case in cross:
        if case.request != "fresh" or "line_number_prefix" not in case.mistakes:
            continue
        file_lines = case.content.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
        old = case.old_string.replace("\r\n", "\n").strip("`\n").split("\n")
        old = [x for x in old if LINE_NUMBER.match(x)]
        numbers = [int(LINE_NUMBER.match(x).group(1)) for x in old]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), case.id
        if "indentation_shift" in case.mistakes:
            continue
        for number, line in zip(numbers, old, strict=True):
            body = LINE_NUMBER.sub("", line, count=1)
            assert file_lines[number - 1].startswith(body.rstrip()), (case.id, number)
        checked += 1
    assert checked >= 50


def test_fences_only_in_files_without_fence_lines(cross):
    fenced = [c for c in cross if "markdown_fence" in c.mistakes]
    assert len(fenced) >= 100
    for case in fenced:
        assert not re.search(r"^\s*```", case.content, re.MULTILINE), case.id
        assert "```" in case.old_string + case.new_string, case.id


def test_long_lines_are_2000_to_50000_characters(cross):
    longs = [c for c in cross if c.category == "long_line"]
    lengths = sorted(max(len(x) for x in c.content.split("\n")) for c in longs)
    assert lengths[0] >= 2000 and 30_000 <= lengths[-1] <= 60_000
    for case in longs:
        assert case.old_string not in case.content and "\n" not in case.old_string


def test_several_typos_stay_in_one_line_of_a_block_of_three_or_more(cross):
    for case in cross:
        if case.mistakes != ("multi_typo",) or case.request != "fresh":
            continue
        file_lines = set(case.content.lstrip("\ufeff").replace("\r\n", "\n").split("\n"))
        old = case.old_string.split("\n")
        assert len(old) >= 3, case.id
        assert sum(line not in file_lines for line in old) == 1, case.id


_FENCE_WRAP = re.compile(r"\A```[\w+-]*\n(.*?)\n```\n?\Z", re.DOTALL)


def _unwrapped(text: str) -> str:
    """``text`` without a wrapping fence and without line-number prefixes."""
    match = _FENCE_WRAP.match(text)
    if match:
        text = match.group(1)
    lines = text.split("\n")
    if all(LINE_NUMBER.match(x) for x in lines):
        lines = [LINE_NUMBER.sub("", x, count=1) for x in lines]
    return "\n".join(lines)


def test_undoing_a_prefix_or_a_fence_by_hand_gives_the_expected_file(cross):
    """The reference recovery: strip what the model added, apply the edit exactly."""
    checked = 0
    for case in cross:
        if case.request != "fresh" or case.mistakes not in (
            ("line_number_prefix",),
            ("markdown_fence",),
        ):
            continue
        old, new = _unwrapped(case.old_string), _unwrapped(case.new_string)
        edited = edit_text(
            case.content,
            old,
            new,
            replace_all=case.replace_all,
            expected_replacements=case.expected_replacements,
        )
        assert edited.new_content == case.expected_content, case.id
        checked += 1
    assert checked >= 100


def test_absent_and_ambiguous_quotes_carry_the_new_mistakes(cases):
    safety = [c for c in cases if c.id.startswith("s-")]
    cells = Counter((c.category, c.mistakes) for c in safety)
    for category, mistake in mk.safety_cells():
        assert cells[(category, (mistake,))] >= 9, (category, mistake)
    for case in safety:
        assert case.expect == "refuse" and case.expected_content is None, case.id
        assert case.edit_kind in ek.BLOCK_KINDS and case.request == "fresh", case.id
        assert case.old_string.replace("\r\n", "\n") not in case.content, case.id
