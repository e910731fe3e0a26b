"""``editengine undo``: put files back as they were before the last edits, from the journal."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from typing import TYPE_CHECKING

from editengine._errors import BadRequest, EditError
from editengine.cli._guard import say_error
from editengine.cli._help import HelpFormatter, examples

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2

if TYPE_CHECKING:
    from editengine.engine import EditEngine


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "undo",
        help="undo the last edits from the workspace's journal",
        description=(
            "Restore files to their bytes before the last edits made through editengine "
            "(by any process) in the workspace --root. Default: the last edit anywhere in "
            "the workspace; give PATH for the last edit of one file. Refused, with nothing "
            "changed, when a file was modified since that edit. Exit status 0 when restored, "
            "1 when refused, 2 on bad usage."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            "editengine undo",
            "editengine undo src/app.py --steps 2",
            "editengine undo --list",
            "editengine undo --redo",
        ),
    )
    parser.add_argument("path", nargs="?", help="file to undo (default: the last edit anywhere)")
    parser.add_argument("--steps", type=int, default=1, metavar="N", help="edits to undo (1)")
    parser.add_argument("--list", action="store_true", help="list the journal, change nothing")
    parser.add_argument("--redo", action="store_true", help="reverse the last undo instead")
    parser.add_argument("--root", default=".", help="workspace root (default: current directory)")
    parser.add_argument(
        "--journal-dir", metavar="DIR", help="where journals live (default: a per-user temp folder)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from editengine.engine import EditEngine
    from editengine.journal import Journal

    try:
        journal = Journal(args.root, directory=args.journal_dir) if args.journal_dir else True
        engine = EditEngine(args.root, journal=journal)
    except EditError as error:  # no such root: a usage error
        return _fail(error, EXIT_USAGE, as_json=args.json)
    try:
        if args.list:
            return _list(engine, args)
        if args.steps < 1:
            raise BadRequest(f"--steps must be at least 1, got {args.steps}.")
        action = engine.redo if args.redo else engine.undo
        result = action(args.path, steps=args.steps)
    except BadRequest as error:
        return _fail(error, EXIT_USAGE, as_json=args.json)
    except EditError as error:
        return _fail(error, EXIT_REFUSED, as_json=args.json)
    if args.json:
        print(json.dumps({"ok": True, **result.to_dict()}, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(result.text() + "\n")
    return EXIT_OK


def _list(engine: EditEngine, args: argparse.Namespace) -> int:
    from editengine.journal._undo import undoable

    entries = engine.journal_entries(args.path)
    live = undoable(engine.workspace, engine.files, entries)
    if args.json:
        rows = [{**entry.to_dict(), "undoable": entry.id in live} for entry in entries]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    if not entries:
        print("The journal of this workspace is empty.")
        return EXIT_OK
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # The terminal's width (COLUMNS, else 80 when piped): long paths and summaries wrap
    # inside their columns instead of running past the edge.
    table = Table(box=None, pad_edge=False, padding=(0, 1))
    table.add_column("", no_wrap=True)
    table.add_column("seq", justify="right", no_wrap=True)
    table.add_column("time", no_wrap=True)
    table.add_column("operation", no_wrap=True)
    table.add_column("path", overflow="fold")
    table.add_column("summary", overflow="fold")
    for entry in entries:
        when = datetime.datetime.fromtimestamp(entry.time).strftime("%Y-%m-%d %H:%M:%S")
        mark = "*" if entry.id in live else " "
        table.add_row(
            mark,
            str(entry.seq),
            when,
            Text(_shown(entry.operation)),
            Text(_shown(entry.path)),
            Text(_shown(entry.summary)),
        )
    Console(highlight=False).print(table)
    print("(* = undo would restore it now, newest last)")
    return EXIT_OK


def _shown(text: str) -> str:
    """``text`` on one line of a terminal: a newline cannot start a forged row, and control
    characters (escape sequences among them) are shown escaped, not sent."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def _fail(error: EditError, status: int, *, as_json: bool) -> int:
    if as_json:
        print(json.dumps({"ok": False, **error.to_dict()}, ensure_ascii=False, indent=2))
    say_error(error.code, str(error))
    return status
