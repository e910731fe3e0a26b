"""Tool-call integration: ``edit``, ``multiedit`` and ``apply_patch`` tool schemas for OpenAI
and Anthropic, argument normalisation, the text a model reads back, and :class:`ToolCalls`,
the ``handle_tool_call`` methods :class:`~editengine.EditEngine` takes on.

The adapter sits on top of the engine: it knows the engine only as the edit methods a tool
call reaches (:class:`ToolCalls` declares them), and the engine's own modules never import it.

>>> [tool["function"]["name"] for tool in openai_tools()]
['edit', 'multiedit']
>>> [tool["name"] for tool in anthropic_tools()]
['edit', 'multiedit']

Why one long module: most of it is data, the schemas and descriptions for two providers
written out.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from editengine._edits import EditSpec, canonical_arguments
from editengine._errors import BadRequest, EditError, MultiEditFailed, PatchFailed
from editengine._resources import prompt_text
from editengine._results import EditResult
from editengine.diagnostics import errors_block

logger = logging.getLogger("editengine")

__all__ = [
    "APPLY_PATCH_LARK_GRAMMAR",
    "APPLY_PATCH_TOOL",
    "EDIT_TOOL",
    "MULTIEDIT_TOOL",
    "PatchCall",
    "ToolCall",
    "ToolCalls",
    "anthropic_tools",
    "format_error",
    "format_patch_error",
    "format_patch_result",
    "format_result",
    "is_patch_tool",
    "load_arguments",
    "openai_builtin_apply_patch_tool",
    "openai_custom_apply_patch_tool",
    "openai_tools",
    "parse_patch_call",
    "parse_tool_call",
    "run_patch_tool",
    "tool_definitions",
    "tool_description",
]

EDIT_TOOL = "edit"
MULTIEDIT_TOOL = "multiedit"
_TOOL_NAMES = {
    "edit": EDIT_TOOL,
    "multiedit": MULTIEDIT_TOOL,
    "multi_edit": MULTIEDIT_TOOL,
    "multiedits": MULTIEDIT_TOOL,
}

_FILE_PATH = {
    "type": "string",
    "description": "Path of the file to edit, relative to the workspace root.",
}
_OLD_STRING = {
    "type": "string",
    "description": (
        "The exact text to replace, copied from the file with its indentation; it must match "
        "one place only, so include enough surrounding lines. Empty creates the file or "
        "replaces it whole."
    ),
}
_NEW_STRING = {
    "type": "string",
    "description": "The text to put in its place (must differ from old_string).",
}
_REPLACE_ALL = {
    "type": "boolean",
    "default": False,
    "description": "Replace every occurrence of old_string (for renames). Default false.",
}
_INSTRUCTION = {
    "type": "string",
    "description": "One sentence saying what this edit does and why.",
}

EDIT_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "file_path": _FILE_PATH,
        "old_string": _OLD_STRING,
        "new_string": _NEW_STRING,
        "replace_all": _REPLACE_ALL,
        "instruction": _INSTRUCTION,
    },
    "required": ["file_path", "old_string", "new_string"],
    "additionalProperties": False,
}

MULTIEDIT_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "file_path": _FILE_PATH,
        "edits": {
            "type": "array",
            "minItems": 1,
            "description": (
                "Edits applied in order, each to the result of the ones before; "
                "all of them are applied or none."
            ),
            "items": {
                "type": "object",
                "properties": {
                    "old_string": _OLD_STRING,
                    "new_string": _NEW_STRING,
                    "replace_all": _REPLACE_ALL,
                },
                "required": ["old_string", "new_string"],
                "additionalProperties": False,
            },
        },
        "instruction": _INSTRUCTION,
    },
    "required": ["file_path", "edits"],
    "additionalProperties": False,
}

APPLY_PATCH_TOOL = "apply_patch"
_PATCH_TOOL_NAMES = {"apply_patch", "applypatch", "patch"}

APPLY_PATCH_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "patch": {
            "type": "string",
            "description": (
                "The whole patch text: an apply_patch patch ('*** Begin Patch' ... "
                "'*** End Patch'), a unified diff, or SEARCH/REPLACE blocks."
            ),
        },
        "format": {
            "type": "string",
            "enum": ["auto", "apply_patch", "udiff", "search_replace"],
            "default": "auto",
            "description": "The patch format; 'auto' (default) detects it.",
        },
        "instruction": _INSTRUCTION,
    },
    "required": ["patch"],
    "additionalProperties": False,
}

# The apply_patch grammar (Lark), for OpenAI's free-form custom tools: the model's output is
# constrained to a well-formed patch.
APPLY_PATCH_LARK_GRAMMAR = r"""start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
"""

_PROMPTS = {
    EDIT_TOOL: "tool_edit.md",
    MULTIEDIT_TOOL: "tool_multiedit.md",
    APPLY_PATCH_TOOL: "tool_apply_patch.md",
}
_PARAMETERS = {
    EDIT_TOOL: EDIT_PARAMETERS,
    MULTIEDIT_TOOL: MULTIEDIT_PARAMETERS,
    APPLY_PATCH_TOOL: APPLY_PATCH_PARAMETERS,
}

ToolFormat = Literal["openai", "anthropic"]


def tool_description(tool: str) -> str:
    return prompt_text(_PROMPTS[tool]).strip()


def openai_tools(tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL)) -> list[dict[str, Any]]:
    """Tool definitions in the OpenAI function-calling format."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool,
                "description": tool_description(tool),
                "parameters": copy.deepcopy(_PARAMETERS[tool]),
            },
        }
        for tool in tools
    ]


def anthropic_tools(tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL)) -> list[dict[str, Any]]:
    """Tool definitions in the Anthropic Messages API format."""
    return [
        {
            "name": tool,
            "description": tool_description(tool),
            "input_schema": copy.deepcopy(_PARAMETERS[tool]),
        }
        for tool in tools
    ]


def openai_custom_apply_patch_tool(
    *, api: Literal["responses", "chat"] = "responses"
) -> dict[str, Any]:
    """The ``apply_patch`` tool as an OpenAI free-form custom tool: the model writes the
    patch as raw text, constrained by :data:`APPLY_PATCH_LARK_GRAMMAR`. Its call's input (a
    string) goes to :meth:`EditEngine.handle_tool_call` as it is.

    ``api="responses"`` gives the Responses API shape, ``"chat"`` the Chat Completions one.
    """
    custom: dict[str, Any] = {
        "name": APPLY_PATCH_TOOL,
        "description": tool_description(APPLY_PATCH_TOOL).split("\n\nRules:")[0]
        + "\nSend the patch in the apply_patch format only.",
        "format": {
            "type": "grammar",
            "syntax": "lark",
            "definition": APPLY_PATCH_LARK_GRAMMAR,
        },
    }
    if api == "chat":
        grammar = custom.pop("format")
        custom["format"] = {
            "type": "grammar",
            "grammar": {"syntax": grammar["syntax"], "definition": grammar["definition"]},
        }
        return {"type": "custom", "custom": custom}
    return {"type": "custom", **custom}


def openai_builtin_apply_patch_tool() -> dict[str, Any]:
    """OpenAI's built-in Responses API ``apply_patch`` tool; pass each call's ``operation``
    (``{"type": "update_file", "path", "diff"}`` ...) to :meth:`EditEngine.handle_tool_call`
    as ``{"operation": ...}``."""
    return {"type": "apply_patch"}


def tool_definitions(
    format: ToolFormat, tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL)
) -> list[dict[str, Any]]:
    if format == "openai":
        return openai_tools(tools)
    if format == "anthropic":
        return anthropic_tools(tools)
    raise ValueError(f"unknown tool format {format!r}; use 'openai' or 'anthropic'")


# ---------------------------------------------------------------------- calls


@dataclass(frozen=True)
class ToolCall:
    """A normalised tool call: ``edits`` has one item for ``edit``."""

    tool: str
    file_path: str
    edits: tuple[EditSpec, ...]
    instruction: str | None = None


def parse_tool_call(name: object, arguments: Mapping[str, Any] | str | bytes) -> ToolCall:
    """Validate a model's tool call; :class:`BadRequest` says what is wrong with it."""
    tool = _TOOL_NAMES.get(name.strip().lower()) if isinstance(name, str) else None
    if tool is None:
        raise BadRequest(
            f"Unknown tool {name!r}. This handler runs the tools {EDIT_TOOL!r} and "
            f"{MULTIEDIT_TOOL!r}."
        )
    args = canonical_arguments(load_arguments(arguments))
    file_path = args.get("file_path")
    if not isinstance(file_path, str) or not file_path.strip():
        raise BadRequest(f"{tool}: file_path is required and must be a non-empty string.")
    instruction = _optional_text(args.get("instruction"), "instruction")
    if tool == EDIT_TOOL:
        return ToolCall(tool, file_path, (_spec(args, tool),), instruction)
    edits = args.get("edits")
    if isinstance(edits, str):  # some models send the array JSON-encoded a second time
        edits = _json(edits, what="edits")
    if not isinstance(edits, list) or not edits:
        raise BadRequest(
            "multiedit: edits is required: a non-empty array of {old_string, new_string} objects."
        )
    specs = []
    for index, item in enumerate(edits, 1):
        if not isinstance(item, Mapping):
            raise BadRequest(
                f"multiedit: edit {index} must be an object with old_string and new_string."
            )
        try:
            specs.append(_spec(canonical_arguments(item, where=f"edit {index}"), f"edit {index}"))
        except BadRequest as error:
            raise BadRequest(f"multiedit: {error.message}") from error
    return ToolCall(tool, file_path, tuple(specs), instruction)


def load_arguments(arguments: object) -> dict[str, Any]:
    """The arguments as a dict, from a dict or a JSON object string."""
    if isinstance(arguments, (bytes, bytearray)):
        try:
            arguments = arguments.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadRequest("The tool arguments are not UTF-8 text.") from error
    if isinstance(arguments, str):
        arguments = _json(arguments, what="the tool arguments")
    if not isinstance(arguments, Mapping):
        raise BadRequest(
            f"The tool arguments must be a JSON object, got {type(arguments).__name__}."
        )
    return dict(arguments)


def _json(text: str, *, what: str) -> Any:
    if not text.strip():
        raise BadRequest(f"{what[0].upper()}{what[1:]} are empty; send a JSON object.")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadRequest(
            f"{what[0].upper()}{what[1:]} are not valid JSON "
            f"({error.msg} at line {error.lineno} column {error.colno})."
        ) from error
    except RecursionError:
        raise BadRequest(f"{what[0].upper()}{what[1:]} are nested too deeply to read.") from None


def _spec(args: Mapping[str, Any], where: str) -> EditSpec:
    for name in ("old_string", "new_string"):
        if name not in args:
            raise BadRequest(f"{where}: {name} is required.")
        if not isinstance(args[name], str):
            raise BadRequest(f"{where}: {name} must be a string, got {type(args[name]).__name__}.")
    return EditSpec(
        old_string=args["old_string"],
        new_string=args["new_string"],
        replace_all=_flag(args.get("replace_all"), f"{where}: replace_all"),
        expected_replacements=_count(args.get("expected_replacements"), where),
        match_mode=_optional_text(args.get("match_mode"), "match_mode") or "auto",
        instruction=_optional_text(args.get("instruction"), "instruction"),
    )


def _flag(value: object, what: str) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise BadRequest(f"{what} must be true or false, got {value!r}.")


def _count(value: object, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise BadRequest(f"{where}: expected_replacements must be a positive integer.")
    return value


def _optional_text(value: object, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{what} must be a string, got {type(value).__name__}.")
    return value or None


# ---------------------------------------------------------------------- answers


def format_result(result: EditResult) -> str:
    """What a model reads after a successful edit: the summary, notes, then the diff, then
    the errors the edit introduced (an ``Errors:`` block, docs/diagnostics.md)."""
    summary = result.summary
    parts = [summary if summary.endswith((".", "!", "?")) else summary + "."]
    parts.extend(result.notes)
    if result.diff:
        parts.append(result.diff.rstrip("\n"))
    errors = errors_block(result.diagnostics, result.diagnostics_note)
    if errors:
        parts.append(errors)
    return "\n\n".join(parts)


def format_error(error: EditError) -> str:
    """What a model reads after a failed edit: code, what went wrong, what to do next."""
    text = f"Error [{error.code}]: {error}"
    if isinstance(error, MultiEditFailed):
        text = f"Error [{error.code}/{error.cause.code}]: {error}"
    cause = error.cause if isinstance(error, MultiEditFailed) else error
    closest = getattr(cause, "closest", ())
    where = [region.describe() for region in closest]
    if where and not all(place in text for place in where):
        text += "\nClosest text in the file: " + ", ".join(where) + "."
    return text


# ---------------------------------------------------------------------- apply_patch tool


def is_patch_tool(name: object) -> bool:
    return isinstance(name, str) and name.strip().lower() in _PATCH_TOOL_NAMES


@dataclass(frozen=True)
class PatchCall:
    """A normalised ``apply_patch`` tool call."""

    patch: str
    format: str = "auto"
    instruction: str | None = None


def parse_patch_call(arguments: object) -> PatchCall:
    """The patch of a function call (``{"patch": ...}``), a free-form custom-tool call (the
    raw patch text) or a built-in ``apply_patch`` call (``{"operation": ...}``)."""
    if isinstance(arguments, (bytes, bytearray)):
        try:
            arguments = arguments.decode("utf-8")
        except UnicodeDecodeError as error:
            raise BadRequest("The tool arguments are not UTF-8 text.") from error
    if isinstance(arguments, str):
        stripped = arguments.strip()
        if not stripped.startswith("{"):
            if not stripped:
                raise BadRequest("apply_patch: the patch is empty; send the patch text.")
            return PatchCall(arguments)  # a free-form (custom tool) call: the patch itself
        arguments = _json(arguments, what="the tool arguments")
    if not isinstance(arguments, Mapping):
        raise BadRequest(
            f"The tool arguments must be a JSON object, got {type(arguments).__name__}."
        )
    operation = arguments.get("operation")
    if operation is not None:
        return PatchCall(_operation_patch(operation))
    patch = next(
        (arguments[k] for k in ("patch", "patchText", "patch_text", "input") if k in arguments),
        None,
    )
    if not isinstance(patch, str) or not patch.strip():
        raise BadRequest("apply_patch: patch is required and must be the non-empty patch text.")
    format = arguments.get("format") or "auto"
    if not isinstance(format, str):
        raise BadRequest(f"apply_patch: format must be a string, got {format!r}.")
    return PatchCall(patch, format, _optional_text(arguments.get("instruction"), "instruction"))


def _operation_patch(operation: object) -> str:
    """A built-in apply_patch operation as an apply_patch patch."""
    if not isinstance(operation, Mapping):
        raise BadRequest("apply_patch: operation must be an object with type and path.")
    kind, path, diff = operation.get("type"), operation.get("path"), operation.get("diff", "")
    if not isinstance(path, str) or not path.strip():
        raise BadRequest("apply_patch: operation.path is required.")
    if not isinstance(diff, str):
        raise BadRequest("apply_patch: operation.diff must be a string.")
    body = diff if diff.endswith("\n") or not diff else diff + "\n"
    if kind == "create_file":
        lines = body.splitlines(keepends=True)
        if any(line and not line.startswith("+") for line in lines):
            body = "".join("+" + line for line in lines)
        return f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"
    if kind == "update_file":
        return f"*** Begin Patch\n*** Update File: {path}\n{body}*** End Patch\n"
    if kind == "delete_file":
        return f"*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n"
    raise BadRequest(
        f"apply_patch: unknown operation type {kind!r}; use create_file, update_file or "
        "delete_file."
    )


def run_patch_tool(apply: Any, arguments: object) -> str:
    """Run an ``apply_patch`` tool call with ``apply`` (``EditEngine.apply_patch``); the text
    the model reads back. Never raises."""
    try:
        call = parse_patch_call(arguments)
        result = apply(call.patch, format=call.format, instruction=call.instruction)
    except EditError as error:
        return format_patch_error(error)
    except Exception as error:  # a tool loop must get an answer, not a crash
        logger.error("apply_patch tool call failed", exc_info=error)
        return (
            f"Error [internal_error]: the patch failed unexpectedly ({type(error).__name__}: "
            f"{error}). Re-read the files before trying again."
        )
    return format_patch_result(result)


def format_patch_result(result: Any) -> str:
    """The summary, notes, then the combined diff, then each file's errors."""
    summary = result.summary
    parts = [summary if summary.endswith((".", "!", "?")) else summary + "."]
    parts.extend(result.notes)
    if result.diff:
        parts.append(result.diff.rstrip("\n"))
    for edited in getattr(result, "results", ()):
        errors = errors_block(edited.diagnostics, edited.diagnostics_note, path=edited.file_path)
        if errors:
            parts.append(errors)
    return "\n\n".join(parts)


def format_patch_error(error: EditError) -> str:
    """Code, what went wrong (the failing hunk and its patch line), and the closest text."""
    if not isinstance(error, PatchFailed):
        return format_error(error)
    text = f"Error [{error.code}/{error.cause.code}]: {error}"
    closest = getattr(error.cause, "closest", ()) or getattr(error.cause, "candidates", ())
    where = [region.describe() for region in closest]
    if where and not all(place in text for place in where):
        text += f"\nClosest text in {error.path}: " + ", ".join(where) + "."
    if error.old_lines:
        quoted = error.old_lines.splitlines()
        shown = quoted[:20] + ([f"... ({len(quoted) - 20} more lines)"] if len(quoted) > 20 else [])
        text += f"\nThe hunk's old lines (patch line {error.line}):\n" + "\n".join(
            "    " + line for line in shown
        )
    return text


class ToolCalls:
    """``handle_tool_call`` and ``ahandle_tool_call``: a tool call run by the edit methods of
    the class this is mixed into (:class:`~editengine.EditEngine`), answered as text."""

    if TYPE_CHECKING:
        # The engine's methods a tool call reaches; the engine class provides them.
        def edit(
            self,
            file_path: str | os.PathLike[str],
            old_string: str,
            new_string: str,
            *,
            instruction: str | None = None,
            replace_all: bool = False,
            expected_replacements: int | None = None,
            match_mode: str = "auto",
        ) -> EditResult: ...

        async def aedit(
            self,
            file_path: str | os.PathLike[str],
            old_string: str,
            new_string: str,
            *,
            instruction: str | None = None,
            replace_all: bool = False,
            expected_replacements: int | None = None,
            match_mode: str = "auto",
        ) -> EditResult: ...

        def multi_edit(
            self,
            file_path: str | os.PathLike[str],
            edits: Sequence[EditSpec | Mapping[str, Any]],
            *,
            instruction: str | None = None,
        ) -> EditResult: ...

        async def amulti_edit(
            self,
            file_path: str | os.PathLike[str],
            edits: Sequence[EditSpec | Mapping[str, Any]],
            *,
            instruction: str | None = None,
        ) -> EditResult: ...

        def apply_patch(
            self, patch: str, *, format: str = "auto", instruction: str | None = None
        ) -> Any: ...

    def handle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> str:
        """Run an ``edit`` / ``multiedit`` / ``apply_patch`` tool call; the text the model
        should read back.

        Never raises: a malformed call answers ``Error [bad_request]: ...``.
        """
        if is_patch_tool(name):
            return run_patch_tool(self.apply_patch, arguments)
        try:
            call = parse_tool_call(name, arguments)
            if call.tool == EDIT_TOOL:
                spec = call.edits[0]
                result = self.edit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode,
                )  # fmt: skip
            else:
                result = self.multi_edit(call.file_path, call.edits, instruction=call.instruction)
        except EditError as error:
            return format_error(error)
        except Exception as error:  # a tool loop must get an answer, not a crash
            return _internal_error(error)
        return format_result(result)

    async def ahandle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> str:
        """Async twin of :meth:`handle_tool_call`."""
        if is_patch_tool(name):
            return await asyncio.to_thread(run_patch_tool, self.apply_patch, arguments)
        try:
            call = parse_tool_call(name, arguments)
            if call.tool == EDIT_TOOL:
                spec = call.edits[0]
                result = await self.aedit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode,
                )  # fmt: skip
            else:
                result = await self.amulti_edit(
                    call.file_path, call.edits, instruction=call.instruction
                )
        except EditError as error:
            return format_error(error)
        except Exception as error:
            return _internal_error(error)
        return format_result(result)


def _internal_error(error: Exception) -> str:
    logger.error("unexpected error while handling a tool call", exc_info=error)
    return (
        f"Error [internal_error]: the edit failed unexpectedly ({type(error).__name__}: {error}). "
        "Re-read the file to see its current state before trying again."
    )
