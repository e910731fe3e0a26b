"""The ``editengine`` command: one module per subcommand, each with ``register(subparsers)``.

A subcommand module registers its parser and sets ``func(args) -> int`` as the handler.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

from editengine._version import __version__
from editengine.cli._help import HelpFormatter, examples

COMMANDS = ("apply", "batch", "bench", "eval", "patch", "report", "undo", "mcp")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="editengine",
        description="A self-correcting search/replace edit engine for AI coding agents.",
        formatter_class=HelpFormatter,
        epilog=examples(
            'editengine apply --file app.py --old "return 1" --new "return 2"',
            "editengine undo",
            "editengine mcp --root .",
            "editengine COMMAND --help   # each command's options and examples",
        ),
    )
    parser.add_argument("--version", action="version", version=f"editengine {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"editengine.cli._{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; Ctrl-C anywhere in it ends with one line and exit status 130."""
    from editengine.cli._guard import EXIT_INTERRUPTED, say_interrupted

    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        from editengine.cli._guard import run_guarded

        return run_guarded(args.func, args)
    except KeyboardInterrupt:
        say_interrupted()
        return EXIT_INTERRUPTED
