"""The tools' definitions: their names, their argument schemas (generated from the one request
schema, :mod:`editengine.tools._request`) and their descriptions, in the shape each provider
takes — OpenAI Chat Completions and Responses (plain and strict), Anthropic, OpenAI's
free-form custom tool and its built-in ``apply_patch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from editengine._resources import prompt_text
from editengine.tools import _request as rq

EDIT_TOOL = "edit"
MULTIEDIT_TOOL = "multiedit"
READ_TOOL = "read"
# Every spelling a model calls a tool by (read lower-cased) -> the tool.
TOOL_NAMES = {
    "edit": EDIT_TOOL,
    "multiedit": MULTIEDIT_TOOL,
    "multi_edit": MULTIEDIT_TOOL,
    "multiedits": MULTIEDIT_TOOL,
    "read": READ_TOOL,
    "read_file": READ_TOOL,
}

# The published schemas, generated from the one request schema (editengine.tools._request).
EDIT_PARAMETERS: dict[str, Any] = rq.EDIT.json_schema()
MULTIEDIT_PARAMETERS: dict[str, Any] = rq.MULTIEDIT.json_schema()
READ_PARAMETERS: dict[str, Any] = rq.READ.json_schema()

APPLY_PATCH_TOOL = "apply_patch"
PATCH_TOOL_NAMES = {"apply_patch", "applypatch", "patch"}

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
