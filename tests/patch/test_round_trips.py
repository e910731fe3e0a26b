"""For every edit of the bundled benchmark, the same edit written as a SEARCH/REPLACE block,
a unified diff and an apply_patch patch gives the same file as edit_text (or the same
refusal)."""

from __future__ import annotations

import pytest

from editengine import EditError, apply_patch, edit_text
from editengine._resources import benchmark_path
from editengine.evaluation.dataset import load_cases
from editengine.evaluation.formats import express, express_many, expressible, path_of
from editengine.patch import FORMATS

CASES = [case for case in load_cases([benchmark_path()]) if expressible(case)]


def edit_outcome(case) -> str | None:
    try:
        return edit_text(case.content, case.old_string, case.new_string).new_content
    except EditError:
        return None


def patch_outcome(case, format: str) -> str | None:
    try:
        result = apply_patch({path_of(case): case.content}, express(case, format), format=format)
    except EditError:
        return None
    return result.files[path_of(case)]


@pytest.mark.parametrize("format", FORMATS)
def test_every_benchmark_edit_in_each_format_gives_the_edit_text_file(format: str) -> None:
    assert len(CASES) > 500
    differ = [case.id for case in CASES if patch_outcome(case, format) != edit_outcome(case)]
    assert differ == []


@pytest.mark.parametrize("format", FORMATS)
def test_the_formats_are_detected_from_the_text(format: str) -> None:
    from editengine.patch import detect_format

    assert {detect_format(express(case, format)) for case in CASES[:50]} == {format}


@pytest.mark.parametrize("format", FORMATS)
def test_three_edits_in_one_patch_give_each_file_its_edit_text_result(format: str) -> None:
    good = [case for case in CASES if edit_outcome(case) is not None][:30]
    for i in range(0, len(good) - 2, 3):
        group = good[i : i + 3]
        files = {path_of(case, n): case.content for n, case in enumerate(group)}
        result = apply_patch(files, express_many(group, format), format=format)
        for n, case in enumerate(group):
            assert result.files[path_of(case, n)] == edit_outcome(case)
