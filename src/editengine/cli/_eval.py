"""``editengine eval``: run edit cases through engines and score the files they produce."""

from __future__ import annotations

import argparse
import math
import shlex
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from editengine._errors import BadRequest, EditError, EvaluationError
from editengine._resources import benchmark_path
from editengine.cli._guard import say_error
from editengine.cli._help import HelpFormatter, examples
from editengine.cli._io import check_output_path, json_text, write_output
from editengine.evaluation import _peers as peers
from editengine.evaluation._dataset import EvalCase, load_cases
from editengine.evaluation._executors import (
    EngineConfig,
    ablations,
    batch_command,
    build_executor,
    describe,
    full_cascade,
    with_fixer,
)
from editengine.evaluation._llm import (
    OFFLINE_FIXER_TIMEOUT,
    REAL_FIXER_TIMEOUT,
    check_combination,
    parse_llm,
)
from editengine.evaluation._runner import Progress as ProgressCallback
from editengine.evaluation._runner import RunResult, run_cases
from editengine.evaluation._tables import (
    TOTAL,
    by_category,
    compare_summary,
    compare_table,
    details_table,
    failure_report,
    outcome_tables,
    summary,
)

PROGRESS_MIN_CASES = 200  # a bar only where a run takes long enough to watch
EXECUTOR_CHOICES = ("engine", "text")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="run edit cases (default: the bundled benchmark) and score the resulting files",
        description=(
            "Runs each case through the real EditEngine on a real file in a temporary "
            "workspace (with the LLM fixer of --llm, none by default) and scores it: SUCCESS "
            "(exactly the expected file, or the file left alone where a refusal is expected), "
            "REFUSED (declined, file untouched) or WRONG (the file changed into anything "
            "else). Exits 1 when any case is WRONG or the success rate is under "
            "--min-success, 2 when the run cannot start."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            "editengine eval",
            "editengine eval --workers 4 --json out/eval.json --html out/eval.html",
            "editengine eval --compare --show-failures 5",
            "editengine eval my-cases.jsonl --category typography",
            "editengine eval --telemetry eval.jsonl && editengine report eval.jsonl",
        ),
    )
    parser.add_argument(
        "datasets", nargs="*", type=Path, metavar="DATASET", help="JSON Lines files of cases"
    )
    parser.add_argument(
        "--category", action="append", default=[], metavar="C", help="only this category"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write a JSON report")
    parser.add_argument("--html", type=Path, metavar="OUT", help="write an HTML report (plotly)")
    parser.add_argument(
        "--show-failures", type=int, default=0, metavar="N", help="print N failures with diffs"
    )
    parser.add_argument(
        "--min-success", type=float, default=0.0, metavar="PCT", help="exit 1 under this success %%"
    )
    parser.add_argument(
        "--executor",
        choices=EXECUTOR_CHOICES,
        default="engine",
        help="engine: the real EditEngine on a real file per case (default); "
        "text: the pure edit_text in memory (no fixer, fastest)",
    )
    parser.add_argument(
        "--llm",
        default="none",
        metavar="LLM",
        help="the LLM fixer: none (default), scripted (the dataset's answers), "
        "replay:CASSETTE (recorded answers, offline), openai or anthropic (real, need a key)",
    )
    parser.add_argument("--model", metavar="NAME", help="the model of --llm openai|anthropic")
    parser.add_argument(
        "--record",
        metavar="CASSETTE",
        help="with --llm openai|anthropic: append every answer to CASSETTE for --llm replay:",
    )
    parser.add_argument(
        "--fixer-timeout",
        type=float,
        metavar="S",
        help=f"seconds per fixer call (default {OFFLINE_FIXER_TIMEOUT:g} offline, "
        f"{REAL_FIXER_TIMEOUT:g} for a real provider)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run exact-only, the cascade without each tier, the full cascade and the "
        "cascade plus the LLM fixer (scripted unless --llm says otherwise), side by side",
    )
    parser.add_argument(
        "--engine-cmd",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="an external batch-protocol engine to run on the same cases (repeatable)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes (threads when --llm is a real provider)",
    )
    parser.add_argument(
        "--peers",
        action="store_true",
        help="run the peer cases of ../shared/peer-cases and check docs/peer-deviations.md",
    )
    parser.add_argument(
        "--write-deviations",
        action="store_true",
        help="with --peers: rewrite the deviations table for the cases failing now",
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="never draw a progress bar on stderr"
    )
    parser.add_argument(
        "--format",
        dest="patch_format",
        choices=("search_replace", "udiff", "apply_patch", "all"),
        help="also write every case as a patch in this format (or all three), apply it with "
        "apply_patch and report it beside edit, with multi-file patches",
    )
    parser.add_argument(
        "--telemetry",
        type=Path,
        metavar="FILE",
        help="append the engine's telemetry events to FILE (JSON Lines) for editengine report",
    )
    parser.add_argument(
        "--syntax-guard",
        choices=("off", "refuse", "report"),
        default="off",
        help="run the main configuration again with the syntax guard (each case's file name "
        "picks the language) and report it beside the run without (docs/diagnostics.md)",
    )
    parser.set_defaults(func=handle)


def parse_engine_cmd(spec: str) -> EngineConfig:
    name, sep, command = spec.partition("=")
    if not sep or not name.strip() or not command.strip():
        raise EvaluationError(
            f"--engine-cmd {spec!r} is not NAME=COMMAND.",
            hint='Example: --engine-cmd mine="python -m editengine batch"',
        )
    return batch_command(name.strip(), shlex.split(command))


def main_configuration(args: argparse.Namespace) -> EngineConfig:
    """The configuration the exit status and the detailed tables are about."""
    choice = parse_llm(args.llm)
    check_combination(choice, model=args.model, record=args.record)
    if choice.kind == "none":
        return full_cascade(kind=args.executor)
    if args.executor != "engine":
        raise EvaluationError(
            f"--llm {args.llm} needs --executor engine: edit_text has no fixer.",
        )
    return _fixer_config(args, args.llm)


def _fixer_config(args: argparse.Namespace, llm: str) -> EngineConfig:
    return with_fixer(llm, model=args.model, record=args.record, fixer_timeout=args.fixer_timeout)


def configurations(args: argparse.Namespace) -> tuple[list[EngineConfig], EngineConfig]:
    """Every configuration to run, in column order, and the main one among them."""
    main = main_configuration(args)
    if args.compare:
        llm = args.llm if parse_llm(args.llm).kind != "none" else "scripted"
        configs = ablations(kind=args.executor, fixer=_fixer_config(args, llm))
    else:
        configs = [main]
    guard = getattr(args, "syntax_guard", "off")
    if guard != "off":
        # The same configuration with the guard, beside it; the exit status is about it.
        main = replace(main, label=f"{main.label}+guard", syntax_guard=guard)
        configs.append(main)
    configs += [parse_engine_cmd(spec) for spec in args.engine_cmd]
    labels = [c.label for c in configs]
    duplicates = sorted({x for x in labels if labels.count(x) > 1})
    if duplicates:
        raise EvaluationError(f"engine names must be unique; repeated: {', '.join(duplicates)}.")
    return configs, main


def preflight(configs: Sequence[EngineConfig]) -> None:
    """Build each executor once, so a missing cassette or API key stops the run before it
    starts (an external engine command is started only by its first case)."""
    for config in configs:
        build_executor(config).close()


def dataset_paths(args: argparse.Namespace) -> list[Path]:
    if args.peers:
        directory = peers.peer_cases_dir()
        if directory is None:
            raise EvaluationError(
                "--peers: no shared/peer-cases folder next to the repository.",
                hint="Peer cases are not shipped; run from a checkout that has them beside it.",
            )
        return [*peers.peer_files(directory), *args.datasets]
    if args.datasets:
        return list(args.datasets)
    try:
        return [benchmark_path()]
    except FileNotFoundError as err:
        raise EvaluationError(
            f"the bundled benchmark is missing ({err}).",
            hint="Pass a dataset file, or reinstall editengine.",
        ) from err


@contextmanager
def progress_bar(console: Console, total: int, label: str, enabled: bool) -> Iterator[Any]:
    if not enabled or total < PROGRESS_MIN_CASES or not console.is_terminal:
        yield None
        return
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total)

        def advance(n: int) -> None:
            progress.advance(task, n)

        yield advance


def run_all(
    cases: Sequence[EvalCase], configs: Sequence[EngineConfig], *, workers: int, bar: bool
) -> list[RunResult]:
    errors = Console(stderr=True)
    runs = []
    for config in configs:
        with progress_bar(errors, len(cases), config.label, bar) as advance:
            callback: ProgressCallback | None = advance
            runs.append(run_cases(cases, config, workers=workers, progress=callback))
    return runs


def json_report(
    paths: Sequence[Path], runs: Sequence[RunResult], main: EngineConfig
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "datasets": [str(p) for p in paths],
        "main": main.label,
        "runs": [
            {
                "config": describe(run.config),
                **summary(run),
                "cases": [
                    {
                        "id": r.case.id,
                        "category": r.case.category,
                        "edit_kind": r.case.edit_kind,
                        "mistakes": list(r.case.mistakes),
                        "request": r.case.request,
                        "expect": r.case.expect,
                        "outcome": r.outcome.value,
                        "ok": r.result.ok,
                        "strategy": r.result.strategy,
                        "error_code": r.result.error_code,
                        "elapsed_ms": round(r.result.elapsed_ms, 3),
                        "fixer_calls": r.result.fixer_calls,
                        "corrected_by_fixer": r.result.corrected_by_fixer,
                        "input_tokens": r.result.input_tokens,
                        "output_tokens": r.result.output_tokens,
                        "cache_hits": r.result.cache_hits,
                    }
                    for r in run.records
                ],
            }
            for run in runs
        ],
    }
    if len(runs) > 1:
        report["compare"] = compare_summary(runs)
    return report


def handle(args: argparse.Namespace) -> int:
    out = Console()  # the terminal's width (COLUMNS, else 80 when piped): tables fit it
    err = Console(stderr=True, soft_wrap=True, markup=False, highlight=False)
    try:
        check_arguments(args)
        paths = dataset_paths(args)
        configs, main = configurations(args)
        cases = load_cases(paths, categories=args.category or None)
        if not cases:
            raise EvaluationError("no cases to run (check the dataset and --category).")
        if args.patch_format:
            from editengine.evaluation._formats import handle_formats

            return handle_formats(cases, args.patch_format, out, json_out=args.json)
        if args.telemetry is not None:
            configs, main = with_telemetry(configs, main, str(args.telemetry))
        preflight(configs)
        runs = run_all(cases, configs, workers=args.workers, bar=not args.no_progress)
    except EditError as error:
        # Bad flags, a bad dataset, engine command, --llm value, cassette or missing API key.
        say_error(error.code, str(error))
        return 2

    primary = next(r for r in runs if r.config == main)
    for table in outcome_tables(primary, width=out.width):
        out.print(table)
    out.print(details_table(primary))
    if len(runs) > 1:
        out.print(compare_table(runs, width=out.width))
    if args.show_failures > 0:
        report = failure_report(primary, args.show_failures)
        if report:
            out.print(report, markup=False, highlight=False)
    try:
        if args.json:
            report_data = json_report(paths, runs, main)
            write_output(args.json, json_text(report_data, indent=2) + "\n", flag="--json")
        if args.html:
            from editengine.reports._evaluation_html import write_html

            try:
                write_html(args.html, runs)
            except OSError as error:
                raise BadRequest(
                    f"--html: cannot write {args.html}: {error.strerror or error}."
                ) from error
    except EditError as error:
        say_error(error.code, str(error))
        return 2

    status = 0
    total = by_category(primary)[TOTAL]
    # Peer expectations are the peers' behaviour, not the truth: there the documented
    # deviations decide, not the WRONG count.
    if total.wrong and not args.peers:
        err.print(f"{total.wrong} case(s) changed the file into something unexpected (WRONG).")
        status = 1
    if total.success_pct < args.min_success:
        err.print(f"success {total.success_pct:.1f}% is under --min-success {args.min_success}%.")
        status = 1
    if args.peers:
        status = max(status, _check_peers(primary, args, out, err))
    return status


def check_arguments(args: argparse.Namespace) -> None:
    """Every flag checked, and every output file known writable, before a case runs."""
    if args.workers < 1:
        raise BadRequest(f"--workers must be at least 1, got {args.workers}.")
    if args.write_deviations and not args.peers:
        raise BadRequest("--write-deviations needs --peers.")
    if not math.isfinite(args.min_success) or not 0 <= args.min_success <= 100:
        raise BadRequest(
            f"--min-success must be a percentage from 0 to 100, got {args.min_success}."
        )
    check_output_path(args.json, flag="--json")
    check_output_path(args.html, flag="--html")
    check_output_path(args.telemetry, flag="--telemetry")
    if args.html and not args.patch_format:
        from editengine.reports._evaluation_html import _plotly

        _plotly()  # plotly missing: say so now, not after the run


def with_telemetry(
    configs: Sequence[EngineConfig], main: EngineConfig, path: str
) -> tuple[list[EngineConfig], EngineConfig]:
    """--telemetry: every configuration run through the engine appends its events to
    ``path`` (the pure ``edit_text`` and external engines have no telemetry)."""
    if not any(config.kind == "engine" for config in configs):
        raise BadRequest(
            "--telemetry needs the engine executor: edit_text has no telemetry.",
            hint="Leave out --executor text.",
        )

    def add(config: EngineConfig) -> EngineConfig:
        return replace(config, telemetry=path) if config.kind == "engine" else config

    return [add(config) for config in configs], add(main)


def _check_peers(primary: RunResult, args: argparse.Namespace, out: Console, err: Console) -> int:
    path = peers.deviations_path()
    if args.write_deviations:
        table = peers.refresh_deviations(path, [primary])
        out.print(f"wrote {path} ({table.count(chr(10)) - 2} deviations)", markup=False)
        return 0
    unlisted = peers.unlisted_failures(primary, peers.read_deviations(path))
    if unlisted:
        ids = ", ".join(r.case.id for r in unlisted)
        err.print(f"{len(unlisted)} failing peer case(s) not listed in {path}: {ids}")
        return 1
    out.print(f"peer conformance: every failing case is documented in {path}", markup=False)
    return 0
