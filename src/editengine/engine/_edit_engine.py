"""The public engine: the edit pipeline of ``_core``, answering tool calls through a
:class:`~editengine.tools.ToolCalls` composed over it, so the pipeline never depends on the
tool-call front end and the front end reaches the engine only by its public methods."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from editengine.engine._core import EngineCore
from editengine.tools import ToolCalls, ToolResult


class EditEngine(EngineCore):
    """Search/replace edits on the files under ``root``; see ``docs/engine.md``.

    >>> engine = EditEngine("/path/to/project")          # doctest: +SKIP
    >>> engine.edit("src/app.py", "x = 1", "x = 2").summary  # doctest: +SKIP
    'Replaced 1 occurrence in src/app.py (exact match)'

    Parameters:
        root: the workspace. Every path is resolved inside it; nothing outside it is read,
            written or created, whatever links or folder swaps the path meets.
        fixer: asked to correct old_string when every tier of the cascade refuses it (an
            :class:`~editengine.fixer.LLMFixer`, or ``None`` for no fixer). Its answer is
            re-checked against the current file and written only if it makes exactly the
            requested change.
        telemetry: one observer or several (a :class:`~editengine.telemetry.Telemetry`)
            told what each edit did: tiers tried, fixer calls, outcome, timings.
        cascade: the pure matcher (:class:`EditCascade`); the default cascade when ``None``.
        max_file_bytes: larger files are refused (``file_too_large``) before they are read.
        confirm: called with a :class:`~editengine.ConfirmRequest` before a write; it
            approves, refuses or modifies the edit. The file is re-checked after it answers.
        on_edited: called after each landed write (diff hooks, formatters' triggers).
        read_tracker: when given, an edit of a file changed since the agent last read it is
            refused as ``stale_file``.
        autocorrect_paths: a path that names no file is replaced by the one file of the same
            name in the workspace (otherwise the error suggests it).
        lock_dir: where the per-file lock files live; a per-user temporary folder by default,
            never the workspace.
        lock_timeout: seconds to wait for another writer of the same file.
        fixer_guard: the check a fixer's correction must pass (:class:`RelatednessGuard`).
        journal: the undo journal: ``True`` for the workspace's default journal, a
            :class:`~editengine.Journal`, or ``False`` for none.
        syntax_guard: ``refuse`` (default): a forgiving placement that breaks the syntax of
            the region it touched raises ``syntax_broken``; ``report``: written, its problems in
            ``result.diagnostics``; ``off``: nothing parsed. See ``docs/diagnostics.md``.
        lsp: language servers by language (``{"python": ["pylsp"]}``), started on first use and
            asked for each write's diagnostics; ``close()`` stops them.
        lsp_timeout: seconds an edit waits for a server's diagnostics (then notes them as
            unavailable).
        lsp_severities: the server severities reported (``("error",)`` by default).
    """

    def handle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> ToolResult:
        """Run a ``read`` / ``edit`` / ``multiedit`` / ``apply_patch`` call, or a call of
        Anthropic's text editor tool (``str_replace_based_edit_tool``,
        ``str_replace_editor``); the answer the model should read back.

        Never raises: a malformed call answers ``Error [bad_request]: ...`` with
        ``is_error`` set. The answer is a ``str``, as it always was.
        """
        return ToolCalls(self).handle_tool_call(name, arguments)

    async def ahandle_tool_call(self, name: str, arguments: Mapping[str, Any] | str) -> ToolResult:
        """Async twin of :meth:`handle_tool_call`."""
        return await ToolCalls(self).ahandle_tool_call(name, arguments)
