"""Tool calls run by an engine: :class:`ToolCalls` reads a call by the tool's name, runs it
with the engine's public operations (:class:`~editengine.tools._operations.EngineOperations`)
and answers it as a :class:`~editengine.tools.ToolResult`.

:class:`~editengine.EditEngine` holds no tool-call code of its own: its ``handle_tool_call``
and ``ahandle_tool_call`` compose a ``ToolCalls`` over the engine and hand the call on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from editengine._errors import EditError
from editengine._results import EditResult
from editengine.tools._calls import parse_tool_call, tool_of, write_options
from editengine.tools._definitions import EDIT_TOOL, READ_TOOL
from editengine.tools._operations import EngineOperations
from editengine.tools._patch_tool import is_patch_tool, run_patch_tool
from editengine.tools._read import read_answer
from editengine.tools._text_editor import TextEditor, is_text_editor_tool
from editengine.tools._tool_answers import ToolResult, format_result, internal_error


class ToolCalls:
    """``ToolCalls(engine).handle_tool_call(name, arguments)``: a ``read`` / ``edit`` /
    ``multiedit`` / ``apply_patch`` call, or a call of Anthropic's text editor tool, run by
    ``engine``'s public methods and answered as a :class:`ToolResult` (the text a model
    reads, with ``is_error``). :meth:`EditEngine.handle_tool_call
    <editengine.EditEngine.handle_tool_call>` is this over the engine itself.

    The handler holds nothing but the engine: make one for each call, or keep one.
    """

    def __init__(self, engine: EngineOperations) -> None:
        self.engine = engine

    def handle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> ToolResult:
        """Run a ``read`` / ``edit`` / ``multiedit`` / ``apply_patch`` call, or a call of
        Anthropic's text editor tool (``str_replace_based_edit_tool``,
        ``str_replace_editor``); the answer the model should read back.

        Never raises: a malformed call answers ``Error [bad_request]: ...`` with
        ``is_error`` set. The answer is a ``str``, as it always was.
        """
        engine = self.engine
        if is_patch_tool(name):
            return run_patch_tool(engine.apply_patch, arguments)
        if is_text_editor_tool(name):
            return TextEditor(engine)(arguments)
        try:
            if tool_of(name) == READ_TOOL:
                return ToolResult(read_answer(engine, arguments).text)
            call = parse_tool_call(name, arguments)
            result: EditResult
            if call.tool == EDIT_TOOL:
                spec = call.edits[0]
                result = engine.edit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode, **write_options(call, engine.edit),
                )  # fmt: skip
            else:
                result = engine.multi_edit(
                    call.file_path, call.edits, instruction=call.instruction,
                    **write_options(call, engine.multi_edit),
                )  # fmt: skip
        except EditError as error:
            return ToolResult.error(error)
        except Exception as error:  # a tool loop must get an answer, not a crash
            return internal_error(error)
        return ToolResult(format_result(result))

    async def ahandle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> ToolResult:
        """Async twin of :meth:`handle_tool_call`."""
        engine = self.engine
        if is_patch_tool(name):
            return await asyncio.to_thread(run_patch_tool, engine.apply_patch, arguments)
        if is_text_editor_tool(name):
            return await TextEditor(engine).acall(arguments)
        try:
            if tool_of(name) == READ_TOOL:
                answer = await asyncio.to_thread(read_answer, engine, arguments)
                return ToolResult(answer.text)
            call = parse_tool_call(name, arguments)
            result: EditResult
            if call.tool == EDIT_TOOL:
                spec = call.edits[0]
                result = await engine.aedit(
                    call.file_path, spec.old_string, spec.new_string,
                    instruction=spec.instruction, replace_all=spec.replace_all,
                    expected_replacements=spec.expected_replacements,
                    match_mode=spec.match_mode, **write_options(call, engine.aedit),
                )  # fmt: skip
            else:
                result = await engine.amulti_edit(
                    call.file_path, call.edits, instruction=call.instruction,
                    **write_options(call, engine.amulti_edit),
                )  # fmt: skip
        except EditError as error:
            return ToolResult.error(error)
        except Exception as error:
            return internal_error(error)
        return ToolResult(format_result(result))
