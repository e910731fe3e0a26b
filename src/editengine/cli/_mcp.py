"""``editengine mcp``: serve the workspace's edit tools over MCP (stdio, or streamable HTTP)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from editengine._errors import BadRequest, EditError
from editengine.cli._guard import say_error
from editengine.cli._help import HelpFormatter, examples

EXIT_USAGE = 2

# The environment variables this command reads (flags win over them).
ENV_PROVIDER = "EDITENGINE_FIXER_PROVIDER"
ENV_MODEL = "EDITENGINE_FIXER_MODEL"
ENV_TOKEN = "EDITENGINE_MCP_TOKEN"


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
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="with --http: also accept requests whose Host header names NAME (repeatable; "
        "the loopback names and the bound address are always accepted)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="with --http: also accept browser requests from ORIGIN, e.g. "
        "https://app.example (repeatable; pages on the accepted hosts always are)",
    )
    parser.add_argument(
        "--token",
        metavar="SECRET",
        help=f"with --http: require 'Authorization: Bearer SECRET' on every request "
        f"(default: ${ENV_TOKEN}); needed to bind a non-loopback address",
    )
    parser.add_argument(
        "--insecure-bind",
        action="store_true",
        help="with --http: allow a non-loopback address without --token (anyone who can "
        "reach the port can edit the files)",
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
        from editengine.mcp_server._http import bind_refusal
    except ImportError as error:
        say_error(
            "missing_dependency",
            f"the MCP server needs the mcp package ({error}). "
            'Install it with: pip install "editengine[mcp]"',
        )
        return EXIT_USAGE
    token = args.token or os.environ.get(ENV_TOKEN) or None
    try:
        address = _address(args.http) if args.http else None
        if address is not None:
            refused = bind_refusal(address[0], token=token, insecure=args.insecure_bind)
            if refused is not None:
                raise BadRequest(refused)
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
            _serve_http(server, address, args, token)
    finally:
        engine.close()  # the fixer's clients, and telemetry still on its way to the sinks
    return 0


def _serve_http(server: Any, address: tuple[str, int], args: argparse.Namespace,
                token: str | None) -> None:  # fmt: skip
    """Streamable HTTP behind the Host/Origin (and token) checks, whatever the bind."""
    import uvicorn

    from editengine.mcp_server._http import HttpPolicy, http_app, is_loopback

    host, port = address
    policy = HttpPolicy.for_bind(
        host, allow_hosts=args.allow_host, allow_origins=args.allow_origin, token=token
    )
    shown = f"[{host}]" if ":" in host else host
    print(f"editengine MCP server on http://{shown}:{port}/mcp", file=sys.stderr, flush=True)
    print(f"Requests are checked: {policy.describe()}.", file=sys.stderr, flush=True)
    if not is_loopback(host) and token is None:
        print(
            f"WARNING: {host} is reachable from other machines and no --token is set "
            "(--insecure-bind): anyone who can reach this port can edit the files under "
            f"{args.root}.",
            file=sys.stderr,
            flush=True,
        )
    # uvicorn.Server, not uvicorn.run: run() swallows the Ctrl-C that Server re-raises once it
    # has shut down, and the CLI answers Ctrl-C with one line and status 130.
    config = uvicorn.Config(http_app(server, policy), host=host, port=port, log_level="warning")
    uvicorn.Server(config).run()


def _address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--http wants HOST:PORT with a port from 1 to 65535, got {text!r}.")
    return host, int(port)


def _engine(args: argparse.Namespace) -> Any:
    from editengine._read_tracker import ReadTracker
    from editengine.engine import EditEngine
    from editengine.journal import Journal

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
