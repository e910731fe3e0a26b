"""The one request schema: every field a front end takes (tool calls, MCP tools, batch
lines, the providers' built-in edit tools), its spellings, its rule and its error text.

It lives in the tool-call front end's package as that front end's request schema: the MCP
server, the batch protocol and ``editengine apply`` are front ends on the same footing and
read their requests by this one table (with the rules of :mod:`editengine.tools._fields`),
so what a model is told and what it is held to cannot drift apart between them.

Each request kind is a :class:`Schema`, a tuple of :class:`Field`. :func:`parse` turns a
caller's mapping into checked values, and :meth:`Schema.json_schema` gives the JSON Schema
the tool definitions publish.

>>> parse(EDIT, {"path": "a.py", "old_str": "x", "new_str": "y"})["file_path"]
'a.py'
>>> parse(EDIT, {"file_path": "a.py", "old_string": "x", "new_string": "y",
...              "replace_all": "false"})
Traceback (most recent call last):
...
editengine.BadRequest: replace_all must be true or false (a JSON boolean), got 'false'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from editengine._edits import EditSpec
from editengine.tools._fields import (
    Field,
    Schema,
    boolean,
    count,
    load_arguments,
    parse,
    text,
)

__all__ = [
    "APPLY_PATCH",
    "BATCH_EDIT",
    "BATCH_PATCH",
    "EDIT",
    "EDIT_ITEM",
    "MULTIEDIT",
    "READ",
    "TEXT_EDITOR_COMMAND",
    "TEXT_EDITOR_CREATE",
    "TEXT_EDITOR_INSERT",
    "TEXT_EDITOR_STR_REPLACE",
    "TEXT_EDITOR_UNDO",
    "TEXT_EDITOR_VIEW",
    "UNDO",
    "Field",
    "Schema",
    "boolean",
    "count",
    "edit_spec",
    "load_arguments",
    "parse",
    "text",
]


def edit_spec(values: Mapping[str, Any]) -> EditSpec:
    """The :class:`EditSpec` of parsed ``EDIT`` / ``EDIT_ITEM`` / ``BATCH_EDIT`` values."""
    return EditSpec(
        old_string=values["old_string"],
        new_string=values["new_string"],
        replace_all=values["replace_all"],
        expected_replacements=values["expected_replacements"],
        match_mode=values["match_mode"] or "auto",
        instruction=values["instruction"] or None,
    )


# ---------------------------------------------------------------------- the fields

_FILE_PATH = Field(
    "file_path",
    "text",
    "Path of the file to edit, relative to the workspace root.",
    required=True,
)
_OLD_STRING = Field(
    "old_string",
    "string",
    "The exact text to replace, copied from the file with its indentation; it must match "
    "one place only, so include enough surrounding lines. Empty creates the file or "
    "replaces it whole.",
    required=True,
)
_NEW_STRING = Field(
    "new_string",
    "string",
    "The text to put in its place (must differ from old_string).",
    required=True,
)
_REPLACE_ALL = Field(
    "replace_all",
    "boolean",
    "Replace every occurrence of old_string (for renames). Default false.",
    default=False,
)
_INSTRUCTION = Field("instruction", "string", "One sentence saying what this edit does and why.")
_EXPECTED_REPLACEMENTS = Field(
    "expected_replacements",
    "count",
    "How many occurrences old_string must match (all of them are replaced).",
    published=False,
)
_MATCH_MODE = Field(
    "match_mode",
    "string",
    "exact, line_trimmed, block_anchor or auto (the whole cascade, the default).",
    published=False,
)
_SYNTAX_GUARD = Field(
    "syntax_guard",
    "string",
    "refuse (the default): a forgiving match that breaks the syntax of what it touched is "
    "refused; report: written, the problems reported; off: no syntax check.",
    default="refuse",
    choices=("refuse", "report", "off"),
    published=False,
    aliases=("syntax_guard",),
)
_EXPECTED_HASH = Field(
    "expected_hash",
    "text",
    "The sha256 of the file as last read: the edit is refused if the file has changed.",
    published=False,
)
_OVERWRITE = Field(
    "overwrite",
    "boolean",
    "With an empty old_string, replace a file that is not empty with new_string whole. "
    "Default false.",
    default=False,
)

READ = Schema(
    "read",
    (
        Field(
            "file_path",
            "text",
            "Path of the file to read, relative to the workspace root.",
            required=True,
        ),
        Field("offset", "count", "First line to show, 1-based (default 1)."),
        Field("limit", "count", "How many lines to show (default 2000)."),
    ),
)

EDIT = Schema(
    "edit",
    (
        _FILE_PATH,
        _OLD_STRING,
        _NEW_STRING,
        _REPLACE_ALL,
        _INSTRUCTION,
        _OVERWRITE,
        _EXPECTED_REPLACEMENTS,
        _MATCH_MODE,
        _EXPECTED_HASH,
    ),
)

EDIT_ITEM = Schema(
    "edit",
    (
        _OLD_STRING,
        _NEW_STRING,
        _REPLACE_ALL,
        _EXPECTED_REPLACEMENTS,
        _MATCH_MODE,
        Field("instruction", "string", published=False),
    ),
)

MULTIEDIT = Schema(
    "multiedit",
    (
        _FILE_PATH,
        Field(
            "edits",
            "edits",
            "Edits applied in order, each to the result of the ones before; all of them are "
            "applied or none.",
            required=True,
            hint=": a non-empty array of {old_string, new_string} objects",
            items=EDIT_ITEM,
        ),
        _INSTRUCTION,
        _EXPECTED_HASH,
    ),
)

PATCH_FORMATS = ("auto", "apply_patch", "udiff", "search_replace")

APPLY_PATCH = Schema(
    "apply_patch",
    (
        Field(
            "patch",
            "text",
            "The whole patch text: an apply_patch patch ('*** Begin Patch' ... "
            "'*** End Patch'), a unified diff, or SEARCH/REPLACE blocks.",
            required=True,
            aliases=("patch", "patchText", "patch_text", "input"),
        ),
        # The engine judges the format (bad_patch names the ones it knows); the schema
        # offers them.
        Field(
            "format",
            "string",
            "The patch format; 'auto' (default) detects it.",
            default="auto",
            choices=PATCH_FORMATS,
        ),
        Field("instruction", "string", "One sentence saying what the patch does and why."),
    ),
)

UNDO = Schema(
    "undo",
    (
        Field(
            "file_path",
            "text",
            "Undo the last edit of this file (default: the last edit anywhere).",
        ),
        Field(
            "steps",
            "count",
            "How many edits to undo, newest first (default 1).",
            default=1,
        ),
        Field("redo", "boolean", "Reverse the last undo instead.", default=False),
    ),
)

# The batch protocol: a text in the request, not a file on disk.
BATCH_EDIT = Schema(
    "batch",
    (
        Field("content", "string", "The text to edit.", required=True, aliases=("content",)),
        _OLD_STRING,
        _NEW_STRING,
        _REPLACE_ALL,
        _EXPECTED_REPLACEMENTS,
        _MATCH_MODE,
        _INSTRUCTION,
        Field(
            "path",
            "text",
            "A file name for the content (it picks the language); nothing is read or written.",
            aliases=("path",),
        ),
        _OVERWRITE,
        _EXPECTED_HASH,
        _SYNTAX_GUARD,
    ),
)

BATCH_PATCH = Schema(
    "batch",
    (
        Field(
            "files",
            "files",
            "The files the patch applies to: path -> content.",
            default={},
            aliases=("files",),
        ),
        Field("patch", "string", "The patch text.", required=True, aliases=("patch",)),
        Field("format", "string", default="auto", choices=PATCH_FORMATS, aliases=("format",)),
        _SYNTAX_GUARD,
    ),
)

# Anthropic's text editor tool (``str_replace_based_edit_tool``, ``str_replace_editor``): its
# own argument names, one schema a command.
TEXT_EDITOR_COMMANDS = ("view", "create", "str_replace", "insert", "undo_edit")

_EDITOR_PATH = Field(
    "path", "text", "Path of the file or folder.", required=True, aliases=("path",)
)
TEXT_EDITOR_COMMAND = Schema(
    "str_replace_based_edit_tool",
    (Field("command", "enum", required=True, choices=TEXT_EDITOR_COMMANDS, aliases=("command",)),),
)
TEXT_EDITOR_VIEW = Schema(
    "view",
    (
        _EDITOR_PATH,
        Field(
            "view_range",
            "range",
            "Lines to show: [start, end], end -1 for the end.",
            aliases=("view_range",),
        ),
    ),
)
TEXT_EDITOR_STR_REPLACE = Schema(
    "str_replace",
    (
        _EDITOR_PATH,
        Field("old_str", "string", required=True, aliases=("old_str", "old_string")),
        Field("new_str", "string", default="", aliases=("new_str", "new_string")),
    ),
)
TEXT_EDITOR_CREATE = Schema(
    "create",
    (_EDITOR_PATH, Field("file_text", "string", required=True, aliases=("file_text",))),
)
TEXT_EDITOR_INSERT = Schema(
    "insert",
    (
        _EDITOR_PATH,
        Field("insert_line", "count", required=True, minimum=0, aliases=("insert_line",)),
        Field("new_str", "string", required=True, aliases=("new_str", "insert_text")),
    ),
)
TEXT_EDITOR_UNDO = Schema("undo_edit", (_EDITOR_PATH,))
