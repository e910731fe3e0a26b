"""``editengine bench``: print speed figures (see :mod:`editengine.bench`)."""

from __future__ import annotations

import argparse

from editengine import bench


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="print per-edit timings of the cascade on generated and real code "
        "(--pathological: the growth curve of pathological inputs)",
    )
    bench.add_arguments(parser)
    parser.set_defaults(func=bench.run_from_args)
