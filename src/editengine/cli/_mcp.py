"""``editengine mcp``: serve the workspace's edit tools over MCP (stdio, or streamable HTTP)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from editengine._errors import EditError
from editengine.cli._guard import say_error
from editengine.cli._help import HelpFormatter, examples

EXIT_USAGE = 2

# The environment variables this command reads (flags win over them).
ENV_PROVIDER = "EDITENGINE_FIXER_PROVIDER"
ENV_MODEL = "EDITENGINE_FIXER_MODEL"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="run an MCP server with read, edit, multi_edit and undo tools",
        description=(
            "Serve the tools read, edit, multi_edit, undo (and apply_patch) over the Model "
            "Context Protocol for the workspace --root: on stdin/stdout by default, or over "
            "streamable HTTP at http://HOST:PORT/mcp with --http. Every path is confined to "
            "--root. The LLM fixer is off unless --provider (or $EDITENGINE_FIXER_PROVIDER) "
            "is given."
        ),
        formatter_class=HelpFormatter,
        epilog=examples(
            "editengine mcp --root .",
            "editengine mcp --root . --provider openai --model gpt-4o-mini",
            "editengine mcp --http :8765 --telemetry telemetry/",
        ),
    )
    parser.add_argument("--root", default=".", help="workspace root (default: current directory)")
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve streamable HTTP instead of stdio (HOST defaults to 127.0.0.1: ':8765')",
    )
    parser.add_argument(
        "--provider",
        choices=("openai", "anthropic"),
        help=f"LLM fixer provider (default: ${ENV_PROVIDER}, else no fixer)",
    )
    parser.add_argument("--model", help=f"model for the LLM fixer (default: ${ENV_MODEL})")
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="ask the user to approve each write (MCP elicitation, when the client supports it)",
    )
    parser.add_argument("--telemetry", metavar="DIR", help="append telemetry events under DIR")
    parser.add_argument(
        "--require-read",
        action="store_true",
        help="refuse to edit an existing file the client has not read first",
    )
    parser.add_argument(
        "--journal-dir", metavar="DIR", help="where undo journals live (default: a temp folder)"
    )
    parser.add_argument(
        "--lsp",
        action="append",
        default=[],
        metavar="LANG=COMMAND",
        help="a language server for LANG's diagnostics after each edit, e.g. "
        "python=pylsp or typescript='typescript-language-server --stdio' (repeatable)",
    )
    parser.add_argument(
        "--lsp-timeout",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long an edit waits for a language server's diagnostics (default: 3)",
    )
    parser.add_argument(
        "--syntax-guard",
        default="refuse",
        choices=("refuse", "report", "off"),
        help="a forgiving match that breaks the syntax of what it touched: refuse it "
        "(default), write it and report the errors, or check nothing",
    )
    parser.set_defaults(func=run)


def lsp_commands(values: list[str]) -> dict[str, list[str]]:
    """``LANG=COMMAND`` flags as the engine's ``lsp`` mapping (the command split like a shell)."""
    import shlex

    commands: dict[str, list[str]] = {}
    for value in values:
        language, sep, command = value.partition("=")
        words = shlex.split(command) if sep else []
        if not language.strip() or not words:
            raise ValueError(f"--lsp wants LANG=COMMAND (e.g. python=pylsp), got {value!r}.")
        commands[language.strip()] = words
    return commands


def run(args: argparse.Namespace) -> int:
    try:
        from editengine.mcp_server import build_server
    except ImportError as error:
        say_error(
            "missing_dependency",
            f"the MCP server needs the mcp package ({error}). "
            'Install it with: pip install "editengine[mcp]"',
        )
        return EXIT_USAGE
    try:
        address = _address(args.http) if args.http else None
        engine = _engine(args)
    except ImportError as error:
        say_error("provider_config", f"the LLM fixer is not available: {error}")
        return EXIT_USAGE
    except (EditError, ValueError) as error:
        say_error(getattr(error, "code", "bad_request"), str(error))
        return EXIT_USAGE
    server = build_server(engine, confirm=args.confirm)
    try:
        if address is None:
            server.run("stdio")
        else:
            host, port = address
            print(f"editengine MCP server on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
            server.run("streamable-http", host=host, port=port)
    finally:
        engine.close()  # the fixer's clients, and telemetry still on its way to the sinks
    return 0


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--http wants HOST:PORT with a port from 1 to 65535, got {text!r}.")
    return host, int(port)


def _engine(args: argparse.Namespace) -> Any:
    from editengine._journal import Journal
    from editengine._read_tracker import ReadTracker
    from editengine.engine import EditEngine

    provider = args.provider or os.environ.get(ENV_PROVIDER) or None
    model = args.model or os.environ.get(ENV_MODEL) or None
    fixer = None
    if provider:
        from editengine.fixer import make_fixer

        fixer = make_fixer(provider, model=model)
    telemetry = None
    if args.telemetry:
        from editengine.telemetry import JsonlSink, Telemetry

        telemetry = Telemetry(sinks=[JsonlSink(os.path.join(args.telemetry, "edits.jsonl"))])
    journal: Any = Journal(args.root, directory=args.journal_dir) if args.journal_dir else True
    return EditEngine(
        args.root,
        fixer=fixer,
        telemetry=telemetry,
        read_tracker=ReadTracker(require_read=args.require_read),
        journal=journal,
        syntax_guard=args.syntax_guard,
        lsp=lsp_commands(args.lsp) or None,
        lsp_timeout=args.lsp_timeout,
    )
