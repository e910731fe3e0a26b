"""The MCP tools over one :class:`EditEngine`: ``read``, ``edit``, ``multi_edit``, ``undo``
(and ``apply_patch`` when the engine can apply patches).

Every tool answers with a ``CallToolResult``: on success the text a model should read
(summary, notes, diff) plus structured content matching the tool's output schema; on a
refusal ``is_error=True`` and the engine's own message (closest lines, candidates, what to
do next). A tool never lets an exception reach the SDK, so a client never sees a protocol
error or a generic "error executing tool" for an edit that was merely refused.

The published input schemas are generated from the one request schema
(``editengine.tools._request``), the same ones :mod:`editengine.tools` gives to OpenAI and
Anthropic, and the arguments are checked by it: the same rules and messages as tool calls and
batch lines. They reach the tool as the client sent them, not through the SDK's pydantic
validation: a malformed call is answered by the engine's own ``bad_request`` message, and a
string that looks like JSON (an old_string quoting a JSON file) is never parsed into an object
on the way.

The tools' answers are :mod:`._answers` (their structured shapes :mod:`._outputs`); asking
the user before a write (elicitation, or an approval round) is :mod:`._approval`.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Mapping
from typing import Annotated, Any

import anyio
from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp_types import (
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    TextContent,
    ToolAnnotations,
)

from editengine import tools as _tools
from editengine._errors import EditError, EditRejected
from editengine._resources import prompt_text
from editengine._results import EditResult
from editengine._version import __version__
from editengine.diagnostics import errors_block
from editengine.engine import EditEngine
from editengine.mcp_server._answers import edited_answer, error_answer, internal_answer
from editengine.mcp_server._approval import (
    APPROVAL_KEY,
    NEW_FILE,
    Approval,
    approved_earlier,
    asks_in_rounds,
    current_context,
    elicit_approval,
)
from editengine.mcp_server._outputs import (
    EditOutput,
    PatchOutput,
    ReadOutput,
    RestoredOutput,
    UndoOutput,
)
from editengine.mcp_server._sessions import SessionReadTrackers, enter_session, leave_session
from editengine.tools import _request as rq

logger = logging.getLogger("editengine")


DEFAULT_READ_LIMIT = _tools.DEFAULT_READ_LIMIT


# Generated from the one request schema (editengine.tools._request), as the tool-call schemas are.
# Generated from the one request schema (tools/_request.py), as the tool-call schemas are.
READ_PARAMETERS: dict[str, Any] = rq.READ.json_schema()


UNDO_PARAMETERS: dict[str, Any] = rq.UNDO.json_schema()


APPLY_PATCH_PARAMETERS: dict[str, Any] = rq.APPLY_PATCH.json_schema()


def build_server(engine: EditEngine, *, confirm: bool = False) -> MCPServer:
    """An MCP server whose tools edit ``engine``'s workspace.

    ``confirm=True`` asks the user to approve each write through MCP elicitation when the
    client supports it (and approves when it does not).
    """
    if confirm:
        engine.confirm = elicit_approval
    tracker = engine.read_tracker
    if tracker is not None and not isinstance(tracker, SessionReadTrackers):
        # One tracker per MCP session: what one client read says nothing about another.
        engine.read_tracker = SessionReadTrackers(require_read=tracker.require_read)
    tools = [
        _tool(_read_tool(engine), "read", "tool_read.md", READ_PARAMETERS, read_only=True),
        _tool(_edit_tool(engine), "edit", "tool_edit.md", _tools.EDIT_PARAMETERS),
        _tool(
            _multi_edit_tool(engine),
            "multi_edit",
            "tool_multiedit.md",
            _tools.MULTIEDIT_PARAMETERS,
        ),
        _tool(_undo_tool(engine), "undo", "tool_undo.md", UNDO_PARAMETERS),
    ]
    if callable(getattr(engine, "apply_patch", None)):
        tools.append(
            _tool(
                _apply_patch_tool(engine),
                "apply_patch",
                "tool_apply_patch.md",
                APPLY_PATCH_PARAMETERS,
            )
        )
    return MCPServer(
        "editengine",
        instructions=(
            f"Edits the files under {engine.root}. Read a file before editing it; paths are "
            "relative to that root. Every edit can be undone with the undo tool."
        ),
        tools=tools,
        version=__version__,
        log_level="WARNING",
    )


class _RawArgumentsTool(Tool):
    """A tool whose function gets the client's arguments as sent (a dict) and the context."""

    async def run(
        self, arguments: dict[str, Any], context: Any, convert_result: bool = False
    ) -> Any:
        session = enter_session(context)  # reads are remembered per session
        try:
            result = await self.fn(dict(arguments or {}), context)
        finally:
            leave_session(session)
        return self.fn_metadata.convert_result(result) if convert_result else result


def _tool(
    fn: Callable[..., Any],
    name: str,
    prompt: str,
    parameters: Mapping[str, Any],
    *,
    read_only: bool = False,
) -> Tool:
    tool = _RawArgumentsTool.from_function(
        fn,
        name=name,
        description=prompt_text(prompt).strip(),
        annotations=ToolAnnotations(
            read_only_hint=read_only,
            destructive_hint=not read_only,  # an edit replaces text (undoably, but still)
            idempotent_hint=read_only,
            open_world_hint=False,
        ),
    )
    # The hand-written schema (exact types, required fields, descriptions) is the one
    # published; the function's own signature only says it takes the raw arguments.
    return tool.model_copy(update={"parameters": copy.deepcopy(dict(parameters))})


def _read_tool(engine: EditEngine) -> Callable[..., Any]:
    async def read(
        arguments: dict[str, Any], ctx: Context
    ) -> Annotated[CallToolResult, ReadOutput]:
        try:
            answer = await anyio.to_thread.run_sync(_tools.read_answer, engine, arguments)
        except EditError as error:
            return error_answer(error)
        except Exception as error:
            return internal_answer(error)
        numbered = answer.numbered
        output = ReadOutput(
            file_path=answer.file_path,
            start_line=numbered.start_line,
            end_line=numbered.end_line,
            total_lines=numbered.total_lines,
            sha256=answer.sha256,
            truncated=answer.truncated,
            text=numbered.text,
        )
        return CallToolResult(
            content=[TextContent(type="text", text=block) for block in answer.blocks],
            structured_content=output.model_dump(mode="json"),
        )

    return read


def _edit_tool(engine: EditEngine) -> Callable[..., Any]:
    async def edit(
        arguments: dict[str, Any], ctx: Context
    ) -> Annotated[CallToolResult, EditOutput]:
        # The SDK forbids a union with CallToolResult in the annotation; an input_required
        # answer (approval asked in rounds) passes through its conversion untouched.
        return await _run_edit(engine, ctx, "edit", arguments)  # type: ignore[return-value]  # see above: an InputRequiredResult passes through

    return edit


def _multi_edit_tool(engine: EditEngine) -> Callable[..., Any]:
    async def multi_edit(
        arguments: dict[str, Any], ctx: Context
    ) -> Annotated[CallToolResult, EditOutput]:
        return await _run_edit(engine, ctx, "multiedit", arguments)  # type: ignore[return-value]  # as in edit: an InputRequiredResult passes through

    return multi_edit


def _undo_tool(engine: EditEngine) -> Callable[..., Any]:
    async def undo(
        arguments: dict[str, Any], ctx: Context
    ) -> Annotated[CallToolResult, UndoOutput]:
        try:
            values = rq.parse(rq.UNDO, arguments)
            action = engine.redo if values["redo"] else engine.undo
            path, count = values["file_path"], values["steps"]
            result = await anyio.to_thread.run_sync(lambda: action(path, steps=count))
        except EditError as error:
            return error_answer(error)
        except Exception as error:
            return internal_answer(error)
        output = UndoOutput(
            operation=result.operation,
            summary=result.summary,
            restored=[
                RestoredOutput(
                    file_path=item.file_path,
                    reversed=item.reversed_entry.summary,
                    hash_before=item.hash_before,
                    hash_after=item.hash_after,
                    deleted=item.deleted,
                    created=item.created,
                )
                for item in result.restored
            ],
        )
        return CallToolResult(
            content=[TextContent(type="text", text=result.text())],
            structured_content=output.model_dump(mode="json"),
        )

    return undo


def _apply_patch_tool(engine: EditEngine) -> Callable[..., Any]:
    async def apply_patch(
        arguments: dict[str, Any], ctx: Context
    ) -> Annotated[CallToolResult, PatchOutput]:
        try:
            values = rq.parse(rq.APPLY_PATCH, arguments)
            text, note = values["patch"], values["instruction"] or None
            form = values["format"] or "auto"
            apply = engine.apply_patch
            result = await anyio.to_thread.run_sync(
                lambda: apply(text, format=form, instruction=note)
            )
        except EditError as error:
            return error_answer(error)
        except Exception as error:
            return internal_answer(error)
        summary = str(getattr(result, "summary", "") or "Patch applied")
        files = getattr(result, "files", None) or {}
        names = sorted(files) if isinstance(files, Mapping) else [str(f) for f in files]
        parts = [summary]
        found: dict[str, list[dict[str, Any]]] = {}
        diff = getattr(result, "diff", None)
        if isinstance(diff, str) and diff:
            parts.append(diff.rstrip("\n"))
        for edited in getattr(result, "results", ()):  # each file's introduced errors
            errors = errors_block(
                edited.diagnostics, edited.diagnostics_note, path=edited.file_path
            )
            if errors:
                parts.append(errors)
            if edited.diagnostics:
                found[edited.file_path] = [item.to_dict() for item in edited.diagnostics]
        output = PatchOutput(summary=summary, files=names, diagnostics=found)
        return CallToolResult(
            content=[TextContent(type="text", text="\n\n".join(parts))],
            structured_content=output.model_dump(mode="json"),
        )

    return apply_patch


async def _run_edit(
    engine: EditEngine, ctx: Context, tool: str, arguments: dict[str, Any]
) -> CallToolResult | InputRequiredResult:
    token = current_context.set(ctx)
    try:
        call = _tools.parse_tool_call(tool, arguments)
        if engine.confirm is elicit_approval and asks_in_rounds(ctx):
            return await _run_with_approval_round(engine, ctx, call)
        result = await _apply(engine, call)
    except EditError as error:
        return error_answer(error, engine=engine, file_path=arguments.get("file_path"))
    except Exception as error:
        return internal_answer(error)
    finally:
        current_context.reset(token)
    return edited_answer(result)


async def _apply(
    engine: EditEngine, call: _tools.ToolCall, *, dry_run: bool = False,
    expected_hash: str | None = None,
) -> EditResult:  # fmt: skip
    # The call's own guards (expected_hash, overwrite) travel with it; an approval round's
    # hash (the file the user saw) takes the place of the call's.
    method = engine.aedit if call.tool == _tools.EDIT_TOOL else engine.amulti_edit
    options = _tools.write_options(call, method)
    if expected_hash is not None:
        options["expected_hash"] = expected_hash
    if call.tool == _tools.EDIT_TOOL:
        spec = call.edits[0]
        return await engine.aedit(
            call.file_path, spec.old_string, spec.new_string,
            instruction=spec.instruction, replace_all=spec.replace_all,
            expected_replacements=spec.expected_replacements, match_mode=spec.match_mode,
            dry_run=dry_run, **options,
        )  # fmt: skip
    return await engine.amulti_edit(
        call.file_path, call.edits, instruction=call.instruction, dry_run=dry_run, **options,
    )  # fmt: skip


async def _run_with_approval_round(
    engine: EditEngine, ctx: Context, call: _tools.ToolCall
) -> CallToolResult | InputRequiredResult:
    """Approval where the server cannot send requests of its own (the 2026-07-28 protocol):
    the first round previews the edit and asks; the client retries with the answer, and the
    edit is made only against the file the user saw (its sha256 travels in request_state)."""
    answer = (ctx.input_responses or {}).get(APPROVAL_KEY)
    if answer is None:
        preview = await _apply(engine, call, dry_run=True)
        if preview.no_change:
            return edited_answer(preview)
        request = ElicitRequest(
            params=ElicitRequestFormParams(
                message=f"{preview.summary}\n\n{preview.diff}",
                requested_schema=render_elicitation_schema(Approval),
            )
        )
        return InputRequiredResult(
            input_requests={APPROVAL_KEY: request},
            request_state=preview.hash_before or NEW_FILE,
        )
    content = getattr(answer, "content", None) or {}
    if getattr(answer, "action", None) != "accept" or content.get("approve") is not True:
        raise EditRejected(
            f"The edit of {call.file_path} was rejected by the user; nothing was written.",
            hint="Ask the user what to change, or propose a different edit.",
        )
    state = ctx.request_state
    expected = None if state in (None, NEW_FILE) else state
    token = approved_earlier.set(True)
    try:
        return edited_answer(await _apply(engine, call, expected_hash=expected))
    finally:
        approved_earlier.reset(token)
