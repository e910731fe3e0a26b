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

Why one long module: each tool's schema, argument checks and answer are written out, one
section a tool.
"""

from __future__ import annotations

import contextvars
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
from pydantic import BaseModel, Field

from editengine import tools as _tools
from editengine._edits import ConfirmRequest, Decision
from editengine._errors import (
    AmbiguousMatch,
    CountMismatch,
    EditError,
    EditRejected,
    MultiEditFailed,
)
from editengine._resources import prompt_text
from editengine._results import EditResult
from editengine._version import __version__
from editengine.diagnostics import errors_block
from editengine.engine import EditEngine
from editengine.files import read_snapshot
from editengine.mcp_server._sessions import SessionReadTrackers, enter_session, leave_session
from editengine.tools import _request as rq
from editengine.tools._numbered import format_line, split_lines

logger = logging.getLogger("editengine")

DEFAULT_READ_LIMIT = _tools.DEFAULT_READ_LIMIT
_CANDIDATE_LINES = 12  # lines shown per ambiguous candidate
_CANDIDATES_SHOWN = 5

_current_context: contextvars.ContextVar[Context | None] = contextvars.ContextVar(
    "editengine_mcp_context", default=None
)
# Set while an edit the user already approved (in an earlier round) is being made.
_approved: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "editengine_mcp_approved", default=False
)
_APPROVAL_KEY = "approve"
_NEW_FILE = "new-file"

# ---------------------------------------------------------------------- output models


class ReadOutput(BaseModel):
    file_path: str
    start_line: int = Field(description="first line shown (1-based)")
    end_line: int = Field(description="last line shown (start_line - 1 when none)")
    total_lines: int
    sha256: str = Field(description="sha256 of the file's bytes as read")
    truncated: bool = Field(description="more lines follow end_line")
    text: str = Field(
        description="the lines shown, each as its number, a tab and the line (never copy "
        "the number and the tab into old_string)"
    )


class EditOutput(BaseModel):
    summary: str
    file_path: str
    replacements: int
    strategy: str
    diff: str
    hash_before: str | None
    hash_after: str | None
    created: bool
    no_change: bool
    corrected_by_fixer: bool
    notes: list[str]
    # The problems the edit introduced (docs/diagnostics.md), as the text's Errors: block.
    diagnostics: list[dict[str, Any]] = Field(default_factory=list)
    diagnostics_note: str | None = None


class RestoredOutput(BaseModel):
    file_path: str
    reversed: str = Field(description="summary of the write that was reversed")
    hash_before: str | None
    hash_after: str | None = Field(description="null when the file was deleted")
    deleted: bool
    created: bool


class UndoOutput(BaseModel):
    operation: str = Field(description="undo or redo")
    summary: str
    restored: list[RestoredOutput]


class PatchOutput(BaseModel):
    summary: str
    files: list[str]
    # Per file, the problems the patch introduced there (only files that have some).
    diagnostics: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)


# ---------------------------------------------------------------------- input schemas

# Generated from the one request schema (editengine.tools._request), as the tool-call schemas are.
READ_PARAMETERS: dict[str, Any] = rq.READ.json_schema()
UNDO_PARAMETERS: dict[str, Any] = rq.UNDO.json_schema()
APPLY_PATCH_PARAMETERS: dict[str, Any] = rq.APPLY_PATCH.json_schema()


# ---------------------------------------------------------------------- the server


def build_server(engine: EditEngine, *, confirm: bool = False) -> MCPServer:
    """An MCP server whose tools edit ``engine``'s workspace.

    ``confirm=True`` asks the user to approve each write through MCP elicitation when the
    client supports it (and approves when it does not).
    """
    if confirm:
        engine.confirm = _elicit_approval
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
            return _error(error)
        except Exception as error:
            return _internal(error)
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
            return _error(error)
        except Exception as error:
            return _internal(error)
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
            return _error(error)
        except Exception as error:
            return _internal(error)
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


# ---------------------------------------------------------------------- edit plumbing


async def _run_edit(
    engine: EditEngine, ctx: Context, tool: str, arguments: dict[str, Any]
) -> CallToolResult | InputRequiredResult:
    token = _current_context.set(ctx)
    try:
        call = _tools.parse_tool_call(tool, arguments)
        if engine.confirm is _elicit_approval and _asks_in_rounds(ctx):
            return await _run_with_approval_round(engine, ctx, call)
        result = await _apply(engine, call)
    except EditError as error:
        return _error(error, engine=engine, file_path=arguments.get("file_path"))
    except Exception as error:
        return _internal(error)
    finally:
        _current_context.reset(token)
    return _edited(result)


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
    answer = (ctx.input_responses or {}).get(_APPROVAL_KEY)
    if answer is None:
        preview = await _apply(engine, call, dry_run=True)
        if preview.no_change:
            return _edited(preview)
        request = ElicitRequest(
            params=ElicitRequestFormParams(
                message=f"{preview.summary}\n\n{preview.diff}",
                requested_schema=render_elicitation_schema(Approval),
            )
        )
        return InputRequiredResult(
            input_requests={_APPROVAL_KEY: request},
            request_state=preview.hash_before or _NEW_FILE,
        )
    content = getattr(answer, "content", None) or {}
    if getattr(answer, "action", None) != "accept" or content.get("approve") is not True:
        raise EditRejected(
            f"The edit of {call.file_path} was rejected by the user; nothing was written.",
            hint="Ask the user what to change, or propose a different edit.",
        )
    state = ctx.request_state
    expected = None if state in (None, _NEW_FILE) else state
    approved = _approved.set(True)
    try:
        return _edited(await _apply(engine, call, expected_hash=expected))
    finally:
        _approved.reset(approved)


def _edited(result: EditResult) -> CallToolResult:
    output = EditOutput(
        summary=result.summary,
        file_path=result.file_path,
        replacements=result.replacements,
        strategy=result.strategy,
        diff=result.diff,
        hash_before=result.hash_before,
        hash_after=result.hash_after,
        created=result.created,
        no_change=result.no_change,
        corrected_by_fixer=result.corrected_by_fixer,
        notes=list(result.notes),
        diagnostics=[item.to_dict() for item in result.diagnostics],
        diagnostics_note=result.diagnostics_note,
    )
    return CallToolResult(
        content=[TextContent(type="text", text=_tools.format_result(result))],
        structured_content=output.model_dump(mode="json"),
    )


def _error(
    error: EditError, *, engine: EditEngine | None = None, file_path: object = None
) -> CallToolResult:
    text = _tools.format_error(error)
    if engine is not None and isinstance(file_path, str):
        shown = _candidate_lines(engine, file_path, error)
        if shown:
            text += "\n\n" + shown
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _internal(error: Exception) -> CallToolResult:
    logger.error("unexpected error in an MCP tool", exc_info=error)
    text = (
        f"Error [internal_error]: the tool failed unexpectedly ({type(error).__name__}: "
        f"{error}). Read the file again to see its current state before retrying."
    )
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _candidate_lines(engine: EditEngine, file_path: str, error: EditError) -> str:
    """The lines of each place an ambiguous old_string matched, so the model can pick one."""
    cause = error.cause if isinstance(error, MultiEditFailed) else error
    if not isinstance(cause, (AmbiguousMatch, CountMismatch)) or not cause.candidates:
        return ""
    try:
        target = engine.workspace.resolve(file_path)
        snapshot = read_snapshot(
            target.real, display=target.display, max_bytes=engine.max_file_bytes
        )
    except EditError:
        return ""
    lines = split_lines(snapshot.text)
    blocks = []
    for number, region in enumerate(cause.candidates[:_CANDIDATES_SHOWN], 1):
        last = min(region.end_line, region.start_line + _CANDIDATE_LINES - 1, len(lines))
        shown = [format_line(n, lines[n - 1]) for n in range(region.start_line, last + 1)]
        if last < region.end_line:
            shown.append("   ...")
        blocks.append(f"Candidate {number} ({region.describe()}):\n" + "\n".join(shown))
    more = len(cause.candidates) - _CANDIDATES_SHOWN
    if more > 0:
        blocks.append(f"... and {more} more.")
    return "\n\n".join(blocks)


# ---------------------------------------------------------------------- approval


class Approval(BaseModel):
    approve: bool = Field(description="Write this change to the file?")


async def _elicit_approval(request: ConfirmRequest) -> Decision:
    """Ask the user through the client (MCP elicitation); approve when it cannot ask."""
    ctx = _current_context.get()
    if _approved.get() or ctx is None or not _can_elicit(ctx):
        return Decision.approve()
    message = f"{request.summary}\n\n{request.diff}"
    try:
        answer = await ctx.elicit(message=message, schema=Approval)
    except Exception as error:  # a client that claims elicitation but fails it
        logger.warning("elicitation failed, approving the edit: %s", error)
        return Decision.approve()
    if answer.action == "accept" and getattr(answer, "data", None) is not None:
        if answer.data.approve:
            return Decision.approve()
        return Decision.reject("the user declined it")
    return Decision.reject(f"the user answered {answer.action}")


def _can_elicit(ctx: Context) -> bool:
    try:
        capabilities = ctx.request_context.session.client_capabilities
    except Exception:
        return False
    return capabilities is not None and getattr(capabilities, "elicitation", None) is not None


def _asks_in_rounds(ctx: Context) -> bool:
    """The client can be asked, but only by answering input_required (no back-channel)."""
    if not _can_elicit(ctx):
        return False
    try:
        return not ctx.request_context.session.can_send_request
    except Exception:
        return False
