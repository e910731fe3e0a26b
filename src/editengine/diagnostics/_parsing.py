"""The problems a parser finds in a text: tree-sitter's error and missing nodes, and where the
standard library holds the language's own parser (Python's, ``json``, ``tomllib``), its verdict
too — tree-sitter recovers silently from some errors (Python's unexpected indentation).

Positions here are 0-based rows and character columns of the text parsed; the caller moves
them to the file's lines.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
import threading
import warnings
from dataclasses import dataclass

from editengine.diagnostics._languages import Language, grammar_of

# More than this many problems in one text say nothing more useful than the first ones.
MAX_PROBLEMS = 50
# How much of an unexpected token the message quotes.
_SNIPPET = 24


@dataclass(frozen=True)
class Problem:
    """One syntax problem in a parsed text: 0-based rows, character columns."""

    row: int
    column: int
    end_row: int
    end_column: int
    message: str


def problems_in(
    language: Language, text: str, *, tree: bool = True, stdlib: bool = True
) -> list[Problem]:
    """Every syntax problem ``language``'s parsers find in ``text``, in text order: tree-sitter's
    (``tree``) and the standard library's parser's, where there is one (``stdlib``).

    Raises ``ImportError`` when the language's grammar is not installed.
    """
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte order mark is the file's encoding, not its code
    found = _tree_sitter_problems(language, text) if tree else []
    if stdlib:
        own = _stdlib_problem(language, text)
        if own is not None:
            # The language's own parser words its verdict better than "syntax error at ...".
            found = [p for p in found if p.row != own.row]
            found.append(own)
    found.sort(key=lambda p: (p.row, p.column))
    return found[:MAX_PROBLEMS]


def _tree_sitter_problems(language: Language, text: str) -> list[Problem]:
    import tree_sitter

    source = text.encode("utf-8", "surrogatepass")
    tree = tree_sitter.Parser(grammar_of(language)).parse(source)
    root = tree.root_node
    if not root.has_error:
        return []
    lines = source.split(b"\n")
    found: list[Problem] = []
    stack = [root]
    while stack and len(found) < MAX_PROBLEMS:
        node = stack.pop()
        if node.is_missing:
            found.append(_problem(lines, node, f"missing {_quoted(node.type)}"))
        elif node.is_error:
            snippet = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
            if not _accepted_by_the_language(language, node, snippet):
                found.append(_problem(lines, node, unexpected(snippet)))
        else:
            stack.extend(
                child for child in reversed(node.children) if child.has_error or child.is_missing
            )
    return found


# A type where tree-sitter-go wants an expression: Go's own parser reads a type as a call's
# argument (generic helpers, conversions), the grammar only in make() and new().
_GO_TYPE_ARGUMENT = re.compile(r"^\s*(\[\d*\]|map\[|chan\b|\*\s*[A-Za-z_]|func\s*\()")


def _accepted_by_the_language(language: Language, node: object, snippet: str) -> bool:
    """An error node of the grammar that the language's own parser does not report."""
    parent = node.parent  # type: ignore[attr-defined]  # tree-sitter's Node is typed loosely by its stubs
    return (
        language.name == "go"
        and parent is not None
        and parent.type == "argument_list"
        and _GO_TYPE_ARGUMENT.match(snippet) is not None
    )


def _problem(lines: list[bytes], node: object, message: str) -> Problem:
    start_row, start_byte = node.start_point  # type: ignore[attr-defined]  # tree-sitter's Node is typed loosely by its stubs
    end_row, end_byte = node.end_point  # type: ignore[attr-defined]  # tree-sitter's Node is typed loosely by its stubs
    return Problem(
        start_row,
        _characters(lines, start_row, start_byte),
        end_row,
        _characters(lines, end_row, end_byte),
        message,
    )


def _characters(lines: list[bytes], row: int, byte_column: int) -> int:
    if row >= len(lines):
        return byte_column
    return len(lines[row][:byte_column].decode("utf-8", "ignore"))


def _quoted(token: str) -> str:
    return f'"{token}"' if '"' not in token else f"'{token}'"


UNEXPECTED = "syntax error"


def unexpected(snippet: str) -> str:
    """``syntax error at "<the first characters of snippet>"``."""
    first = snippet.strip().split("\n", 1)[0]
    if not first:
        return UNEXPECTED
    if len(first) > _SNIPPET:
        first = first[:_SNIPPET] + "…"
    return f"{UNEXPECTED} at {_quoted(first)}"


# --------------------------------------------------------------------------- standard library


def _stdlib_problem(language: Language, text: str) -> Problem | None:
    if language.name == "python":
        return _python_problem(text)
    if language.name == "json":
        return _json_problem(text)
    if language.name == "toml":
        return _toml_problem(text)
    return None


# ast.parse keeps interpreter-wide recursion counters on CPython 3.11/3.12 (threads parsing at
# once fail with SystemError "AST constructor recursion depth mismatch"), and
# warnings.catch_warnings swaps process-wide filters: one parse at a time.
_PYTHON_PARSE = threading.Lock()


def _python_problem(text: str) -> Problem | None:
    try:
        with _PYTHON_PARSE, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences: not syntax errors
            ast.parse(text)
    except SyntaxError as error:
        row = max((error.lineno or 1) - 1, 0)
        column = max((error.offset or 1) - 1, 0)
        end_row = max((error.end_lineno or row + 1) - 1, row)
        end_column = max((error.end_offset or column + 1) - 1, 0)
        if end_row == row and end_column <= column:
            end_column = column + 1
        return Problem(row, column, end_row, end_column, error.msg)
    except (ValueError, RecursionError, MemoryError):
        return None  # a null byte, a pathological nesting: tree-sitter's verdict stands
    return None


def _json_problem(text: str) -> Problem | None:
    if not text.strip():
        return None
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return Problem(error.lineno - 1, error.colno - 1, error.lineno - 1, error.colno, error.msg)
    except RecursionError:
        return None
    return None


_TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)")


def _toml_problem(text: str) -> Problem | None:
    if sys.version_info < (3, 11):
        return None
    tomllib = importlib.import_module("tomllib")  # 3.11+, checked above
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        place = _TOML_PLACE.search(message)
        row, column = (int(place[1]) - 1, int(place[2]) - 1) if place else (0, 0)
        message = _TOML_PLACE.sub("", message).strip() or "invalid TOML"
        return Problem(row, column, row, column + 1, message)
    return None
