"""Tool-call integration: the ``read``, ``edit``, ``multiedit`` and ``apply_patch`` tool
schemas for OpenAI (Chat Completions and Responses, plain and strict) and Anthropic, the
providers' built-in edit tools (:func:`anthropic_text_editor`, :func:`openai_apply_patch`),
the text a model reads back (:class:`ToolResult`), and :class:`ToolCalls`, the handler behind
:meth:`EditEngine.handle_tool_call <editengine.EditEngine.handle_tool_call>`.

Every schema here is generated from the one request schema (``editengine.tools._request``)
that also checks the arguments, so a field means the same, and is refused with the same
words, whichever way it arrives.

The front end sits on top of the engine: it knows an engine only as the public operations a
tool call reaches (``_operations.EngineOperations``), and the engine's own modules never
import it.

>>> [tool["function"]["name"] for tool in openai_tools()]
['edit', 'multiedit']
>>> [tool["name"] for tool in anthropic_tools()]
['edit', 'multiedit']
>>> [tool["name"] for tool in openai_responses_tools(ALL_TOOLS, strict=True)]
['read', 'edit', 'multiedit', 'apply_patch']

The parts, one concern each:

- ``_definitions`` — the tools' names, schemas and descriptions in each provider's shape;
- ``_calls`` — an ``edit`` / ``multiedit`` call read into a :class:`ToolCall`;
- ``_handler`` — :class:`ToolCalls`: a call run by an engine's public operations;
- ``_operations`` — those operations, as a protocol;
- ``_read`` — the ``read`` tool; ``_numbered`` — the numbered lines every read tool shows;
- ``_patch_tool`` — the ``apply_patch`` tool; ``_apply_patch_call`` — OpenAI's built-in one;
- ``_text_editor`` — Anthropic's text editor tool;
- ``_tool_answers`` — :class:`ToolResult` and the text of a success or a refusal;
- ``_request`` — the one request schema of every front end (tool calls, MCP, batch,
  ``editengine apply``), read by the rules of ``_fields``.
"""

from __future__ import annotations

from editengine._public import publish

# The ``X as X`` imports keep, beside __all__ and where they always were, the published
# schemas and the helpers the MCP server shares with the tool calls.
from editengine.tools._apply_patch_call import ApplyPatchCalls, openai_apply_patch
from editengine.tools._apply_patch_call import operation_patch as operation_patch
from editengine.tools._calls import ToolCall, load_arguments, parse_tool_call, write_options
from editengine.tools._definitions import (
    ALL_TOOLS,
    APPLY_PATCH_LARK_GRAMMAR,
    APPLY_PATCH_TOOL,
    EDIT_TOOL,
    MULTIEDIT_TOOL,
    READ_TOOL,
    anthropic_tools,
    openai_builtin_apply_patch_tool,
    openai_custom_apply_patch_tool,
    openai_responses_tools,
    openai_tools,
    tool_definitions,
    tool_description,
    tool_parameters,
)
from editengine.tools._definitions import APPLY_PATCH_PARAMETERS as APPLY_PATCH_PARAMETERS
from editengine.tools._definitions import EDIT_PARAMETERS as EDIT_PARAMETERS
from editengine.tools._definitions import MULTIEDIT_PARAMETERS as MULTIEDIT_PARAMETERS
from editengine.tools._definitions import READ_PARAMETERS as READ_PARAMETERS
from editengine.tools._definitions import ToolFormat as ToolFormat
from editengine.tools._handler import ToolCalls
from editengine.tools._patch_tool import (
    PatchCall,
    format_patch_result,
    is_patch_tool,
    parse_patch_call,
    run_patch_tool,
)
from editengine.tools._read import DEFAULT_READ_LIMIT as DEFAULT_READ_LIMIT
from editengine.tools._read import ReadAnswer, read_answer
from editengine.tools._text_editor import (
    TEXT_EDITOR_NAMES,
    TEXT_EDITOR_TYPES,
    TextEditor,
    anthropic_text_editor,
    is_text_editor_tool,
)
from editengine.tools._tool_answers import (
    ToolResult,
    format_error,
    format_patch_error,
    format_result,
)
from editengine.tools._tool_answers import internal_error as internal_error

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

publish(globals())  # public names show this package, not their private module
