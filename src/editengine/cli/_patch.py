"""``editengine patch``: apply SEARCH/REPLACE blocks, a unified diff or an apply_patch patch."""

from __future__ import annotations

import argparse
import sys

from editengine._errors import BadRequest, EditError, ProviderConfigError
from editengine.cli._apply import (
    EXIT_EDIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    _print_result,
    add_syntax_guard_flag,
    fail,
    print_diagnostics,
)
from editengine.cli._help import HelpFormatter, examples
from editengine.cli._io import json_text


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "patch",
        help="apply a multi-file patch to the workspace, all or nothing, and print the diff",
        description=(
            "Apply a patch read from PATCH_FILE (or stdin, '-' or nothing) to the files under "
            "--root: SEARCH/REPLACE blocks, a unified diff or an apply_patch patch. Every hunk "
            "goes through the matching cascade; if any fails nothing is written. "
            "Exit status 0 on success, 1 when the patch fails, 2 on bad usage or a "
            "malformed patch."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            "editengine patch fix.diff --dry-run",
            "editengine patch blocks.txt --format search_replace --output-json",
            "git diff | editengine patch --root ../other-checkout",
        ),
    )
    parser.add_argument("patch_file", nargs="?", default="-", metavar="PATCH_FILE")
    parser.add_argument(
        "--format",
        default="auto",
        choices=("auto", "search_replace", "udiff", "apply_patch"),
        help="patch format (default: auto-detect)",
    )
    parser.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
    parser.add_argument("--root", default=".", help="workspace root (default: current directory)")
    parser.add_argument("--instruction", help="what the patch does and why (helps the fixer)")
    parser.add_argument("--provider", choices=("openai", "anthropic"), help="LLM fixer provider")
    parser.add_argument("--model", help="model for the LLM fixer")
    parser.add_argument("--no-color", action="store_true", help="plain output")
    parser.add_argument("--output-json", action="store_true", help="print the result as JSON")
    add_syntax_guard_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from editengine.cli._apply import _engine

    as_json = args.output_json
    try:
        text = _read_patch(args.patch_file)
        engine = _engine(args)
    except ImportError as error:
        unavailable = ProviderConfigError(f"the LLM fixer is not available: {error}")
        return fail(unavailable, EXIT_USAGE, as_json=as_json)
    except EditError as error:
        return fail(error, EXIT_USAGE, as_json=as_json)
    try:
        result = engine.apply_patch(
            text, format=args.format, instruction=args.instruction, dry_run=args.dry_run
        )
    except BadRequest as error:
        return fail(error, EXIT_USAGE, as_json=as_json)
    except EditError as error:
        return fail(error, EXIT_EDIT_FAILED, as_json=as_json)
    if as_json:
        data = {"ok": True, **result.to_dict()}
        data["diagnostics"] = {
            edited.file_path: [item.to_dict() for item in edited.diagnostics]
            for edited in result.results
        }
        print(json_text(data, indent=2))
        return EXIT_OK
    _print_result(result.summary, result.notes, result.diff, color=not args.no_color)
    print_diagnostics(result.results)
    return EXIT_OK


def _read_patch(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8", newline="") as handle:
            return handle.read()
    except OSError as error:
        raise BadRequest(f"Cannot read the patch file {source}: {error.strerror}.") from error
    except UnicodeDecodeError as error:
        raise BadRequest(f"The patch file {source} is not UTF-8.") from error
