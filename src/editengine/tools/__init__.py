"""Tool-call integration: the ``read``, ``edit``, ``multiedit`` and ``apply_patch`` tool
schemas for OpenAI (Chat Completions and Responses, plain and strict) and Anthropic, the
providers' built-in edit tools (:func:`anthropic_text_editor`, :func:`openai_apply_patch`),
the text a model reads back (:class:`ToolResult`), and :class:`ToolCalls`, the
``handle_tool_call`` methods :class:`~editengine.EditEngine` takes on.

Every schema here is generated from the one request schema (``editengine.tools._request``) that
also checks the arguments, so a field means the same, and is refused with the same words,
whichever way it arrives.

The adapter sits on top of the engine: it knows the engine only as the edit methods a tool
call reaches (:class:`ToolCalls` declares them), and the engine's own modules never import it.

>>> [tool["function"]["name"] for tool in openai_tools()]
['edit', 'multiedit']
>>> [tool["name"] for tool in anthropic_tools()]
['edit', 'multiedit']
>>> [tool["name"] for tool in openai_responses_tools(ALL_TOOLS, strict=True)]
['read', 'edit', 'multiedit', 'apply_patch']

Why one long module: the public door for tool calls: every tool's schema in every provider's
shape and the handlers that answer them, so a user reads one module to wire a model.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from editengine._edits import EditSpec
from editengine._errors import BadRequest, EditError
from editengine._public import publish
from editengine._resources import prompt_text
from editengine._results import EditResult
from editengine.tools import _request as rq
from editengine.tools._apply_patch_call import ApplyPatchCalls, openai_apply_patch, operation_patch
from editengine.tools._numbered import NumberedText, number_lines
from editengine.tools._text_editor import (
    TEXT_EDITOR_NAMES,
    TEXT_EDITOR_TYPES,
    TextEditor,
    anthropic_text_editor,
)
from editengine.tools._tool_answers import (
    ToolResult,
    format_error,
    format_patch_error,
    format_result,
    internal_error,
)

__all__ = [
    "ALL_TOOLS",
    "APPLY_PATCH_LARK_GRAMMAR",
    "APPLY_PATCH_TOOL",
    "EDIT_TOOL",
    "MULTIEDIT_TOOL",
    "READ_TOOL",
    "TEXT_EDITOR_NAMES",
    "TEXT_EDITOR_TYPES",
    "ApplyPatchCalls",
    "PatchCall",
    "ReadAnswer",
    "TextEditor",
    "ToolCall",
    "ToolCalls",
    "ToolResult",
    "anthropic_text_editor",
    "anthropic_tools",
    "format_error",
    "format_patch_error",
    "format_patch_result",
    "format_result",
    "is_patch_tool",
    "is_text_editor_tool",
    "load_arguments",
    "openai_apply_patch",
    "openai_builtin_apply_patch_tool",
    "openai_custom_apply_patch_tool",
    "openai_responses_tools",
    "openai_tools",
    "parse_patch_call",
    "parse_tool_call",
    "read_answer",
    "run_patch_tool",
    "tool_definitions",
    "tool_description",
    "tool_parameters",
    "write_options",
]

EDIT_TOOL = "edit"
MULTIEDIT_TOOL = "multiedit"
READ_TOOL = "read"
_TOOL_NAMES = {
    "edit": EDIT_TOOL,
    "multiedit": MULTIEDIT_TOOL,
    "multi_edit": MULTIEDIT_TOOL,
    "multiedits": MULTIEDIT_TOOL,
    "read": READ_TOOL,
    "read_file": READ_TOOL,
}
DEFAULT_READ_LIMIT = 2000

# The published schemas, generated from the one request schema (editengine.tools._request).
EDIT_PARAMETERS: dict[str, Any] = rq.EDIT.json_schema()
MULTIEDIT_PARAMETERS: dict[str, Any] = rq.MULTIEDIT.json_schema()
READ_PARAMETERS: dict[str, Any] = rq.READ.json_schema()

APPLY_PATCH_TOOL = "apply_patch"
_PATCH_TOOL_NAMES = {"apply_patch", "applypatch", "patch"}

APPLY_PATCH_PARAMETERS: dict[str, Any] = rq.APPLY_PATCH.json_schema()

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
    READ_TOOL: "tool_read.md",
}
_SCHEMAS = {
    EDIT_TOOL: rq.EDIT,
    MULTIEDIT_TOOL: rq.MULTIEDIT,
    APPLY_PATCH_TOOL: rq.APPLY_PATCH,
    READ_TOOL: rq.READ,
}
# Every tool this module defines, in the order a model is best shown them.
ALL_TOOLS = (READ_TOOL, EDIT_TOOL, MULTIEDIT_TOOL, APPLY_PATCH_TOOL)

ToolFormat = Literal["openai", "openai_responses", "anthropic"]


def tool_description(tool: str) -> str:
    return prompt_text(_PROMPTS[tool]).strip()


def tool_parameters(tool: str, *, strict: bool = False) -> dict[str, Any]:
    """The JSON Schema of ``tool``'s arguments; ``strict=True`` in the form OpenAI's strict
    mode takes (every property required, the optional ones nullable, nothing else allowed).
    """
    return _SCHEMAS[tool].json_schema(strict=strict)


def openai_tools(
    tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL), *, strict: bool = False
) -> list[dict[str, Any]]:
    """Tool definitions in the Chat Completions function-calling format
    (``{"type": "function", "function": {...}}``)."""
    definitions = []
    for tool in tools:
        function: dict[str, Any] = {
            "name": tool,
            "description": tool_description(tool),
            "parameters": tool_parameters(tool, strict=strict),
        }
        if strict:
            function["strict"] = True
        definitions.append({"type": "function", "function": function})
    return definitions


def openai_responses_tools(
    tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL), *, strict: bool = False
) -> list[dict[str, Any]]:
    """Tool definitions in the Responses API function-tool format (flat:
    ``{"type": "function", "name", "description", "parameters", "strict"}``)."""
    return [
        {
            "type": "function",
            "name": tool,
            "description": tool_description(tool),
            "parameters": tool_parameters(tool, strict=strict),
            "strict": strict,
        }
        for tool in tools
    ]


def anthropic_tools(
    tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL), *, strict: bool = False
) -> list[dict[str, Any]]:
    """Tool definitions in the Anthropic Messages API format. ``strict=True`` marks them for
    strict tool use (the input then matches the schema exactly)."""
    definitions = []
    for tool in tools:
        definition: dict[str, Any] = {
            "name": tool,
            "description": tool_description(tool),
            "input_schema": tool_parameters(tool),
        }
        if strict:
            definition["strict"] = True
        definitions.append(definition)
    return definitions


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
    """OpenAI's built-in Responses API ``apply_patch`` tool; answer each ``apply_patch_call``
    item with :func:`openai_apply_patch` (or pass its ``operation`` to
    :meth:`EditEngine.handle_tool_call` as ``{"operation": ...}``)."""
    return {"type": "apply_patch"}


def tool_definitions(
    format: ToolFormat,
    tools: Sequence[str] = (EDIT_TOOL, MULTIEDIT_TOOL),
    *,
    strict: bool = False,
) -> list[dict[str, Any]]:
    if format == "openai":
        return openai_tools(tools, strict=strict)
    if format == "openai_responses":
        return openai_responses_tools(tools, strict=strict)
    if format == "anthropic":
        return anthropic_tools(tools, strict=strict)
    raise ValueError(
        f"unknown tool format {format!r}; use 'openai', 'openai_responses' or 'anthropic'"
    )


# ---------------------------------------------------------------------- calls


@dataclass(frozen=True)
class ToolCall:
    """A normalised tool call: ``edits`` has one item for ``edit``."""

    tool: str
    file_path: str
    edits: tuple[EditSpec, ...]
    instruction: str | None = None
    expected_hash: str | None = None
    overwrite: bool = False


def parse_tool_call(name: object, arguments: Mapping[str, Any] | str | bytes) -> ToolCall:
    """Validate a model's ``edit`` / ``multiedit`` call; :class:`BadRequest` says what is
    wrong with it."""
    tool = _TOOL_NAMES.get(name.strip().lower()) if isinstance(name, str) else None
    if tool == READ_TOOL:
        raise BadRequest("read is not an edit: run it with handle_tool_call or read_answer.")
    if tool not in (EDIT_TOOL, MULTIEDIT_TOOL):
        raise BadRequest(
            f"Unknown tool {name!r}. This handler runs the tools {READ_TOOL!r}, "
            f"{EDIT_TOOL!r}, {MULTIEDIT_TOOL!r}, {APPLY_PATCH_TOOL!r} and Anthropic's text "
            "editor tool ('str_replace_based_edit_tool', 'str_replace_editor')."
        )
    if tool == EDIT_TOOL:
        values = rq.parse(rq.EDIT, arguments)
        return ToolCall(
            tool,
            values["file_path"],
            (rq.edit_spec(values),),
            values["instruction"] or None,
            values["expected_hash"],
            values["overwrite"],
        )
    values = rq.parse(rq.MULTIEDIT, arguments)
    edits = tuple(rq.edit_spec(item) for item in values["edits"])
    return ToolCall(
        tool, values["file_path"], edits, values["instruction"] or None, values["expected_hash"]
    )


def load_arguments(arguments: object) -> dict[str, Any]:
    """The arguments as a dict, from a dict or a JSON object string."""
    return rq.load_arguments(arguments)


def format_patch_result(result: Any) -> str:
    """The summary, notes, then the combined diff (the same text as :func:`format_result`)."""
    return format_result(result)


# ---------------------------------------------------------------------- read


@dataclass(frozen=True)
class ReadAnswer:
    """What ``read`` shows: the numbered lines, a note (empty file, more to read), and what
    a structured answer carries."""

    file_path: str
    numbered: NumberedText
    note: str
    sha256: str

    @property
    def truncated(self) -> bool:
        return self.numbered.end_line < self.numbered.total_lines

    @property
    def blocks(self) -> list[str]:
        return [part for part in (self.numbered.text, self.note) if part]

    @property
    def text(self) -> str:
        return "\n\n".join(self.blocks)


def read_answer(engine: Any, arguments: Mapping[str, Any] | str | bytes) -> ReadAnswer:
    """Run a ``read`` call with ``engine`` (recorded in its read tracker as seen)."""
    values = rq.parse(rq.READ, arguments)
    path, start = values["file_path"], values["offset"] or 1
    text = engine.read_file(path)
    numbered = number_lines(text, start=start, limit=values["limit"] or DEFAULT_READ_LIMIT)
    display = engine.workspace.resolve(path).display
    note = ""
    if numbered.total_lines == 0:
        note = f"{display} is empty."
    elif not numbered.text:
        note = f"{display} has {numbered.total_lines} lines; offset {start} is past the end."
    elif numbered.end_line < numbered.total_lines:
        note = (
            f"(Showing lines {numbered.start_line}-{numbered.end_line} of "
            f"{numbered.total_lines}. Call read with offset={numbered.end_line + 1} "
            "to continue.)"
        )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return ReadAnswer(display, numbered, note, digest)


# ---------------------------------------------------------------------- apply_patch tool


def is_patch_tool(name: object) -> bool:
    return isinstance(name, str) and name.strip().lower() in _PATCH_TOOL_NAMES


def is_text_editor_tool(name: object) -> bool:
    """Anthropic's text editor tool, by any of its names."""
    return isinstance(name, str) and name.strip() in TEXT_EDITOR_NAMES


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
    if isinstance(arguments, str) and not arguments.strip().startswith("{"):
        if not arguments.strip():
            raise BadRequest("apply_patch: the patch is empty; send the patch text.")
        # a free-form (custom tool) call: the patch itself
        return PatchCall(rq.text(arguments, "patch"))
    given = rq.load_arguments(arguments)
    if given.get("operation") is not None:
        return PatchCall(operation_patch(given["operation"]))
    values = rq.parse(rq.APPLY_PATCH, given)
    return PatchCall(values["patch"], values["format"] or "auto", values["instruction"] or None)


def run_patch_tool(apply: Any, arguments: object) -> ToolResult:
    """Run an ``apply_patch`` tool call with ``apply`` (``EditEngine.apply_patch``); the text
    the model reads back. Never raises."""
    try:
        call = parse_patch_call(arguments)
        result = apply(call.patch, format=call.format, instruction=call.instruction)
    except EditError as error:
        return ToolResult(format_patch_error(error), is_error=True, code=error.code)
    except Exception as error:  # a tool loop must get an answer, not a crash
        return internal_error(error, what="the patch")
    return ToolResult(format_result(result))


class ToolCalls:
    """``handle_tool_call`` and ``ahandle_tool_call``: a tool call run by the edit methods of
    the class this is mixed into (:class:`~editengine.EditEngine`), answered as a
    :class:`ToolResult` (the text a model reads, with ``is_error``)."""

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
            expected_hash: str | None = None,
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
            expected_hash: str | None = None,
        ) -> EditResult: ...

        def multi_edit(
            self,
            file_path: str | os.PathLike[str],
            edits: Sequence[EditSpec | Mapping[str, Any]],
            *,
            instruction: str | None = None,
            expected_hash: str | None = None,
        ) -> EditResult: ...

        async def amulti_edit(
            self,
            file_path: str | os.PathLike[str],
            edits: Sequence[EditSpec | Mapping[str, Any]],
            *,
            instruction: str | None = None,
            expected_hash: str | None = None,
        ) -> EditResult: ...

        def apply_patch(
            self, patch: str, *, format: str = "auto", instruction: str | None = None
        ) -> Any: ...

    def handle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> ToolResult:
        """Run a ``read`` / ``edit`` / ``multiedit`` / ``apply_patch`` call, or a call of
        Anthropic's text editor tool (``str_replace_based_edit_tool``,
        ``str_replace_editor``); the answer the model should read back.

        Never raises: a malformed call answers ``Error [bad_request]: ...`` with
        ``is_error`` set. The answer is a ``str``, as it always was.
        """
        if is_patch_tool(name):
            return run_patch_tool(self.apply_patch, arguments)
        if is_text_editor_tool(name):
            return TextEditor(self)(arguments)  # type: ignore[arg-type]  # mixin: self is an EditEngine
        try:
            if isinstance(name, str) and _TOOL_NAMES.get(name.strip().lower()) == READ_TOOL:
                return ToolResult(read_answer(self, arguments).text)
            call = parse_tool_call(name, arguments)
            if call.tool == EDIT_TOOL:
                spec = call.edits[0]
                result = self.edit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode, **write_options(call, self.edit),
                )  # fmt: skip
            else:
                result = self.multi_edit(
                    call.file_path, call.edits, instruction=call.instruction,
                    **write_options(call, self.multi_edit),
                )  # fmt: skip
        except EditError as error:
            return ToolResult.error(error)
        except Exception as error:  # a tool loop must get an answer, not a crash
            return internal_error(error)
        return ToolResult(format_result(result))

    async def ahandle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> ToolResult:
        """Async twin of :meth:`handle_tool_call`."""
        if is_patch_tool(name):
            return await asyncio.to_thread(run_patch_tool, self.apply_patch, arguments)
        if is_text_editor_tool(name):
            return await TextEditor(self).acall(arguments)  # type: ignore[arg-type]  # mixin: self is an EditEngine
        try:
            if isinstance(name, str) and _TOOL_NAMES.get(name.strip().lower()) == READ_TOOL:
                answer = await asyncio.to_thread(read_answer, self, arguments)
                return ToolResult(answer.text)
            call = parse_tool_call(name, arguments)
            if call.tool == EDIT_TOOL:
                spec = call.edits[0]
                result = await self.aedit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode, **write_options(call, self.aedit),
                )  # fmt: skip
            else:
                result = await self.amulti_edit(
                    call.file_path, call.edits, instruction=call.instruction,
                    **write_options(call, self.amulti_edit),
                )  # fmt: skip
        except EditError as error:
            return ToolResult.error(error)
        except Exception as error:
            return internal_error(error)
        return ToolResult(format_result(result))


def write_options(call: ToolCall, method: Any) -> dict[str, Any]:
    """The write guards a call carries, for ``method`` (the engine's edit or multi-edit),
    passed on only when given. ``overwrite`` (the permission to replace a non-empty file
    whole) goes only to a method that takes it: where none does, nothing guards that case
    and the call means what it says without it."""
    options: dict[str, Any] = {}
    if call.expected_hash is not None:
        options["expected_hash"] = call.expected_hash
    if call.overwrite and "overwrite" in inspect.signature(method).parameters:
        options["overwrite"] = True
    return options


publish(globals())  # public names show this package, not their private module
