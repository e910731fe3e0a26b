"""``editengine bench``: print speed figures (see :mod:`editengine.bench.speed`)."""

from __future__ import annotations

import argparse

from editengine.bench import speed as bench
from editengine.cli._guard import say_error
from editengine.cli._help import HelpFormatter, examples


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="print per-edit timings of the cascade on generated and real code "
        "(--pathological: the growth curve of pathological inputs)",
        description=(
            "Times the matching cascade per edit on generated code and on real code (the "
            "package's own sources) at several file sizes, and prints the median and minimum "
            "milliseconds against the targets. --telemetry-events also times the telemetry "
            "report over that many synthetic events; --pathological prints how the slowest "
            "known inputs grow with the file size. Exit status 0, or 1 when a pathological "
            "case is wrong or over its bound."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            "editengine bench",
            "editengine bench --sizes 1000 100000 --repeats 3 --cpu-time",
            "editengine bench --skip-cascade --telemetry-events 1000000",
            "editengine bench --pathological",
        ),
    )
    bench.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problems = []
    if args.repeats < 1:
        problems.append(f"--repeats must be at least 1, got {args.repeats}")
    if any(size < 1 for size in args.sizes):
        problems.append("--sizes must all be at least 1 line")
    if args.telemetry_events < 0:
        problems.append(f"--telemetry-events must be 0 or more, got {args.telemetry_events}")
    if problems:
        say_error("bad_request", f"{'; '.join(problems)}.")
        return 2
    return bench.run_from_args(args)
