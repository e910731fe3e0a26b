"""For every edit of the bundled benchmark, the same edit written as a SEARCH/REPLACE block,
a unified diff and an apply_patch patch gives the same file as edit_text (or the same
refusal)."""

from __future__ import annotations

import pytest

from editengine import EditError, apply_patch, edit_text
from editengine._resources import benchmark_path
from editengine.evaluation._dataset import load_cases
from editengine.evaluation._formats import (
    express,
    express_many,
    expressible,
    hunk_texts,
    path_of,
)
from editengine.patch import FORMATS

CASES = [case for case in load_cases([benchmark_path()]) if expressible(case)]


def edit_outcome(case) -> str | None:
    try:
        return edit_text(case.content, case.old_string, case.new_string).new_content
    except EditError:
        return None


def patch_outcome(case, format: str) -> str | None:
    try:
        # Placement compared with edit_text's, which has no file name: no syntax check either.
        result = apply_patch(
            {path_of(case): case.content}, express(case, format), format=format, syntax_guard="off"
        )
    except EditError:
        return None
    return result.files[path_of(case)]


def file_after(case, outcome: str | None) -> str | None:
    """The file an outcome leaves. A retried request (sent again after it applied) must
    leave the file as it is: a refusal and a no-op are the same outcome there."""
    if case.request == "retry" and outcome is None:
        return case.content
    return outcome


@pytest.mark.parametrize("format", FORMATS)
def test_every_benchmark_edit_in_each_format_gives_the_edit_text_file(format: str) -> None:
    assert len(CASES) > 500
    differ = [
        case.id
        for case in CASES
        if file_after(case, patch_outcome(case, format)) != file_after(case, edit_outcome(case))
    ]
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
        result = apply_patch(files, express_many(group, format), format=format, syntax_guard="off")
        for n, case in enumerate(group):
            assert result.files[path_of(case, n)] == edit_outcome(case)


def said_alike_in_a_diff(case) -> bool:
    """Whether the edit means the same once written as a diff. Blank lines padding only
    old_string are a misquote in a tool call (the cascade trims them), but as '-' lines of
    a diff they ask for those blank lines to be deleted: such cases say something else there."""
    return "boundary_blank_lines" not in case.mistakes


def with_file_context(case, lines_around: int = 2) -> tuple[str, str] | None:
    """The case's hunk with ``lines_around`` lines of the file's own text above and below
    (as a diff tool writes them), or ``None`` when old_string is not whole lines."""
    try:
        edit = edit_text(case.content, case.old_string, case.new_string)
    except EditError:
        return None
    before, after = hunk_texts(case)
    if not case.old_string or len(edit.spans) != 1:
        return None
    span = edit.spans[0]
    lines = case.content.replace("\r\n", "\n").split("\n")
    start = span.start_line - 1
    first = before.split("\n", 1)[0]
    if before.count("\n") != span.end_line - start or lines[start].strip() != first.strip():
        return None  # a fragment of a line: a diff cannot say it
    above = "".join(line + "\n" for line in lines[max(0, start - lines_around) : start])
    below_lines = lines[span.end_line : span.end_line + lines_around]
    below = "".join(line + "\n" for line in below_lines) if span.end_line < len(lines) - 1 else ""
    return above + before + below, above + after + below


def test_hunks_with_the_files_own_context_give_the_edit_text_file() -> None:
    from editengine.evaluation._formats import _hunk_lines

    compared = 0
    differ = []
    for case in filter(said_alike_in_a_diff, CASES):
        texts = with_file_context(case)
        if texts is None:
            continue
        compared += 1
        diff = f"--- a/f\n+++ b/f\n@@ -1 +1 @@\n{_hunk_lines(*texts)}"
        try:
            got = apply_patch({"f": case.content}, diff, format="udiff").files["f"]
        except EditError:
            got = None
        if file_after(case, got) != file_after(case, edit_outcome(case)):
            differ.append(case.id)
    assert compared > 150
    assert differ == []


@pytest.mark.parametrize("context", [2, 3, 5])
def test_diffs_written_by_difflib_are_never_wrong(context: int) -> None:
    """Every benchmark edit as ``difflib.unified_diff`` writes it (hunks cut to ``context``
    lines, so one edit may become several hunks): no file is ever changed into anything
    but the expected one, and the successes stay within a point of edit_text's."""
    import difflib

    from editengine.evaluation._scoring import CaseResult, Outcome, score

    outcomes = {Outcome.SUCCESS: 0, Outcome.REFUSED: 0, Outcome.WRONG: 0}
    edit_successes = 0
    wrong = []
    for case in filter(said_alike_in_a_diff, CASES):
        before, after = hunk_texts(case)
        diff = "".join(
            difflib.unified_diff(
                before.splitlines(True), after.splitlines(True), "a/f", "b/f", n=context
            )
        )
        if not diff:
            continue
        try:
            applied = apply_patch({"f": case.content}, diff)
            result = CaseResult(True, applied.files["f"])
        except EditError:
            applied, result = None, CaseResult(False)
        if (
            case.expect == "refuse"
            and applied is not None
            and all(hunk.strategy == "exact" for hunk in applied.hunks)
        ):
            # The quote's mistake fell outside the hunks difflib cut (a differing line beyond
            # the context): what is left is a patch whose every line stands in the file as
            # written, a request of its own that is right to apply.
            continue
        outcome = score(case, result)
        outcomes[outcome] += 1
        if outcome is Outcome.WRONG:
            wrong.append(case.id)
        edit = edit_outcome(case)
        edit_successes += score(case, CaseResult(edit is not None, edit)) is Outcome.SUCCESS
    assert wrong == []
    assert outcomes[Outcome.SUCCESS] >= edit_successes - len(CASES) // 100


def test_a_multi_file_patch_is_scored_file_by_file_retries_included() -> None:
    """A retried request's file must stay as it is while the fresh files beside it change:
    a patch that does both is a success, not a wrong edit."""
    from editengine.evaluation._formats import score_group
    from editengine.evaluation._scoring import Outcome

    # A retried request expects its file left alone ("refuse": a no-op or a refusal).
    retried = [case for case in CASES if case.request == "retry" and case.expect == "refuse"]
    fresh = [case for case in CASES if case.request != "retry" and edit_outcome(case)]
    retried = [case for case in retried if edit_outcome(case) == case.content][:5]
    fresh = [case for case in fresh if edit_outcome(case) != case.content][:5]
    assert retried and fresh
    for pair in zip(retried, fresh):
        assert score_group(list(pair), "udiff") is Outcome.SUCCESS
