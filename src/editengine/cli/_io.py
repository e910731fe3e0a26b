"""Input and output of the CLI commands: strict JSON, strict booleans, safe writes.

Every command takes untrusted input (JSON from agents, telemetry files, datasets). These
helpers turn each way it can be wrong into a :class:`~editengine.BadRequest` with a
one-line message, so no command ends in a traceback.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

from editengine._errors import BadRequest


def parse_json(text: str | bytes, *, what: str) -> Any:
    """One JSON value; nesting too deep for the parser is refused like any bad JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadRequest(
            f"{what} is not valid JSON ({error.msg} at line {error.lineno} column {error.colno})."
        ) from error
    except RecursionError:
        raise BadRequest(f"{what} is nested too deeply to be read as JSON.") from None
    except UnicodeDecodeError as error:
        raise BadRequest(f"{what} is not valid UTF-8 (byte offset {error.start}).") from error


def json_line(data: Any) -> bytes:
    """``data`` as one line of UTF-8 JSON. Text that UTF-8 cannot hold (a lone surrogate)
    is written as a JSON ``\\\\uXXXX`` escape instead, so the line is still valid JSON."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True).encode("ascii") + b"\n"


def json_text(data: Any, *, indent: int | None = None, default: Any = None) -> str:
    """``data`` as JSON text that can always be encoded as UTF-8 (see :func:`json_line`)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent, default=default)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, ensure_ascii=True, indent=indent, default=default)
    return text


def boolean(request: dict[str, Any], name: str, default: bool = False) -> bool:
    """The one rule for booleans in every JSON input: ``true``, ``false`` or absent/null.

    Strings such as ``"false"`` and numbers are refused rather than guessed at.
    """
    value = request.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise BadRequest(f"{name} must be true or false (a JSON boolean), got {value!r}.")
    return value


def finite_number(value: float, *, flag: str, low: float, high: float) -> float:
    """``value`` if it is a real number in ``[low, high]``; NaN and infinities refused."""
    if not math.isfinite(value) or not low <= value <= high:
        raise BadRequest(f"{flag} must be a number from {low:g} to {high:g}, got {value}.")
    return value


def write_output(path: str | os.PathLike[str], text: str, *, flag: str) -> None:
    """Write an output file named on the command line; a clear error when that fails."""
    try:
        with open(path, "w", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
    except OSError as error:
        reason = error.strerror or str(error)
        hint = " Create the folder first." if isinstance(error, FileNotFoundError) else ""
        raise BadRequest(f"{flag}: cannot write {os.fspath(path)}: {reason}.{hint}") from error


def check_output_path(path: str | os.PathLike[str] | None, *, flag: str) -> None:
    """Refuse, before any work is done, an output file that could not be written: its folder
    missing or not writable, or the path itself a folder. ``None`` and ``-`` (stdout) pass."""
    if path is None or os.fspath(path) == "-":
        return
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    if os.path.isdir(target):
        raise BadRequest(f"{flag}: {target} is a folder; name a file.")
    if not os.path.isdir(folder):
        raise BadRequest(
            f"{flag}: cannot write {target}: the folder {folder} does not exist.",
            hint="Create the folder first.",
        )
    if not os.access(folder, os.W_OK | os.X_OK) or (
        os.path.exists(target) and not os.access(target, os.W_OK)
    ):
        raise BadRequest(f"{flag}: cannot write {target}: permission denied.")
