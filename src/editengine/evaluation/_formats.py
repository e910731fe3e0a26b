"""The benchmark through each patch format, beside ``edit`` (``editengine eval --format``).

Each case's edit (old_string -> new_string on one file) is written as a SEARCH/REPLACE
block, a unified diff and an ``apply_patch`` patch (:func:`express`), applied with
:func:`editengine.apply_patch`, and scored as ``edit`` is: SUCCESS, REFUSED or WRONG.
Hunks are line-based, so an old_string that does not end a line gets its newline (and so
does new_string): the same edit for every whole-line quote. Cases a patch cannot say
(``replace_all``, ``expected_replacements``) are left out of every column alike.

Multi-file rows join consecutive cases into one patch over several files: it must change
every file as expected, or (when one of its cases expects a refusal) none of them.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from editengine._errors import EditError
from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._scoring import CaseResult, Outcome, score
from editengine.matching._cascade import edit_text
from editengine.patch import FORMATS, apply_patch

EDIT = "edit"
GROUP_SIZE = 3


# Mistakes of a tool call's string (a fence around it, a read tool's line numbers on each of
# its lines): a patch has an envelope of its own, and its lines carry no such wrapping.
_TOOL_CALL_WRAPPINGS = frozenset({"markdown_fence", "line_number_prefix", "read_tool_gutter"})


def expressible(case: EvalCase) -> bool:
    """A patch can say this edit: one replacement, no count rule, a named or default path,
    no wrapping that only a tool call's string carries, and a quote with text in it (an empty
    or blank old_string would be written as whole lines: the whole file, or blank lines that
    stand once as lines though the quote stands in overlapping places; another request, one
    that says what it replaces)."""
    return (
        not case.replace_all
        and case.expected_replacements in (None, 1)
        and not _TOOL_CALL_WRAPPINGS.intersection(case.mistakes)
        and (case.old_string.strip() != "" or not case.content)
    )


def path_of(case: EvalCase, index: int = 0) -> str:
    name = case.file_name or "file.txt"
    return name if index == 0 else f"f{index}/{name}"


def hunk_texts(case: EvalCase) -> tuple[str, str]:
    """The edit as whole lines: before-text and after-text."""
    old, new = case.old_string, case.new_string
    if old == "":
        return case.content, new  # "" replaces the whole file
    if not old.endswith("\n"):
        old, new = old + "\n", new + "\n"
    elif new and not new.endswith("\n"):
        new += "\n"
    return old, new


def express(case: EvalCase, format: str, *, path: str | None = None) -> str:
    """``case``'s edit written in ``format`` (one file)."""
    return _envelope(format, [_section(case, format, path or path_of(case))])


def express_many(cases: Sequence[EvalCase], format: str) -> str:
    """One patch editing one file per case (``f1/name``, ``f2/name`` ...)."""
    sections = [_section(case, format, path_of(case, i)) for i, case in enumerate(cases)]
    return _envelope(format, sections)


def _envelope(format: str, sections: list[str]) -> str:
    if format == "apply_patch":
        return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"
    return "".join(sections)


def _section(case: EvalCase, format: str, path: str) -> str:
    before, after = hunk_texts(case)
    if format == "search_replace":
        return f"{path}\n<<<<<<< SEARCH\n{before}=======\n{after}>>>>>>> REPLACE\n\n"
    if not case.content and not before:
        body = "".join("+" + line + "\n" for line in after.splitlines())
        if format == "udiff":
            return f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n{body}"
        return f"*** Add File: {path}\n{body}"
    lines = _hunk_lines(before, after)
    if format == "udiff":
        return f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n{lines}"
    if format == "apply_patch":
        return f"*** Update File: {path}\n@@\n{lines}"
    raise ValueError(f"unknown format {format!r}")


def _hunk_lines(before: str, after: str) -> str:
    """Context, '-' and '+' lines in the order a diff writes them."""
    old, new = before.splitlines(), after.splitlines()
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(" " + line for line in old[i1:i2])
            continue
        out.extend("-" + line for line in old[i1:i2])
        out.extend("+" + line for line in new[j1:j2])
    return "".join(line + "\n" for line in out)


# ---------------------------------------------------------------------- running


def run_edit(case: EvalCase) -> CaseResult:
    started = time.perf_counter()
    try:
        edit = edit_text(case.content, case.old_string, case.new_string, match_mode=case.match_mode)
    except EditError as error:
        return CaseResult(False, error_code=error.code, error=str(error), elapsed_ms=_ms(started))
    return CaseResult(True, edit.new_content, edit.strategy, elapsed_ms=_ms(started))


def run_format(case: EvalCase, format: str) -> CaseResult:
    started = time.perf_counter()
    path = path_of(case)
    try:
        # The edit column runs without a file name (no syntax check): so does this one.
        result = apply_patch(
            {path: case.content}, express(case, format), format=format, syntax_guard="off"
        )
    except EditError as error:
        return CaseResult(False, error_code=error.code, error=str(error), elapsed_ms=_ms(started))
    except Exception as error:  # a crash is a finding to report, not a reason to stop
        return CaseResult(False, error_code="internal_error", error=repr(error))
    return CaseResult(True, result.files.get(path), result.strategy, elapsed_ms=_ms(started))


def score_group(cases: Sequence[EvalCase], format: str) -> Outcome:
    """One multi-file patch made of ``cases``: all changed as expected, or none."""
    files = {path_of(case, i): case.content for i, case in enumerate(cases)}
    try:
        result = apply_patch(files, express_many(cases, format), format=format, syntax_guard="off")
        after = {path: result.files.get(path, files[path]) for path in files}
        ok = True
    except EditError:
        after, ok = dict(files), False
    except Exception:
        return Outcome.WRONG
    outcomes = [
        score(case, CaseResult(ok, after[path_of(case, i)])) for i, case in enumerate(cases)
    ]
    # Each file is scored as its own case: a retried request's file must be left as it is
    # while the fresh ones beside it change. A patch refused whole leaves every file alone.
    untouched = all(after[p] is None or after[p] == files[p] for p in files)
    if all(outcome is Outcome.SUCCESS for outcome in outcomes):
        return Outcome.SUCCESS
    return Outcome.REFUSED if untouched else Outcome.WRONG


@dataclass
class Tally:
    success: int = 0
    refused: int = 0
    wrong: int = 0
    elapsed_ms: float = 0.0
    wrong_ids: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.success + self.refused + self.wrong

    def add(self, outcome: Outcome, case_id: str = "") -> None:
        if outcome is Outcome.SUCCESS:
            self.success += 1
        elif outcome is Outcome.REFUSED:
            self.refused += 1
        else:
            self.wrong += 1
            self.wrong_ids.append(case_id)

    def to_dict(self) -> dict[str, Any]:
        total = self.total or 1
        return {
            "cases": self.total,
            "success": self.success,
            "refused": self.refused,
            "wrong": self.wrong,
            "success_pct": round(100 * self.success / total, 2),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "wrong_ids": self.wrong_ids,
        }


def run_formats(
    cases: Sequence[EvalCase], formats: Sequence[str] = FORMATS
) -> dict[str, dict[str, Tally]]:
    """``{"single": {column: Tally}, "multi_file": {column: Tally}}``, columns ``edit`` and
    each format, on the expressible cases."""
    chosen = [case for case in cases if expressible(case)]
    single = {name: Tally() for name in (EDIT, *formats)}
    for case in chosen:
        for name, tally in single.items():
            result = run_edit(case) if name == EDIT else run_format(case, name)
            tally.elapsed_ms += result.elapsed_ms
            tally.add(score(case, result), case.id)
    multi = {name: Tally() for name in formats}
    groups = [chosen[i : i + GROUP_SIZE] for i in range(0, len(chosen), GROUP_SIZE)]
    for group in groups:
        if len(group) < 2:
            continue
        for name, tally in multi.items():
            started = time.perf_counter()
            tally.add(score_group(group, name), "+".join(case.id for case in group))
            tally.elapsed_ms += _ms(started)
    return {"single": single, "multi_file": multi}


def formats_table(results: dict[str, dict[str, Tally]], *, left_out: int = 0) -> Any:
    from rich.table import Table

    # Within 80 columns, every name and header whole: no outer edge, "%" for success %.
    table = Table(
        title="Patch formats beside edit (bundled benchmark, expressible cases)",
        show_edge=False,
    )
    for column in ("run", "format", "cases", "success", "refused", "wrong", "%", "ms"):
        named = column in ("run", "format")
        table.add_column(column, justify="left" if named else "right", no_wrap=named)
    for run, tallies in results.items():
        for name, tally in tallies.items():
            data = tally.to_dict()
            table.add_row(
                run.replace("_", "-"), name, str(data["cases"]), str(data["success"]),
                str(data["refused"]), str(data["wrong"]), f"{data['success_pct']:.1f}",
                f"{data['elapsed_ms']:.0f}",
            )  # fmt: skip
    if left_out:
        table.caption = f"{left_out} case(s) left out: replace_all / expected_replacements"
    return table


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def handle_formats(cases: Sequence[EvalCase], choice: str, out: Any, *, json_out: Any) -> int:
    """``editengine eval --format``: print the table (and the JSON report); exit 1 on WRONG."""
    import json

    formats = FORMATS if choice == "all" else (choice,)
    results = run_formats(cases, formats)
    left_out = sum(1 for case in cases if not expressible(case))
    out.print(formats_table(results, left_out=left_out))
    if json_out is not None:
        data = {
            run: {k: t.to_dict() for k, t in tallies.items()} for run, tallies in results.items()
        }
        json_out.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    wrong = sum(t.wrong for tallies in results.values() for t in tallies.values())
    if wrong:
        ids = sorted(
            {i for tallies in results.values() for t in tallies.values() for i in t.wrong_ids}
        )
        out.print(f"{wrong} WRONG: {', '.join(ids[:20])}", markup=False)
    return 1 if wrong else 0
