"""What an MCP tool answers: the text a model reads and the structured content beside it.

A landed edit gives its summary, notes, diff and the ``Errors:`` block; a refusal gives
``is_error=True`` with the engine's own message, and for an ambiguous match the candidates'
lines, numbered as the ``read`` tool numbers them, so the model can quote one exactly. An
unexpected failure is an answer too, never a protocol error.
"""

from __future__ import annotations

import logging

from mcp_types import CallToolResult, TextContent

from editengine import tools as _tools
from editengine._errors import AmbiguousMatch, CountMismatch, EditError, MultiEditFailed
from editengine._results import EditResult
from editengine.engine import EditEngine
from editengine.files import read_snapshot
from editengine.mcp_server._outputs import EditOutput
from editengine.tools._numbered import format_line, split_lines

logger = logging.getLogger("editengine")


_CANDIDATE_LINES = 12  # lines shown per ambiguous candidate


_CANDIDATES_SHOWN = 5


def edited_answer(result: EditResult) -> CallToolResult:
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


def error_answer(
    error: EditError, *, engine: EditEngine | None = None, file_path: object = None
) -> CallToolResult:
    text = _tools.format_error(error)
    if engine is not None and isinstance(file_path, str):
        shown = _candidate_lines(engine, file_path, error)
        if shown:
            text += "\n\n" + shown
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def internal_answer(error: Exception) -> CallToolResult:
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
