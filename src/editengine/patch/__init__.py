"""Patches in the formats agents emit, applied through the cascade (see ``docs/patch.md``).

Parse → place → commit: a format's parser makes the neutral model (each hunk's texts
normalised once, when it is made); the placer finds where each hunk goes; the run applies
the operations in order and builds the result (the engine's ``_patching`` writes it).

- :mod:`~editengine.patch._model` — the neutral model: file operations and hunks;
- :mod:`~editengine.patch._blocks` — SEARCH/REPLACE blocks (aider);
- :mod:`~editengine.patch._udiff` — unified diffs, tolerant of models' mistakes;
- :mod:`~editengine.patch._codex` — ``apply_patch`` patches (Codex, OpenCode);
- :mod:`~editengine.patch._detect` — ``format="auto"``;
- :mod:`~editengine.patch._place` — where a hunk goes, through the cascade; its lines
  (:mod:`~editengine.patch._file_lines`) and the rules a loose place is held to
  (:mod:`~editengine.patch._hunk_rules`);
- :mod:`~editengine.patch._apply` — the operations in order, pure; the values it returns
  (:mod:`~editengine.patch._result`).

>>> blocks = "a.py\\n<<<<<<< SEARCH\\nx = 1\\n=======\\nx = 2\\n>>>>>>> REPLACE\\n"
>>> apply_patch({"a.py": "x = 1\\n"}, blocks).files
{'a.py': 'x = 2\\n'}
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from editengine._errors import BadRequest
from editengine._public import publish
from editengine.patch import _blocks as blocks
from editengine.patch import _codex as codex
from editengine.patch import _udiff as udiff
from editengine.patch._apply import HunkFixer, apply_operations
from editengine.patch._detect import check_format, detect_format
from editengine.patch._model import AUTO, FORMATS, FileOperation, Hunk, Patch
from editengine.patch._result import FileChange, HunkOutcome, PatchResult

__all__ = [
    "AUTO",
    "FORMATS",
    "FileChange",
    "FileOperation",
    "Hunk",
    "HunkFixer",
    "HunkOutcome",
    "Patch",
    "PatchResult",
    "apply_operations",
    "apply_patch",
    "detect_format",
    "parse_patch",
]


def parse_patch(text: str, format: str = AUTO, *, known_paths: Collection[str] = ()) -> Patch:
    """Parse ``text`` (``search_replace`` | ``udiff`` | ``apply_patch`` | ``auto``).

    Raises :class:`~editengine.PatchError` naming the patch line at fault.
    """
    if not isinstance(text, str):
        raise BadRequest(f"patch must be a string, got {type(text).__name__}.")
    chosen = check_format(format)
    if chosen == AUTO:
        chosen = detect_format(text)
    if chosen == "search_replace":
        return blocks.parse(text, known_paths=known_paths)
    if chosen == "udiff":
        return udiff.parse(text)
    return codex.parse(text)


def apply_patch(
    files: Mapping[str, str],
    patch: str,
    *,
    format: str = AUTO,
    cascade: Any = None,
    syntax_guard: str = "refuse",
) -> PatchResult:
    """Apply ``patch`` to ``files`` (path -> content); pure, no I/O.

    ``result.files`` maps every path the patch touched to its new content (``None`` when
    deleted); ``result.hunks`` says where and how each hunk was placed. Raises
    :class:`~editengine.PatchError` for a malformed patch and
    :class:`~editengine.PatchFailed` when a hunk or file operation cannot be applied
    (its ``cause`` says why); ``files`` is never modified.

    ``syntax_guard`` is the engine's (docs/diagnostics.md): with ``"refuse"`` (the default) a
    file whose hunks were placed loosely and whose touched region stops parsing raises
    :class:`~editengine.SyntaxBroken`, as :meth:`EditEngine.apply_patch` does; ``"report"``
    and ``"off"`` apply it.
    """
    from editengine.diagnostics._guard import guard_mode

    mode = guard_mode(syntax_guard)
    if not isinstance(files, Mapping):
        raise BadRequest(f"files must be a mapping of path to content, got {type(files).__name__}.")
    for path, content in files.items():
        if not isinstance(path, str) or not (content is None or isinstance(content, str)):
            raise BadRequest("files must map path strings to content strings.")
    parsed = parse_patch(patch, format, known_paths=list(files))
    result = apply_operations(files, _keyed_like(parsed, files), cascade=cascade)
    if mode == "refuse":
        # Imported here: the engine's patching imports this package.
        from editengine.engine._patch_reporting import syntax_checks

        syntax_checks(mode, [change for change in result.changes if not change.no_change], result)
    return result


def _keyed_like(parsed: Patch, files: Mapping[str, Any]) -> Patch:
    """The patch with each path spelled as the ``files`` key it names (``./a.py`` or
    ``src//a.py`` for ``src/a.py``)."""
    keys = {_normal(path): path for path in files}

    def key(path: str | None, *, existing: bool = False) -> str | None:
        if path is None or path in files:
            return path
        found = keys.get(_normal(path))
        if found is None and existing:
            # A bare or shortened path naming the one file of that name (as for blocks).
            name = posixpath.basename(path)
            same = [p for p in files if posixpath.basename(p) == name and p.endswith("/" + path)]
            found = same[0] if len(same) == 1 else None
        return found or path

    operations = tuple(
        replace(
            op,
            path=key(op.path, existing=op.kind != "add") or op.path,
            move_to=key(op.move_to),
        )
        for op in parsed.operations
    )
    return replace(parsed, operations=operations)


def _normal(path: str) -> str:
    return posixpath.normpath(path) if path else path


publish(globals())  # public names show this package, not their private module
