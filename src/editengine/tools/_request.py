"""The one request schema: every field a front end takes (tool calls, MCP tools, batch
lines, the providers' built-in edit tools), its spellings, its rule and its error text.

Each request kind is a :class:`Schema`, a tuple of :class:`Field`. :func:`parse` turns a
caller's mapping into checked values, and :meth:`Schema.json_schema` gives the JSON Schema
the tool definitions publish, so what a model is told and what it is held to are one table.

The rules, the same for every front end:

- a string field holds a ``str`` that UTF-8 can encode: a lone surrogate (``"\\ud800"``, which
  JSON allows as an escape) is refused, since no file or answer could carry it;
- a boolean is ``true``, ``false`` or absent/null: ``"false"`` or ``0`` is refused, never
  guessed at;
- a count is a positive integer (a JSON number with no fraction): ``"2"`` is refused;
- unknown fields are ignored; two spellings of one field with different values are refused.

>>> parse(EDIT, {"path": "a.py", "old_str": "x", "new_str": "y"})["file_path"]
'a.py'
>>> parse(EDIT, {"file_path": "a.py", "old_string": "x", "new_string": "y",
...              "replace_all": "false"})
Traceback (most recent call last):
...
editengine.BadRequest: replace_all must be true or false (a JSON boolean), got 'false'.

Why one long module: it is the one table of fields every front end reads; split, two front
ends could drift apart again.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from editengine._edits import ARGUMENT_ALIASES, EditSpec
from editengine._errors import BadRequest

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

Kind = Literal["string", "text", "boolean", "count", "enum", "edits", "files", "range"]

# Spellings beyond the canonical name, from the engine's own table plus the fields only the
# front ends know.
_ALIASES: dict[str, tuple[str, ...]] = {
    **ARGUMENT_ALIASES,
    "expected_hash": ("expected_hash", "expectedHash"),
    "overwrite": ("overwrite",),
}


@dataclass(frozen=True)
class Field:
    """One field: its canonical name, its rule (``kind``) and what a model is told of it.

    ``published`` fields appear in the tool schemas; the others are accepted all the same
    (for callers that know them) but not offered to a model.
    """

    name: str
    kind: Kind
    description: str = ""
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: int = 1
    published: bool = True
    aliases: tuple[str, ...] = ()
    hint: str = ""

    def spellings(self) -> tuple[str, ...]:
        return self.aliases or _ALIASES.get(self.name, (self.name,))

    def check(self, value: Any) -> Any:
        """``value`` checked by this field's rule (``None``: absent)."""
        if value is None:
            if self.required:
                raise BadRequest(f"{self.name} is required{self.hint}.")
            return copy.copy(self.default)  # a fresh {} for each request
        if self.kind == "boolean":
            return boolean(value, self.name)
        if self.kind == "count":
            return count(value, self.name, minimum=self.minimum)
        if self.kind == "edits":
            return _edits(value, self)
        if self.kind == "files":
            return _files(value, self.name)
        if self.kind == "range":
            return _line_range(value, self.name)
        checked = text(value, self.name, empty=self.kind == "string")
        if self.kind == "enum" and checked not in self.choices:
            raise BadRequest(
                f"{self.name} must be one of {', '.join(self.choices)}; got {checked!r}."
            )
        return checked

    def json_schema(self, *, strict: bool = False) -> dict[str, Any]:
        schema: dict[str, Any]
        if self.kind == "boolean":
            schema = {"type": "boolean"}
        elif self.kind == "count":
            schema = {"type": "integer", "minimum": self.minimum}
        elif self.kind == "edits":
            schema = {"type": "array", "minItems": 1, "items": EDIT_ITEM.json_schema(strict=strict)}
        elif self.kind == "range":
            schema = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
        elif self.kind == "files":
            schema = {"type": "object", "additionalProperties": {"type": "string"}}
        elif self.choices:
            schema = {"type": "string", "enum": list(self.choices)}
        else:
            schema = {"type": "string"}
        if strict:
            # OpenAI's strict mode: every property listed as required, an optional one
            # nullable; no defaults or bounds it would refuse (the descriptions say them).
            schema.pop("minimum", None)
            schema.pop("minItems", None)
            if not self.required:
                schema["type"] = [schema["type"], "null"]
                if "enum" in schema:
                    schema["enum"] = [*schema["enum"], None]
        elif self.default is not None:
            schema["default"] = self.default
        if self.description:
            schema["description"] = self.description
        return schema


@dataclass(frozen=True)
class Schema:
    """A request kind: its name (for messages) and its fields."""

    name: str
    fields: tuple[Field, ...]

    def json_schema(self, *, strict: bool = False) -> dict[str, Any]:
        """The published fields as a JSON Schema object. ``strict=True`` gives the form of
        OpenAI's strict function calling (and openai-agents' strict rewrite): every property
        required, the optional ones nullable, no other property allowed."""
        shown = [field for field in self.fields if field.published]
        required = [f.name for f in shown if f.required or strict]
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {f.name: f.json_schema(strict=strict) for f in shown},
        }
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return copy.deepcopy(schema)


def parse(schema: Schema, arguments: object, *, where: str = "") -> dict[str, Any]:
    """The checked values of ``arguments`` (a mapping, or a JSON object as text or bytes)
    for every field of ``schema``, absent ones at their default; :class:`BadRequest` names
    the first field that breaks its rule. ``where`` prefixes the messages (``"edit 2: "``).
    """
    given = load_arguments(arguments)
    values: dict[str, Any] = {}
    try:
        for field in schema.fields:
            values[field.name] = field.check(_one_spelling(given, field))
    except BadRequest as error:
        if not where:
            raise
        raise BadRequest(where + error.message) from error
    return values


def _one_spelling(given: Mapping[str, Any], field: Field) -> Any:
    names = [name for name in field.spellings() if name in given]
    if len({repr(given[name]) for name in names}) > 1:
        raise BadRequest(
            f"{' and '.join(names)} are the same argument with different values; send one."
        )
    return given[names[0]] if names else None


def load_arguments(arguments: object) -> dict[str, Any]:
    """The arguments as a dict, from a mapping or a JSON object's text (or UTF-8 bytes)."""
    if isinstance(arguments, (bytes, bytearray)):
        try:
            arguments = arguments.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadRequest("The tool arguments are not UTF-8 text.") from error
    if isinstance(arguments, str):
        arguments = _json(arguments, what="The tool arguments")
    if not isinstance(arguments, Mapping):
        raise BadRequest(
            f"The tool arguments must be a JSON object, got {type(arguments).__name__}."
        )
    return dict(arguments)


def _json(source: str, *, what: str) -> Any:
    if not source.strip():
        raise BadRequest(f"{what} are empty; send a JSON object.")
    try:
        return json.loads(source)
    except json.JSONDecodeError as error:
        raise BadRequest(
            f"{what} are not valid JSON ({error.msg} at line {error.lineno} column {error.colno})."
        ) from error
    except RecursionError:
        raise BadRequest(f"{what} are nested too deeply to read.") from None


# ---------------------------------------------------------------------- the rules


def text(value: object, name: str, *, empty: bool = True) -> str:
    """A string UTF-8 can encode (``empty=False``: with something besides whitespace)."""
    if not isinstance(value, str):
        raise BadRequest(f"{name} must be a string, got {type(value).__name__}.")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise BadRequest(
            f"{name} holds a lone surrogate ({value[error.start]!a} at character "
            f"{error.start}), which is not Unicode text: no file or answer can carry it. "
            "Send valid Unicode text."
        ) from None
    if not empty and not value.strip():
        raise BadRequest(f"{name} must not be empty.")
    return value


def boolean(value: object, name: str) -> bool:
    """``true`` or ``false``; strings and numbers are refused rather than guessed at."""
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false (a JSON boolean), got {value!r}.")
    return value


def count(value: object, name: str, *, minimum: int = 1) -> int:
    """An integer of at least ``minimum``; a JSON number with no fraction (``2.0``) counts,
    a string or a boolean does not."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer of at least {minimum}"
        raise BadRequest(f"{name} must be {what}, got {value!r}.")
    return value


def _edits(value: object, field: Field) -> list[dict[str, Any]]:
    if isinstance(value, str):  # some models send the array JSON-encoded a second time
        value = _json(value, what="The edits")
    if not isinstance(value, list) or not value:
        raise BadRequest(f"{field.name} is required{field.hint}.")
    items = []
    for index, item in enumerate(value, 1):
        if not isinstance(item, Mapping):
            raise BadRequest(f"edit {index} must be an object with old_string and new_string.")
        items.append(parse(EDIT_ITEM, item, where=f"edit {index}: "))
    return items


def _files(value: object, name: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise BadRequest(f"{name} must be an object mapping paths to file contents.")
    return {
        text(path, f"{name} key"): text(content, f"{name}[{path!r}]")
        for path, content in value.items()
    }


def _line_range(value: object, name: str) -> tuple[int, int]:
    """``[start_line, end_line]``, 1-based and inclusive; ``end_line`` -1 means the end."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and value[0] >= 1
        and (value[1] == -1 or value[1] >= value[0])
    ):
        return (value[0], value[1])
    raise BadRequest(
        f"{name} must be [start_line, end_line]: two integers, start_line from 1, end_line "
        f"at least start_line or -1 for the end of the file; got {value!r}."
    )


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
