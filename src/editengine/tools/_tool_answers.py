"""What a model reads back after a tool call: :class:`ToolResult`, the text of a success
(:func:`format_result`) and of a refusal (:func:`format_error`, :func:`format_patch_error`).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from editengine._errors import EditError, MultiEditFailed, PatchFailed
from editengine.diagnostics import errors_block

logger = logging.getLogger("editengine")

__all__ = [
    "ToolResult",
    "format_error",
    "format_patch_error",
    "format_result",
    "internal_error",
]


class ToolResult(str):
    """The answer to a tool call: the text a model reads, with ``is_error`` set when the call
    was refused (``code`` then holds the error's code).

    It *is* that text (a ``str``), so code written for the string answers of
    :meth:`~editengine.EditEngine.handle_tool_call` keeps working.

    >>> answer = ToolResult("Error [no_match]: ...", is_error=True, code="no_match")
    >>> answer.is_error, answer.text.startswith("Error")
    (True, True)
    >>> answer.to_anthropic("toolu_1")["is_error"]
    True
    """

    is_error: bool
    code: str | None

    def __new__(cls, text: str, *, is_error: bool = False, code: str | None = None) -> ToolResult:
        result = super().__new__(cls, text)
        result.is_error = is_error
        result.code = code
        return result

    @property
    def text(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"ToolResult({self.text!r}, is_error={self.is_error!r}, code={self.code!r})"

    def __reduce__(self) -> Any:
        return (_rebuild, (self.text, self.is_error, self.code))

    @classmethod
    def error(cls, error: EditError, text: str | None = None) -> ToolResult:
        return cls(format_error(error) if text is None else text, is_error=True, code=error.code)

    def to_anthropic(self, tool_use_id: str) -> dict[str, Any]:
        """A Messages API ``tool_result`` content block answering ``tool_use_id``."""
        return {
            "type": "tool_result",
            "tool_use_id": tool_use_id,
            "content": self.text,
            "is_error": self.is_error,
        }

    def to_openai(self, call_id: str) -> dict[str, Any]:
        """A Responses API ``function_call_output`` item answering ``call_id``."""
        return {"type": "function_call_output", "call_id": call_id, "output": self.text}


def _rebuild(text: str, is_error: bool, code: str | None) -> ToolResult:
    return ToolResult(text, is_error=is_error, code=code)


class Written(Protocol):
    """What an edit or a patch reports, as far as its answer shows it."""

    @property
    def summary(self) -> str: ...
    @property
    def notes(self) -> tuple[str, ...]: ...
    @property
    def diff(self) -> str: ...


def format_result(result: Written) -> str:
    """What a model reads after a successful edit or patch: the summary, notes, the diff, then
    the errors the edit introduced (an ``Errors:`` block per file, docs/diagnostics.md)."""
    summary = result.summary
    parts = [summary if summary.endswith((".", "!", "?")) else summary + "."]
    parts.extend(result.notes)
    if result.diff:
        parts.append(result.diff.rstrip("\n"))
    edited = getattr(result, "results", None)  # a patch: each file's own errors
    if edited is None:
        parts.append(
            errors_block(
                getattr(result, "diagnostics", ()), getattr(result, "diagnostics_note", "")
            )
        )
    else:
        parts.extend(
            errors_block(item.diagnostics, item.diagnostics_note, path=item.file_path)
            for item in edited
        )
    return "\n\n".join(part for part in parts if part)


def format_error(error: EditError) -> str:
    """What a model reads after a failed edit: code, what went wrong, what to do next."""
    if isinstance(error, PatchFailed):
        return format_patch_error(error)
    text = f"Error [{error.code}]: {error}"
    if isinstance(error, MultiEditFailed):
        text = f"Error [{error.code}/{error.cause.code}]: {error}"
    cause = error.cause if isinstance(error, MultiEditFailed) else error
    closest = getattr(cause, "closest", ())
    where = [region.describe() for region in closest]
    if where and not all(place in text for place in where):
        text += "\nClosest text in the file: " + ", ".join(where) + "."
    return text


def format_patch_error(error: EditError) -> str:
    """Code, what went wrong (the failing hunk and its patch line), and the closest text."""
    if not isinstance(error, PatchFailed):
        return format_error(error)
    text = f"Error [{error.code}/{error.cause.code}]: {error}"
    closest = getattr(error.cause, "closest", ()) or getattr(error.cause, "candidates", ())
    where = [region.describe() for region in closest]
    if where and not all(place in text for place in where):
        text += f"\nClosest text in {error.path}: " + ", ".join(where) + "."
    if error.old_lines:
        quoted = error.old_lines.splitlines()
        shown = quoted[:20] + ([f"... ({len(quoted) - 20} more lines)"] if len(quoted) > 20 else [])
        text += f"\nThe hunk's old lines (patch line {error.line}):\n" + "\n".join(
            "    " + line for line in shown
        )
    return text


def internal_error(error: BaseException, *, what: str = "the edit") -> ToolResult:
    """The answer when something unexpected broke: logged, and said to the model."""
    logger.error("unexpected error while handling a tool call", exc_info=error)
    return ToolResult(
        f"Error [internal_error]: {what} failed unexpectedly ({type(error).__name__}: "
        f"{error}). Re-read the file to see its current state before trying again.",
        is_error=True,
        code="internal_error",
    )
