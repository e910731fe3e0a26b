"""``editengine patch``: apply SEARCH/REPLACE blocks, a unified diff or an apply_patch patch."""

from __future__ import annotations

import argparse
import json
import sys

from editengine._errors import BadRequest, EditError, ProviderConfigError
from editengine.cli._apply import (
    EXIT_EDIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    _print_result,
    add_syntax_guard_flag,
    print_diagnostics,
)


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

    try:
        text = _read_patch(args.patch_file)
        engine = _engine(args)
    except ImportError as error:
        print(f"error[provider_config]: the LLM fixer is not available: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (BadRequest, ProviderConfigError) as error:
        return _fail(error, EXIT_USAGE)
    except EditError as error:
        return _fail(error, EXIT_USAGE)
    try:
        result = engine.apply_patch(
            text, format=args.format, instruction=args.instruction, dry_run=args.dry_run
        )
    except BadRequest as error:
        return _fail(error, EXIT_USAGE)
    except EditError as error:
        return _fail(error, EXIT_EDIT_FAILED)
    if args.output_json:
        data = result.to_dict()
        data["diagnostics"] = {
            edited.file_path: [item.to_dict() for item in edited.diagnostics]
            for edited in result.results
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
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


def _fail(error: EditError, status: int) -> int:
    print(f"error[{error.code}]: {error}", file=sys.stderr)
    return status
