#!/usr/bin/env python3
"""Precision per category: success / refused / wrong through ``edit`` and each patch format.

Two sets: the bundled benchmark (or any dataset given with ``--dataset``) and the edits rebuilt
from public reports in ``tests/wild/test_public_reports.py``. Each case is run through
``edit_text`` and, when a patch can say it, written as a SEARCH/REPLACE block, a unified diff
and an ``apply_patch`` patch (``evaluation._formats``) and applied with ``apply_patch``. A
wrong edit is a success that left any file but the intended one; the script prints their ids
and exits 1 when there is any.

    python scripts/precision_report.py                 # both sets, every column
    python scripts/precision_report.py --set wild      # the public reports only
    python scripts/precision_report.py --category html_entities --wrong
    python scripts/precision_report.py --json out.json

Not a timed test: figures to read, beside ``editengine eval``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from editengine import EditError, edit_text
from editengine._resources import benchmark_path
from editengine.evaluation._dataset import EvalCase, read_dataset
from editengine.evaluation._formats import EDIT, expressible, run_edit, run_format
from editengine.evaluation._scoring import CaseResult, Outcome, score
from editengine.patch import FORMATS

ROOT = Path(__file__).resolve().parents[1]
WILD = ROOT / "tests" / "wild" / "test_public_reports.py"
COLUMNS = (EDIT, *FORMATS)


@dataclass
class Tally:
    success: int = 0
    refused: int = 0
    wrong: int = 0
    wrong_ids: list[str] = field(default_factory=list)

    def add(self, outcome: Outcome, case_id: str) -> None:
        if outcome is Outcome.SUCCESS:
            self.success += 1
        elif outcome is Outcome.REFUSED:
            self.refused += 1
        else:
            self.wrong += 1
            self.wrong_ids.append(case_id)

    def cell(self) -> str:
        return f"{self.success}/{self.refused}/{self.wrong}"

    def merge(self, other: Tally) -> None:
        self.success += other.success
        self.refused += other.refused
        self.wrong += other.wrong
        self.wrong_ids += other.wrong_ids


# A case of a set: its id, category, the EvalCase scored, and how to run it in each column
# (None: the column cannot say it).
Runner = Callable[[str], "CaseResult | None"]


@dataclass(frozen=True)
class Row:
    id: str
    category: str
    case: EvalCase
    run: Runner


def bundled_rows(path: Path) -> list[Row]:
    rows = []
    for case in read_dataset(path):
        rows.append(Row(case.id, case.category, case, _case_runner(case)))
    return rows


def _case_runner(case: EvalCase) -> Runner:
    def run(column: str) -> CaseResult | None:
        if column == EDIT:
            return _edit(case)
        if not expressible(case):
            return None
        return run_format(case, column)

    return run


def _edit(case: EvalCase) -> CaseResult:
    """``edit_text`` with every field of the request (``run_edit`` leaves out the count
    rules, which no patch can say)."""
    if not case.replace_all and case.expected_replacements is None:
        return run_edit(case)
    try:
        edit = edit_text(
            case.content,
            case.old_string,
            case.new_string,
            replace_all=case.replace_all,
            expected_replacements=case.expected_replacements,
            match_mode=case.match_mode,
        )
    except EditError as error:
        return CaseResult(False, error_code=error.code, error=str(error))
    return CaseResult(True, edit.new_content, edit.strategy)


def _load_wild() -> ModuleType:
    spec = importlib.util.spec_from_file_location("public_reports", WILD)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {WILD}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["public_reports"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def wild_rows() -> list[Row]:
    """Each public report as a case: an edit request runs in every column; a report that is
    a patch runs as that patch (column ``patch``)."""
    module = _load_wild()
    rows = []
    for report in module.REPORTS:
        expect = "refuse" if report.intended is None else "success"
        case = EvalCase(
            id=report.name,
            content=report.content,
            old_string=report.old,
            new_string=report.new,
            replace_all=report.replace_all,
            expected_replacements=report.expected_replacements,
            category=report.url.split("/")[3] + "/" + report.url.split("/")[4],
            expect=expect,
            expected_content=report.intended,
            intended_content=report.intended,
            file_name=module.PATH,
            request="retry" if report.unchanged_ok else "fresh",
        )
        rows.append(Row(report.name, case.category, case, _report_runner(report, case)))
    return rows


def _report_runner(report: object, case: EvalCase) -> Runner:
    def run(column: str) -> CaseResult | None:
        if getattr(report, "patch", None) is not None:
            if column != "patch":
                return None
            after = report.run()  # type: ignore[attr-defined]
            return CaseResult(after is not None, after)
        if column == "patch":
            return None
        if column == EDIT:
            after = report.run()  # type: ignore[attr-defined]
            return CaseResult(after is not None, after)
        return run_format(case, column) if expressible(case) else None

    return run


def _scored(row: Row, result: CaseResult) -> Outcome:
    case = row.case
    if case.request == "retry" and result.ok and result.new_content == case.content:
        return Outcome.SUCCESS  # a retry left as it is: a no-op is right
    claimed = result.ok and result.new_content in (None, case.content)
    if claimed and case.expect == "success" and case.expected_content != case.content:
        # A success that left the file as it was where a change was expected (a false
        # "already applied"): the file is not the intended one. `editengine eval` counts it
        # as refused; no earlier bundled case is affected.
        return Outcome.WRONG
    return score(case, result)


def tally(rows: Iterable[Row], columns: Sequence[str]) -> dict[str, dict[str, Tally]]:
    """``{category: {column: Tally}}``."""
    table: dict[str, dict[str, Tally]] = defaultdict(lambda: {c: Tally() for c in columns})
    for row in rows:
        for column in columns:
            result = row.run(column)
            if result is not None:
                table[row.category][column].add(_scored(row, result), row.id)
    return dict(table)


def render(title: str, table: dict[str, dict[str, Tally]], columns: Sequence[str]) -> str:
    total = {c: Tally() for c in columns}
    for tallies in table.values():
        for column, t in tallies.items():
            total[column].merge(t)
    width = max([len("category"), len("TOTAL"), *(len(c) for c in table)])
    head = f"{'category':<{width}}  " + "  ".join(f"{c:>16}" for c in columns)
    lines = [title, "success/refused/wrong per column", head, "-" * len(head)]
    for category, tallies in table.items():
        cells = "  ".join(f"{tallies[c].cell():>16}" for c in columns)
        lines.append(f"{category:<{width}}  {cells}")
    lines.append("-" * len(head))
    lines.append(f"{'TOTAL':<{width}}  " + "  ".join(f"{total[c].cell():>16}" for c in columns))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("bundled", "wild", "both"), default="both")
    parser.add_argument("--dataset", type=Path, default=None, help="instead of the bundled set")
    parser.add_argument("--category", action="append", help="only these categories")
    parser.add_argument("--wrong", action="store_true", help="list every wrong case id")
    parser.add_argument("--json", type=Path, help="write the tallies as JSON")
    args = parser.parse_args(argv)
    sets: list[tuple[str, list[Row], tuple[str, ...]]] = []
    if args.set in ("bundled", "both"):
        path = args.dataset or benchmark_path()
        sets.append((f"bundled set ({path.name})", bundled_rows(path), COLUMNS))
    if args.set in ("wild", "both"):
        sets.append(("public reports (tests/wild)", wild_rows(), (*COLUMNS, "patch")))
    report: dict[str, dict[str, dict[str, dict[str, object]]]] = {}
    wrong = 0
    for title, rows, columns in sets:
        if args.category:
            rows = [row for row in rows if row.category in args.category]
        table = tally(rows, columns)
        print(render(title, table, columns))
        print()
        report[title] = {
            category: {c: vars(t) for c, t in tallies.items()}
            for category, tallies in table.items()
        }
        ids = sorted(
            {i for tallies in table.values() for t in tallies.values() for i in t.wrong_ids}
        )
        wrong += len(ids)
        if ids:
            shown = ids if args.wrong else ids[:15]
            more = "" if args.wrong or len(ids) <= 15 else f" (+{len(ids) - 15}, --wrong lists all)"
            print(f"{len(ids)} case(s) WRONG in some column: {', '.join(shown)}{more}\n")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", "utf-8")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
