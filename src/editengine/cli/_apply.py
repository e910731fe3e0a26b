"""``editengine apply``: one edit (or a multi-edit) on a real file, from flags or a JSON request."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from editengine._errors import BadRequest, EditError, ProviderConfigError
from editengine.cli._guard import say_error
from editengine.cli._help import HelpFormatter, examples
from editengine.cli._io import boolean, json_text, parse_json

EXIT_OK = 0
EXIT_EDIT_FAILED = 1
EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "apply",
        help="apply one search/replace edit to a file and print the diff",
        description=(
            "Apply one edit to a file under --root: --file/--old/--new, or --json with "
            '{"file_path", "old_string", "new_string", ...} or {"file_path", "edits": [...]}. '
            "Exit status 0 on success, 1 when the edit fails, 2 on bad usage."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            'editengine apply --file app.py --old "return 1" --new "return 2"',
            'editengine apply --file app.py --old "x = 1" --new "x = 2" --dry-run',
            "editengine apply --json request.json --output-json",
            "editengine apply --json - --dry-run < request.json",
        ),
    )
    parser.add_argument("--file", dest="file_path", help="file to edit, relative to --root")
    parser.add_argument("--old", dest="old_string", help="text to replace ('' creates the file)")
    parser.add_argument("--new", dest="new_string", help="replacement text")
    parser.add_argument("--instruction", help="what the edit does and why (helps the fixer)")
    parser.add_argument("--replace-all", action="store_true", help="replace every occurrence")
    parser.add_argument("--expected-replacements", type=int, metavar="N")
    parser.add_argument(
        "--match-mode", default=None, metavar="MODE", help="auto (default) or a tier"
    )
    parser.add_argument(
        "--json",
        dest="json_request",
        metavar="FILE",
        help="read the request from FILE ('-': stdin)",
    )
    parser.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")
    parser.add_argument(
        "--expected-hash",
        metavar="SHA256",
        help="refuse the edit if the file's sha256 is no longer this (changed since read)",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="with an empty --old, allow replacing a file that is not empty",
    )
    parser.add_argument("--root", default=".", help="workspace root (default: current directory)")
    parser.add_argument("--provider", choices=("openai", "anthropic"), help="LLM fixer provider")
    parser.add_argument("--model", help="model for the LLM fixer")
    parser.add_argument("--no-color", action="store_true", help="plain output")
    parser.add_argument("--output-json", action="store_true", help="print the result as JSON")
    add_syntax_guard_flag(parser)
    parser.set_defaults(func=run)


def add_syntax_guard_flag(parser: argparse.ArgumentParser) -> None:
    """``--syntax-guard``: what a forgiving match breaking the syntax does (docs/diagnostics.md)."""
    parser.add_argument(
        "--syntax-guard",
        default="refuse",
        choices=("refuse", "report", "off"),
        help="a forgiving match that breaks the syntax of what it touched: refuse it "
        "(default), write it and report the errors, or check nothing",
    )


def print_diagnostics(results: Any) -> None:
    """The ``Errors:`` block of each result that has one, after the diff."""
    from editengine.diagnostics import errors_block

    for result in results:
        block = errors_block(result.diagnostics, result.diagnostics_note, path=result.file_path)
        if block:
            sys.stdout.write("\n" + block + "\n")
    sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    as_json = args.output_json
    try:
        request = _request(args)
    except BadRequest as error:
        return fail(error, EXIT_USAGE, as_json=as_json)
    try:
        engine = _engine(args)
    except ImportError as error:
        unavailable = ProviderConfigError(f"the LLM fixer is not available: {error}")
        return fail(unavailable, EXIT_USAGE, as_json=as_json)
    except EditError as error:
        return fail(error, EXIT_USAGE, as_json=as_json)

    try:
        # One rule for booleans: JSON true/false only, as for replace_all.
        dry_run = args.dry_run or boolean(request, "dry_run")
        request.pop("dry_run", None)
        if "edits" in request:
            result = engine.multi_edit(
                request["file_path"],
                request["edits"],
                instruction=request.get("instruction"),
                dry_run=dry_run,
                **_write_guards(request, engine.multi_edit),
            )
        else:
            result = engine.edit(
                request["file_path"],
                request["old_string"],
                request["new_string"],
                instruction=request.get("instruction"),
                replace_all=boolean(request, "replace_all"),
                expected_replacements=request.get("expected_replacements"),
                match_mode=request.get("match_mode") or "auto",
                dry_run=dry_run,
                **_write_guards(request, engine.edit),
            )
    except BadRequest as error:
        return fail(error, EXIT_USAGE, as_json=as_json)
    except EditError as error:
        return fail(error, EXIT_EDIT_FAILED, as_json=as_json)

    if args.output_json:
        print(json_text({"ok": True, **result.to_dict()}, indent=2))
        return EXIT_OK
    _print_result(result.summary, result.notes, result.diff, color=not args.no_color)
    print_diagnostics([result])
    return EXIT_OK


def _write_guards(request: dict[str, Any], method: Any) -> dict[str, Any]:
    """The request's ``expected_hash`` and ``overwrite``, as tool calls pass them: a guard the
    request gives is never dropped on the way to the engine."""
    import inspect

    options: dict[str, Any] = {}
    if request.get("expected_hash") is not None:
        options["expected_hash"] = request["expected_hash"]
    if request.get("overwrite") and "overwrite" in inspect.signature(method).parameters:
        options["overwrite"] = True
    return options


def _request(args: argparse.Namespace) -> dict[str, Any]:
    from editengine._edits import canonical_arguments
    from editengine.tools import load_arguments

    if args.json_request:
        if args.file_path or args.old_string is not None or args.new_string is not None:
            raise BadRequest("Give either --json or --file/--old/--new, not both.")
        text = _read_json_text(args.json_request)
        given = load_arguments(parse_json(text, what="The request"))
        request = canonical_arguments(given)
        # The write guards are not edit arguments (canonical_arguments keeps those only).
        for guard in ("expected_hash", "overwrite"):
            if guard in given:
                request[guard] = given[guard]
    else:
        missing = [
            flag
            for flag, value in (
                ("--file", args.file_path),
                ("--old", args.old_string),
                ("--new", args.new_string),
            )
            if value is None
        ]
        if missing:
            raise BadRequest(f"Missing {', '.join(missing)} (or use --json FILE).")
        request = {
            "file_path": args.file_path,
            "old_string": args.old_string,
            "new_string": args.new_string,
        }
    # Flags complete (and override) what the JSON says.
    for name in ("instruction", "expected_replacements", "match_mode"):
        if getattr(args, name) is not None:
            request[name] = getattr(args, name)
    if args.replace_all:
        request["replace_all"] = True
    if args.expected_hash is not None:
        request["expected_hash"] = args.expected_hash
    if args.overwrite:
        request["overwrite"] = True
    return _checked(request)


def _checked(request: dict[str, Any]) -> dict[str, Any]:
    """The request read by the one request schema (the rules and messages of tool calls, MCP
    and batch), with ``dry_run`` held to the same boolean rule."""
    from editengine.tools import _request as rq

    dry_run = request.get("dry_run")
    checked = rq.parse(rq.MULTIEDIT if "edits" in request else rq.EDIT, request)
    if dry_run is not None:
        checked["dry_run"] = rq.boolean(dry_run, "dry_run")
    return {name: value for name, value in checked.items() if value is not None}


def _read_json_text(source: str) -> str:
    if source == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        if isinstance(data, bytes):
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError as error:
                raise BadRequest("The request on stdin is not UTF-8.") from error
        return data
    try:
        with open(source, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise BadRequest(f"Cannot read the request file {source}: {error.strerror}.") from error
    except UnicodeDecodeError as error:
        raise BadRequest(f"The request file {source} is not UTF-8.") from error


def _engine(args: argparse.Namespace) -> Any:
    from editengine.engine import EditEngine

    fixer = None
    if args.provider:
        from editengine.fixer import make_fixer  # optional: only with a provider

        fixer = make_fixer(args.provider, model=args.model)
    elif args.model:
        raise BadRequest("--model needs --provider.")
    return EditEngine(args.root, fixer=fixer, syntax_guard=getattr(args, "syntax_guard", "refuse"))


def fail(error: EditError, status: int, *, as_json: bool) -> int:
    """Report a failed command: ``error[code]: message`` on stderr and, under
    --output-json, ``{"ok": false, "error_code", "error"}`` on stdout as well."""
    if as_json:
        print(json_text({"ok": False, **error.to_dict()}, indent=2))
    say_error(error.code, str(error))
    return status


def _print_result(summary: str, notes: tuple[str, ...], diff: str, *, color: bool) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(no_color=not color, highlight=False, soft_wrap=True)
    if not color or not console.is_terminal:
        sys.stdout.write(summary + "\n")
        for note in notes:
            sys.stdout.write(f"note: {note}\n")
        if diff:
            sys.stdout.write("\n" + diff)
        sys.stdout.flush()
        return
    console.print(Text(summary, style="bold"))
    for note in notes:
        console.print(Text(f"note: {note}", style="yellow"))
    if diff:
        console.print()
        for line in diff.splitlines():
            console.print(Text(line, style=_diff_style(line)))


def _diff_style(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "bold"
    if line.startswith("+"):
        return "green"
    if line.startswith("-"):
        return "red"
    if line.startswith("@@"):
        return "cyan"
    return ""
