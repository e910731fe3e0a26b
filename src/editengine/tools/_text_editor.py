"""Anthropic's text editor tool served by the engine: ``view``, ``str_replace``, ``create``,
``insert`` and ``undo_edit``, for the tool types ``text_editor_20250728`` /
``text_editor_20250429`` (named ``str_replace_based_edit_tool``) and ``text_editor_20250124``
/ ``text_editor_20241022`` (named ``str_replace_editor``).

Every write goes through the engine: the workspace guard, the whole matching cascade (so a
``str_replace`` quoted with the wrong indentation still lands), the fixer, the journal
(``undo_edit`` reverses it), the read tracker and telemetry.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from editengine._errors import BadRequest, EditError
from editengine.files import read_snapshot
from editengine.tools import _request as rq
from editengine.tools._numbered import number_lines, split_lines
from editengine.tools._tool_answers import ToolResult, format_result, internal_error

if TYPE_CHECKING:
    from editengine.tools._operations import EngineOperations

__all__ = [
    "TEXT_EDITOR_NAMES",
    "TEXT_EDITOR_TYPES",
    "TextEditor",
    "anthropic_text_editor",
    "is_text_editor_tool",
]

# Tool type -> the name the model calls it by.
TEXT_EDITOR_TYPES: dict[str, str] = {
    "text_editor_20250728": "str_replace_based_edit_tool",
    "text_editor_20250429": "str_replace_based_edit_tool",
    "text_editor_20250124": "str_replace_editor",
    "text_editor_20241022": "str_replace_editor",
}
TEXT_EDITOR_NAMES = frozenset(TEXT_EDITOR_TYPES.values())
_LISTED_MAX = 1000  # entries shown when a folder is viewed


def is_text_editor_tool(name: object) -> bool:
    """Anthropic's text editor tool, by any of its names."""
    return isinstance(name, str) and name.strip() in TEXT_EDITOR_NAMES


class TextEditor:
    """Answers the text editor tool's calls: ``editor(tool_use.input)`` -> :class:`ToolResult`.

    ``max_characters`` clips what ``view`` shows (the 20250728 tool's option of that name).
    """

    def __init__(self, engine: EngineOperations, *, max_characters: int | None = None) -> None:
        if max_characters is not None:
            rq.count(max_characters, "max_characters")
        self.engine = engine
        self.max_characters = max_characters

    def tool_param(self, type: str = "text_editor_20250728") -> dict[str, Any]:
        """The tool definition to send in ``tools=[...]`` for the tool type ``type``."""
        if type not in TEXT_EDITOR_TYPES:
            raise ValueError(
                f"unknown text editor type {type!r}; use one of {list(TEXT_EDITOR_TYPES)}"
            )
        param: dict[str, Any] = {"type": type, "name": TEXT_EDITOR_TYPES[type]}
        if self.max_characters is not None and type == "text_editor_20250728":
            param["max_characters"] = self.max_characters
        return param

    def __call__(self, input: Mapping[str, Any] | str | bytes | Any) -> ToolResult:
        """Run one call (its ``input``, or the whole ``tool_use`` block); never raises (a
        refusal is a result with ``is_error``)."""
        try:
            input = _input_of(input)
            command = rq.parse(rq.TEXT_EDITOR_COMMAND, input)["command"]
            return _COMMANDS[command](self, rq.load_arguments(input))
        except EditError as error:
            return ToolResult.error(error)
        except Exception as error:  # a tool loop must get an answer, not a crash
            return internal_error(error, what="the text editor command")

    async def acall(self, input: Mapping[str, Any] | str | bytes | Any) -> ToolResult:
        """Async twin of calling the editor (the file work runs in a thread)."""
        return await asyncio.to_thread(self, input)

    def tool_result(self, block: Any) -> dict[str, Any]:
        """The ``tool_result`` content block answering a ``tool_use`` block (the SDK's
        ``ToolUseBlock`` or the same as a dict)."""
        block_id = block.get("id") if isinstance(block, Mapping) else getattr(block, "id", None)
        return self(block).to_anthropic(block_id if isinstance(block_id, str) else "")

    # ------------------------------------------------------------------ commands

    def _view(self, given: Mapping[str, Any]) -> ToolResult:
        args = rq.parse(rq.TEXT_EDITOR_VIEW, given)
        path: str = args["path"]
        folder = self._folder(path)
        if folder is not None:
            if args["view_range"] is not None:
                raise BadRequest("view_range applies to files only; view the folder without it.")
            return ToolResult(self._clip(_listing(folder, self.engine.root)))
        text = self.engine.read_file(path)
        total = len(split_lines(text))
        start, end = args["view_range"] or (1, -1)
        if total == 0:
            return ToolResult(f"{path} is empty.")
        if start > total:
            raise BadRequest(
                f"view_range starts at line {start}, but {path} has {total} lines; "
                f"start from 1 to {total}."
            )
        numbered = number_lines(text, start=start, limit=None if end == -1 else end - start + 1)
        return ToolResult(self._clip(numbered.text))

    def _str_replace(self, given: Mapping[str, Any]) -> ToolResult:
        args = rq.parse(rq.TEXT_EDITOR_STR_REPLACE, given)
        if args["old_str"] == "":
            raise BadRequest(
                "old_str is empty: quote the exact text to replace (use create to write a new "
                "file)."
            )
        result = self.engine.edit(args["path"], args["old_str"], args["new_str"])
        return ToolResult(format_result(result))

    def _create(self, given: Mapping[str, Any]) -> ToolResult:
        args = rq.parse(rq.TEXT_EDITOR_CREATE, given)
        path: str = args["path"]
        target = self.engine.workspace.resolve(path)
        snapshot = read_snapshot(
            target.real, display=target.display, max_bytes=self.engine.max_file_bytes
        )
        if snapshot.exists and snapshot.text:
            raise BadRequest(
                f"create: {target.display} already exists ({snapshot.lines} lines); create "
                "never overwrites a file. Use str_replace to change it, or view it first."
            )
        result = self.engine.edit(path, "", args["file_text"])
        return ToolResult(format_result(result))

    def _insert(self, given: Mapping[str, Any]) -> ToolResult:
        args = rq.parse(rq.TEXT_EDITOR_INSERT, given)
        path, line, inserted = args["path"], args["insert_line"], args["new_str"]
        target = self.engine.workspace.resolve(path)
        snapshot = read_snapshot(
            target.real, display=target.display, max_bytes=self.engine.max_file_bytes
        )
        if not snapshot.exists:
            self.engine.read_file(path)  # the engine's own file_not_found, with suggestions
        lines = split_lines(snapshot.text)
        if line > len(lines):
            raise BadRequest(
                f"insert_line is {line}, but {target.display} has {len(lines)} lines; use 0 "
                f"(the start) to {len(lines)} (the end)."
            )
        body = inserted[:-1] if inserted.endswith("\n") else inserted
        old, new = _insertion(lines, line, body.split("\n"))
        if old:
            result = self.engine.edit(path, old, new, expected_hash=snapshot.sha256)
        else:  # nothing around the place can name it: the whole text, checked by its hash
            result = self.engine.edit(path, "", new + "\n", expected_hash=snapshot.sha256)
        count = body.count("\n") + 1
        where = "at the start" if line == 0 else f"after line {line}"
        summary = f"Inserted {count} line{'s' if count != 1 else ''} {where} of {result.file_path}"
        return ToolResult(format_result(dataclasses.replace(result, summary=summary)))

    def _undo_edit(self, given: Mapping[str, Any]) -> ToolResult:
        args = rq.parse(rq.TEXT_EDITOR_UNDO, given)
        return ToolResult(self.engine.undo(args["path"]).text())

    # ------------------------------------------------------------------ helpers

    def _folder(self, path: str) -> Path | None:
        """The folder ``path`` names inside the workspace, or ``None`` for a file."""
        root = Path(self.engine.root)
        given = Path(path)
        joined = Path(os.path.normpath(given if given.is_absolute() else root / given))
        if joined in (root, root.resolve()):
            return root
        target = self.engine.workspace.resolve(path)
        return target.real if target.real.is_dir() else None

    def _clip(self, text: str) -> str:
        limit = self.max_characters
        if limit is None or len(text) <= limit:
            return text
        return (
            text[:limit]
            + f"\n<response clipped: {len(text) - limit} more characters; view a smaller "
            "view_range>"
        )


_COMMANDS = {
    "view": TextEditor._view,
    "str_replace": TextEditor._str_replace,
    "create": TextEditor._create,
    "insert": TextEditor._insert,
    "undo_edit": TextEditor._undo_edit,
}


def anthropic_text_editor(
    engine: EngineOperations, *, max_characters: int | None = None
) -> TextEditor:
    """A handler for Anthropic's text editor tool over ``engine``.

    >>> editor = anthropic_text_editor(engine)                 # doctest: +SKIP
    >>> tools = [editor.tool_param()]                          # doctest: +SKIP
    >>> result = editor(block.input)                           # doctest: +SKIP
    >>> result.to_anthropic(block.id)                          # doctest: +SKIP
    {'type': 'tool_result', 'tool_use_id': ..., 'content': ..., 'is_error': False}
    """
    return TextEditor(engine, max_characters=max_characters)


def _input_of(call: Any) -> Any:
    """A call's arguments: the ``input`` of a ``tool_use`` block, or the call itself."""
    if isinstance(call, Mapping):
        return call["input"] if call.get("type") == "tool_use" and "input" in call else call
    if getattr(call, "type", None) == "tool_use":
        return getattr(call, "input", None)
    return call


def _insertion(lines: list[str], line: int, inserted: list[str]) -> tuple[str, str]:
    """old_string and new_string placing ``inserted`` after line ``line`` (0: before the
    first): the fewest lines around the place that occur once in the file, so the edit
    lands there by an exact match. ``("", whole new text)`` when no such lines exist."""
    whole = "\n".join(lines)
    before, after = line, line
    while True:
        old = "\n".join(lines[before:after])
        # The whole text is no context: it is replaced whole, checked by its hash.
        if old and old != whole and _occurs_once(whole, old):
            new = "\n".join(lines[before:line] + inserted + lines[line:after])
            return old, new
        if before == 0 and after == len(lines):
            return "", "\n".join(lines[:line] + inserted + lines[line:])
        before, after = max(0, before - 1), min(len(lines), after + 1)


def _occurs_once(text: str, part: str) -> bool:
    first = text.find(part)
    return first >= 0 and text.find(part, first + 1) == -1


def _listing(folder: Path, root: Path) -> str:
    """The files and folders under ``folder``, two levels deep, hidden ones left out."""
    base = Path(root).resolve()
    shown: list[str] = []

    def walk(path: Path, depth: int) -> None:
        try:
            entries = sorted(os.scandir(path), key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith(".") or len(shown) >= _LISTED_MAX:
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            relative = Path(entry.path).relative_to(base).as_posix()
            shown.append(relative + ("/" if is_dir else ""))
            if is_dir and depth < 2:
                walk(Path(entry.path), depth + 1)

    walk(folder, 1)
    name = folder.relative_to(base).as_posix() if folder != base else "."
    more = (
        f"\n(only the first {_LISTED_MAX} entries are shown)" if len(shown) >= _LISTED_MAX else ""
    )
    if not shown:
        return f"{name} is an empty folder."
    return (
        f"The files and folders in {name}, two levels deep (hidden ones left out):\n"
        + "\n".join(shown)
        + more
    )
