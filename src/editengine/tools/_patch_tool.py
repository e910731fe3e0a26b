"""The ``apply_patch`` tool: a function call (``{"patch": ...}``), a free-form custom-tool
call (the raw patch text) or a built-in ``apply_patch`` call (``{"operation": ...}``) read
into a :class:`PatchCall`, run by the engine's ``apply_patch`` and answered as a
:class:`~editengine.tools.ToolResult`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from editengine._errors import BadRequest, EditError
from editengine.tools import _request as rq
from editengine.tools._apply_patch_call import operation_patch
from editengine.tools._definitions import PATCH_TOOL_NAMES
from editengine.tools._tool_answers import (
    ToolResult,
    format_patch_error,
    format_result,
    internal_error,
)


def is_patch_tool(name: object) -> bool:
    return isinstance(name, str) and name.strip().lower() in PATCH_TOOL_NAMES


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


def run_patch_tool(apply: Callable[..., Any], arguments: object) -> ToolResult:
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


def format_patch_result(result: Any) -> str:
    """The summary, notes, then the combined diff (the same text as :func:`format_result`)."""
    return format_result(result)
