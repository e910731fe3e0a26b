"""OpenAI's built-in ``apply_patch`` tool served by the engine: an ``apply_patch_call`` item of
a Responses API answer (``operation``: ``create_file`` / ``update_file`` / ``delete_file``
with a ``path`` and a V4A ``diff``) in, its ``apply_patch_call_output`` item out.

The operation becomes an apply_patch patch and goes through :meth:`EditEngine.apply_patch`:
the workspace guard, the cascade for each hunk, the fixer, one journal entry.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from editengine._errors import BadRequest, EditError
from editengine.tools._request import text
from editengine.tools._tool_answers import (
    ToolResult,
    format_patch_error,
    format_result,
    internal_error,
)

if TYPE_CHECKING:
    from editengine.tools._operations import EngineOperations

__all__ = ["ApplyPatchCalls", "openai_apply_patch", "operation_patch"]


class ApplyPatchCalls:
    """``patcher(item)`` -> the ``apply_patch_call_output`` item answering it (a dict the
    Responses API takes as an input item). ``item`` is the SDK's
    ``ResponseApplyPatchToolCall`` or the same as a mapping. Never raises: a refused patch
    is ``"status": "failed"`` with the reason in ``output``."""

    def __init__(self, engine: EngineOperations) -> None:
        self.engine = engine

    @staticmethod
    def tool_param() -> dict[str, Any]:
        """The tool definition to send in ``tools=[...]``."""
        return {"type": "apply_patch"}

    def __call__(self, item: Any) -> dict[str, Any]:
        try:
            call = _as_mapping(item)
        except BadRequest:
            call = {}
        call_id = call.get("call_id")
        answer = self.result(item)
        output: dict[str, Any] = {
            "type": "apply_patch_call_output",
            "call_id": call_id if isinstance(call_id, str) else "",
            "status": "failed" if answer.is_error else "completed",
            "output": answer.text,
        }
        caller = call.get("caller")
        if isinstance(caller, Mapping):
            output["caller"] = dict(caller)
        return output

    async def acall(self, item: Any) -> dict[str, Any]:
        """Async twin of calling the handler (the file work runs in a thread)."""
        return await asyncio.to_thread(self, item)

    def result(self, item: Any) -> ToolResult:
        """The answer to the call as a :class:`ToolResult`."""
        try:
            call = _as_mapping(item)
            if call.get("type", "apply_patch_call") != "apply_patch_call":
                raise BadRequest(
                    f"Expected an apply_patch_call item, got type {call.get('type')!r}."
                )
            call_id = call.get("call_id")
            if not isinstance(call_id, str) or not call_id:
                raise BadRequest("The apply_patch_call has no call_id to answer.")
            patch = operation_patch(call.get("operation"))
            result = self.engine.apply_patch(patch)
        except EditError as error:
            return ToolResult(format_patch_error(error), is_error=True, code=error.code)
        except Exception as error:  # a tool loop must get an answer, not a crash
            return internal_error(error, what="the patch")
        return ToolResult(format_result(result))


def openai_apply_patch(engine: EngineOperations) -> ApplyPatchCalls:
    """A handler for the Responses API's built-in ``apply_patch`` tool over ``engine``.

    >>> patcher = openai_apply_patch(engine)                          # doctest: +SKIP
    >>> response = client.responses.create(tools=[patcher.tool_param()], ...)  # doctest: +SKIP
    >>> outputs = [patcher(item) for item in response.output
    ...            if item.type == "apply_patch_call"]                 # doctest: +SKIP
    """
    return ApplyPatchCalls(engine)


def _as_mapping(item: Any) -> Mapping[str, Any]:
    if isinstance(item, Mapping):
        return item
    dump = getattr(item, "model_dump", None)
    if callable(dump):  # the SDK's pydantic model
        dumped = dump()
        if isinstance(dumped, Mapping):
            return dumped
    raise BadRequest(f"Expected an apply_patch_call item, got {type(item).__name__}.")


def operation_patch(operation: object) -> str:
    """A built-in apply_patch ``operation`` as an apply_patch patch."""
    if not isinstance(operation, Mapping):
        raise BadRequest("apply_patch: operation must be an object with type and path.")
    kind, path, diff = operation.get("type"), operation.get("path"), operation.get("diff")
    if path is None:
        raise BadRequest("apply_patch: operation.path is required.")
    path = text(path, "operation.path", empty=False)
    if "\n" in path or "\r" in path:
        raise BadRequest("apply_patch: operation.path must be one line.")
    if diff is None:
        diff = ""
    diff = text(diff, "operation.diff")
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
