"""A model's ``edit`` / ``multiedit`` call read into a :class:`ToolCall` (every spelling of
the tool's name, the arguments held to the one request schema), and the write guards it
carries on to the engine's method."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from editengine._edits import EditSpec
from editengine._errors import BadRequest
from editengine.tools import _request as rq
from editengine.tools._definitions import (
    APPLY_PATCH_TOOL,
    EDIT_TOOL,
    MULTIEDIT_TOOL,
    READ_TOOL,
    TOOL_NAMES,
)


def tool_of(name: object) -> str | None:
    """The tool ``name`` calls (any of its spellings, in any case), or ``None``."""
    return TOOL_NAMES.get(name.strip().lower()) if isinstance(name, str) else None


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
    tool = tool_of(name)
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


def write_options(call: ToolCall, method: Callable[..., Any]) -> dict[str, Any]:
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
