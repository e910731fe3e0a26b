"""``editengine report``: aggregate telemetry files into tables, JSON, HTML and recommendations."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from editengine._errors import BadRequest, EditError
from editengine.cli._guard import say_error, say_warning
from editengine.cli._help import HelpFormatter, examples
from editengine.cli._io import check_output_path, json_text, write_output
from editengine.telemetry._noise import Noise, parse_noise
from editengine.telemetry._report import DEFAULT_PRICES, ReportOptions, aggregate_paths, compare

_TITLE = "editengine telemetry report"
EXIT_NO_EVENTS = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "report",
        help="aggregate telemetry (JSON Lines, plain or gzipped) into a report",
        description=(
            "Streams telemetry events from files or directories (plain or gzipped JSON Lines, "
            "rotated backups included) in bounded memory and prints edits, success rate, "
            "strategy mix, tiers, fixer cost and latency, and recommendations."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            "editengine report telemetry/",
            "editengine report telemetry/ --since 2026-11-01 --html report.html",
            "editengine report this-week/ --vs last-week/ --html vs.html",
            "editengine report telemetry/ --json - --price gpt-4o-mini=0.15,0.60",
        ),
    )
    parser.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    parser.add_argument(
        "--json", metavar="OUT", help="write the full aggregate as JSON (- for stdout)"
    )
    parser.add_argument(
        "--html",
        metavar="OUT",
        help="write a self-contained HTML page (with --vs: one page of the differences)",
    )
    parser.add_argument(
        "--since", metavar="T", help="only events at or after T (ISO 8601 or epoch)"
    )
    parser.add_argument("--until", metavar="T", help="only events before T (ISO 8601 or epoch)")
    parser.add_argument(
        "--vs", nargs="+", metavar="OTHER", help="compare with these files/directories (A vs B)"
    )
    parser.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="MODEL=IN,OUT",
        help="USD per million input,output tokens for a model (repeatable)",
    )
    parser.add_argument(
        "--threshold",
        action="append",
        default=[],
        metavar="TIER=SIMILARITY",
        help=(
            "the similarity threshold a fuzzy tier uses (else as recorded in the events, "
            "else inferred from its lowest accept)"
        ),
    )
    parser.add_argument(
        "--fixer-deadline",
        type=float,
        metavar="MS",
        help="the fixer deadline in ms (else as recorded in the events, else inferred)",
    )
    parser.add_argument(
        "--noise",
        default="auto",
        metavar="PCT",
        help=(
            "with --vs: colour a change better or worse only beyond this percentage of A's "
            "value (auto, the default: beyond what chance gives at 95%% confidence, from "
            "each side's own spread; 0: every change)"
        ),
    )
    parser.set_defaults(func=run)


def _pairs(items: list[str], flag: str, example: str) -> dict[str, str]:
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise BadRequest(
                f"{flag} {item!r} is not NAME=VALUE.", hint=f"For example {flag} {example}."
            )
        out[name] = value
    return out


def options_from_args(args: argparse.Namespace) -> ReportOptions:
    prices = dict(DEFAULT_PRICES)
    for model, value in _pairs(args.price, "--price", "gpt-4o-mini=0.15,0.60").items():
        try:
            tokens_in, tokens_out = (float(part) for part in value.split(","))
        except ValueError:
            raise BadRequest(
                f"--price {model}={value!r} needs two numbers.",
                hint="Give USD per million input and output tokens: --price MODEL=0.15,0.60.",
            ) from None
        prices[model] = (tokens_in, tokens_out)
    thresholds = {}
    for tier, value in _pairs(args.threshold, "--threshold", "block_anchor=0.9").items():
        try:
            thresholds[tier] = float(value)
        except ValueError:
            raise BadRequest(f"--threshold {tier}={value!r} is not a number.") from None
        if not 0.0 <= thresholds[tier] <= 1.0:
            raise BadRequest(f"--threshold {tier}={value} must lie between 0 and 1.")
    if args.fixer_deadline is not None and args.fixer_deadline <= 0:
        raise BadRequest(
            f"--fixer-deadline {args.fixer_deadline:g} must be a positive number of ms."
        )
    return ReportOptions(
        since=args.since,
        until=args.until,
        prices=prices,
        similarity_thresholds=thresholds,
        fixer_deadline_ms=args.fixer_deadline,
    )


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from editengine.reports._render import (
        render_comparison,
        render_recommendations,
        render_report,
    )

    # The terminal's own width (COLUMNS, else 80 when piped): the tables fit it.
    console = Console(file=sys.stdout)
    try:
        options = options_from_args(args)
        check_output_path(args.html, flag="--html")
        check_output_path(args.json, flag="--json")
        noise = _noise(args.noise)
        report = aggregate_paths(args.paths, options)
        other = aggregate_paths(args.vs, options) if args.vs else None
        empty = [
            (flag, paths, data)
            for flag, paths, data in (("", args.paths, report), ("--vs ", args.vs, other))
            if data is not None and not data["input"]["events"]
        ]
        for flag, paths, data in empty:
            say_warning(_nothing_read(flag, paths, data))
        # JSON on stdout: no tables mixed in. Nothing read: no empty tables or page either,
        # only the JSON (its "input" counts say what was found).
        quiet = args.json == "-" or bool(empty)
        if other is None:
            payload: dict[str, Any] = dict(report)
            if not quiet:
                render_report(report, console)
        else:
            rows = compare(report, other, noise=noise)
            payload = {"a": report, "b": other, "comparison": rows}
            if not quiet:
                render_comparison(rows, console, labels=("A", "B (--vs)"))
                render_recommendations(report, console, label="A")
                render_recommendations(other, console, label="B")
        if args.html and not empty:
            if other is None:
                from editengine.reports._html import render_html

                page = render_html(report, title=_TITLE)
            else:
                from editengine.reports._html_vs import render_comparison_html

                page = render_comparison_html(report, other, labels=("A", "B"), noise=noise)
            write_output(args.html, page, flag="--html")
        if args.json:
            text = json_text(payload, indent=2, default=str)
            if args.json == "-":
                sys.stdout.write(text + "\n")
            else:
                write_output(args.json, text + "\n", flag="--json")
    except EditError as err:
        say_error(err.code, str(err))
        return 2
    return EXIT_NO_EVENTS if empty else 0


def _noise(text: str) -> Noise:
    try:
        return parse_noise(text)
    except ValueError:
        raise BadRequest(
            f"--noise {text!r} is not a percentage.",
            hint="Give auto (the default), 0 (colour every change) or a percentage: --noise 5.",
        ) from None


def _nothing_read(flag: str, paths: list[str], report: Any) -> str:
    """Why a report would be empty: no files, no event lines, or all outside the times."""
    read = report["input"]
    where = f"{flag}{' '.join(paths)}"
    if not read["files"]:
        why = "no telemetry files there (*.jsonl, *.ndjson, plain or gzipped)"
    elif read["filtered_out"]:
        why = f"all {read['filtered_out']:,} events fall outside --since/--until"
    else:
        why = (
            f"{read['files']:,} file(s), {read['lines']:,} line(s), none an editengine event "
            f"({read['malformed']:,} malformed, {read['unknown_events']:,} unknown)"
        )
    return f"no telemetry events read from {where}: {why}; nothing to report."
