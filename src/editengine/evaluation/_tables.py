"""Summaries of a run (per category and in total) and their rendering as tables."""

from __future__ import annotations

import difflib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._runner import CaseRecord, RunResult
from editengine.evaluation._scoring import Outcome, final_content
from editengine.reports._grid import Column, Grid, fit

TOTAL = "TOTAL"


@dataclass(frozen=True)
class Tally:
    """Counts for one category (or the total) of one run."""

    cases: int = 0
    success: int = 0
    refused: int = 0
    wrong: int = 0
    fixer_calls: int = 0
    corrected: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0

    @property
    def success_pct(self) -> float:
        return 100.0 * self.success / self.cases if self.cases else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "success": self.success,
            "refused": self.refused,
            "wrong": self.wrong,
            "success_pct": round(self.success_pct, 2),
            "fixer_calls": self.fixer_calls,
            "corrected_by_fixer": self.corrected,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_hits": self.cache_hits,
        }


def tally(records: Iterable[CaseRecord]) -> Tally:
    outcomes: Counter[Outcome] = Counter()
    cases = fixer_calls = corrected = input_tokens = output_tokens = cache_hits = 0
    for record in records:
        cases += 1
        outcomes[record.outcome] += 1
        fixer_calls += record.result.fixer_calls
        corrected += record.result.corrected_by_fixer
        input_tokens += record.result.input_tokens
        output_tokens += record.result.output_tokens
        cache_hits += record.result.cache_hits
    return Tally(
        cases=cases,
        success=outcomes[Outcome.SUCCESS],
        refused=outcomes[Outcome.REFUSED],
        wrong=outcomes[Outcome.WRONG],
        fixer_calls=fixer_calls,
        corrected=corrected,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cache_hits=cache_hits,
    )


def by_group(run: RunResult, key: Callable[[EvalCase], str]) -> dict[str, Tally]:
    """Tallies per ``key(case)`` in order of first appearance, then ``TOTAL``."""
    groups: dict[str, list[CaseRecord]] = {}
    for record in run.records:
        groups.setdefault(key(record.case), []).append(record)
    table = {name: tally(records) for name, records in groups.items()}
    table[TOTAL] = tally(run.records)
    return table


def by_category(run: RunResult) -> dict[str, Tally]:
    """Per-category tallies in order of first appearance, then ``TOTAL``."""
    return by_group(run, lambda case: case.category)


def edit_kind_of(case: EvalCase) -> str:
    return case.edit_kind or "(unlabelled)"


def request_of(case: EvalCase) -> str:
    return case.request or "(unlabelled)"


def by_edit_kind(run: RunResult) -> dict[str, Tally]:
    """Per-edit-kind tallies (``rename``, ``delete_lines``, ...), then ``TOTAL``."""
    return by_group(run, edit_kind_of)


def by_request(run: RunResult) -> dict[str, Tally]:
    """Fresh requests and retries (the same request sent again after it applied)."""
    return by_group(run, request_of)


def labelled(run: RunResult) -> bool:
    """Whether the run's cases say their edit kind (a cross-product benchmark)."""
    return any(record.case.edit_kind for record in run.records)


def grid(run: RunResult) -> dict[str, dict[str, Tally]]:
    """Category x edit kind: the cross product's cells."""
    cells: dict[str, dict[str, list[CaseRecord]]] = {}
    for record in run.records:
        row = cells.setdefault(record.case.category, {})
        row.setdefault(edit_kind_of(record.case), []).append(record)
    return {name: {k: tally(v) for k, v in row.items()} for name, row in cells.items()}


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(pct / 100 * len(ordered))))
    return ordered[rank - 1]


def latency(run: RunResult) -> dict[str, float]:
    values = [r.result.elapsed_ms for r in run.records]
    return {
        "p50_ms": round(percentile(values, 50), 3),
        "p90_ms": round(percentile(values, 90), 3),
        "p99_ms": round(percentile(values, 99), 3),
        "max_ms": round(max(values, default=0.0), 3),
    }


def strategy_mix(run: RunResult) -> dict[str, int]:
    """How many edits each strategy placed, and how many were declined (by error code)."""
    mix: Counter[str] = Counter()
    for record in run.records:
        if record.result.ok:
            mix[record.result.strategy or "unknown"] += 1
        else:
            mix[f"declined:{record.result.error_code or 'unknown'}"] += 1
    return dict(sorted(mix.items(), key=lambda item: (-item[1], item[0])))


def summary(run: RunResult) -> dict[str, Any]:
    """Everything a report needs about one run, JSON-friendly."""
    data: dict[str, Any] = {
        "label": run.config.label,
        "wall_s": round(run.wall_s, 3),
        "categories": {name: t.to_dict() for name, t in by_category(run).items()},
    }
    if labelled(run):
        data["edit_kinds"] = {name: t.to_dict() for name, t in by_edit_kind(run).items()}
        data["requests"] = {name: t.to_dict() for name, t in by_request(run).items()}
        data["grid"] = {
            category: {kind: t.to_dict() for kind, t in row.items()}
            for category, row in grid(run).items()
        }
    data["strategies"] = strategy_mix(run)
    data["latency"] = latency(run)
    return data


# --------------------------------------------------------------------------- rendering


def _uses_fixer(tallies: Iterable[Tally]) -> bool:
    return any(t.fixer_calls or t.input_tokens or t.cache_hits for t in tallies)


def category_grid(
    run: RunResult, *, by: str = "category", tallies: dict[str, Tally] | None = None
) -> Grid:
    """Outcomes per category (or per ``by``: edit kind, request, given its ``tallies``);
    the fixer's columns only when the fixer was called."""
    tallies = by_category(run) if tallies is None else tallies
    title = f"{run.config.label}: {len(run.records)} cases in {run.wall_s:.2f} s"
    fixer = _uses_fixer(tallies.values())
    columns = [
        Column(by, left=True),
        Column("cases"),
        # On a narrow terminal the success count goes before the fixer's calls: its rate
        # stays, and what the fixer cost is the point of a run with one.
        Column("success", drop=2 if fixer else 0),
        Column("refused"),
        Column("wrong", markup=True),
        Column("success %"),
    ]
    if fixer:
        columns += [
            Column("fixer calls"),
            Column("fixed", drop=1),
            Column("tokens in/out", drop=3),
            Column("cache hits", drop=4),
        ]
    grid = Grid(title if by == "category" else f"{title}, per {by}", columns)
    names = list(tallies)
    for name, t in tallies.items():
        cells = [
            name,
            str(t.cases),
            str(t.success),
            str(t.refused),
            f"[red]{t.wrong}[/red]" if t.wrong else "0",
            f"{t.success_pct:.1f}",
        ]
        if fixer:
            cells += [
                str(t.fixer_calls),
                str(t.corrected),
                f"{t.input_tokens}/{t.output_tokens}",
                str(t.cache_hits),
            ]
        grid.add(
            *cells,
            style="bold" if name == TOTAL else None,
            end_section=len(names) > 1 and name == names[-2],
        )
    return grid


def category_table(
    run: RunResult,
    *,
    by: str = "category",
    tallies: dict[str, Tally] | None = None,
    width: int = 120,
) -> Table:
    """:func:`category_grid` as a table within ``width`` columns."""
    return fit(category_grid(run, by=by, tallies=tallies), width)


def details_table(run: RunResult) -> Table:
    table = Table(title=f"{run.config.label}: strategies and latency", show_header=True)
    table.add_column("strategy / outcome", overflow="fold")
    table.add_column("cases", justify="right")
    for name, n in strategy_mix(run).items():
        table.add_row(escape(name), str(n))
    lat = latency(run)
    table.add_row(
        "latency p50 / p90 / p99 / max",
        f"{lat['p50_ms']:.2f} / {lat['p90_ms']:.2f} / {lat['p99_ms']:.2f} / {lat['max_ms']:.2f} ms",
        end_section=False,
    )
    return table


def compare_grid(runs: Sequence[RunResult], *, baseline: str = "cascade") -> Grid:
    """One row per configuration: totals, cost, and the categories where it differs from
    ``baseline`` (the run of that label, else the first) — what a tier buys, what it costs."""
    base = next((run for run in runs if run.config.label == baseline), runs[0])
    base_tallies = by_category(base)
    totals = [by_category(run)[TOTAL] for run in runs]
    fixer = _uses_fixer(totals)
    columns = [
        Column("configuration", left=True),
        Column("success %"),
        Column("success", drop=2),
        Column("refused", drop=2),
        Column("wrong", markup=True),
    ]
    if fixer:
        columns.append(Column("fixer calls", drop=3))
    columns += [
        Column("wall s", drop=4),
        Column(
            f"categories that differ from {base.config.label} (successes, wrong)",
            left=True,
            markup=True,
        ),
    ]
    grid = Grid(f"compare: each configuration against {base.config.label}", columns)
    for run, total in zip(runs, totals, strict=True):
        cells = [
            run.config.label,
            f"{total.success_pct:.1f}",
            str(total.success),
            str(total.refused),
            f"[red]{total.wrong}[/red]" if total.wrong else "0",
        ]
        if fixer:
            cells.append(str(total.fixer_calls))
        cells += [
            f"{run.wall_s:.2f}",
            "" if run is base else _differences(base_tallies, by_category(run)),
        ]
        grid.add(*cells, style="bold" if run is base else None)
    return grid


def compare_table(
    runs: Sequence[RunResult], *, baseline: str = "cascade", width: int = 120
) -> Table:
    return fit(compare_grid(runs, baseline=baseline), width)


def _differences(base: dict[str, Tally], other: dict[str, Tally]) -> str:
    changes = []
    for name, theirs in other.items():
        ours = base.get(name, Tally())
        if name == TOTAL or (ours.success, ours.wrong) == (theirs.success, theirs.wrong):
            continue
        text = f"{escape(name)} {ours.success}→{theirs.success}"
        if theirs.wrong != ours.wrong:
            text += f" ([red]{theirs.wrong} wrong[/red])" if theirs.wrong else " (0 wrong)"
        changes.append(text)
    return ", ".join(changes) if changes else "none"


def compare_summary(runs: Sequence[RunResult]) -> dict[str, Any]:
    """The compare table as data: per category, each configuration's success % and WRONG."""
    tallies = [by_category(run) for run in runs]
    names = list(tallies[0]) if tallies else []
    return {
        "labels": [run.config.label for run in runs],
        "categories": {
            name: {
                run.config.label: {
                    "success_pct": round(t.get(name, Tally()).success_pct, 2),
                    "wrong": t.get(name, Tally()).wrong,
                }
                for run, t in zip(runs, tallies, strict=True)
            }
            for name in names
        },
        "wall_s": {run.config.label: round(run.wall_s, 3) for run in runs},
    }


def failure_report(run: RunResult, limit: int, *, context: int = 2, max_lines: int = 60) -> str:
    """The first ``limit`` failures (WRONG first), each with a diff of expected vs actual."""
    failures = [r for r in run.records if r.outcome is Outcome.WRONG]
    failures += [r for r in run.records if r.outcome is Outcome.REFUSED]
    blocks = []
    for record in failures[:limit]:
        case, result = record.case, record.result
        label = f"{case.category}, {case.edit_kind}" if case.edit_kind else case.category
        if case.request == "retry":
            label += ", retry"
        head = (
            f"--- {case.id} [{label}] {record.outcome.value.upper()}"
            f" (strategy={result.strategy}, error_code={result.error_code})"
        )
        lines = [head]
        if case.notes:
            lines.append(f"    notes: {case.notes}")
        if case.intended_content is not None:
            lines.append("    the case's intended_content would also have been a success")
        if result.error and not result.ok:
            error_lines = result.error.splitlines()
            lines.append("    error: " + error_lines[0])
            # Why a fixer's answer was not used is the line that matters on LLM cases.
            lines.extend(f"    {line}" for line in error_lines[1:] if "LLM fixer" in line)
        expected = case.expected_content if case.expect == "success" else case.content
        if expected is None:
            lines.append(f"    expected the file to contain: {case.expected_contains!r}")
            expected = case.content
        actual = final_content(case, result)
        diff = list(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                fromfile=f"{case.id} expected",
                tofile=f"{case.id} actual",
                n=context,
            )
        )
        if len(diff) > max_lines:
            diff = [*diff[:max_lines], f"... ({len(diff) - max_lines} more diff lines)\n"]
        lines.extend(_visible(line) for line in diff)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _visible(line: str) -> str:
    """A diff line with its line ending and trailing blanks made visible."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    stripped = body.rstrip(" \t")
    trailing = body[len(stripped) :].replace(" ", "·").replace("\t", "→")
    marker = {"\r\n": "␍", "\n": "", "": "⏎(no newline)"}.get(ending, "")
    return stripped + trailing + marker


def outcome_tables(run: RunResult, *, width: int = 120) -> list[Table]:
    """Per category; and for a labelled benchmark also per edit kind and per request."""
    tables = [category_table(run, width=width)]
    if labelled(run):
        tables.append(category_table(run, by="edit kind", tallies=by_edit_kind(run), width=width))
        tables.append(category_table(run, by="request", tallies=by_request(run), width=width))
    return tables


def print_report(console: Console, runs: Sequence[RunResult]) -> None:
    for run in runs:
        for table in outcome_tables(run, width=console.width):
            console.print(table)
        console.print(details_table(run))
    if len(runs) > 1:
        console.print(compare_table(runs, width=console.width))
