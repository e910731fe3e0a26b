"""``editengine bench``: print speed figures (see :mod:`editengine.bench.speed`)."""

from __future__ import annotations

import argparse
import sys

from editengine.bench import speed as bench


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="print per-edit timings of the cascade on generated and real code "
        "(--pathological: the growth curve of pathological inputs)",
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
        print(f"error[bad_request]: {'; '.join(problems)}.", file=sys.stderr)
        return 2
    return bench.run_from_args(args)
