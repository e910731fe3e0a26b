"""Apply a parsed :class:`~editengine.patch._model.Patch` to file contents; pure, no I/O.

The run takes the operations in order: an added file must not exist yet (or hold the same
text), a deleted one must hold the diff's '-' lines, an update applies its hunks one after
the other, each to the text the previous ones left (:class:`~._place.HunkPlacer` says where),
and a move must not overwrite. A hunk no tier places goes to the fixer when one is given.
Nothing here writes a file: the result maps each touched path to its new content (``None``
when deleted). Any failure is a :class:`PatchFailed` naming the file, the hunk and its patch
line, in the hunk's own terms; no file changes.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from typing import Any

from editengine._errors import (
    BadRequest,
    EditError,
    FileError,
    FileNotFound,
    NoMatch,
    PatchFailed,
    PathOutsideWorkspace,
)
from editengine._results import TextEdit
from editengine.patch._hunk_rules import check_order, cursor_after, same_lines
from editengine.patch._model import FileOperation, Hunk, Patch
from editengine.patch._place import HunkPlacer
from editengine.patch._result import FileChange, HunkOutcome, PatchResult

# (path, content, hunk, error) -> the fixer's checked edit, or None to keep the error
HunkFixer = Callable[[str, str, Hunk, NoMatch], "TextEdit | None"]


_ORDERED_FORMATS = ("udiff", "apply_patch")


def apply_operations(
    files: Mapping[str, str | None],
    patch: Patch,
    *,
    cascade: Any = None,
    fix: HunkFixer | None = None,
) -> PatchResult:
    """Apply ``patch`` to ``files`` (path -> content; ``None`` or absent: no such file).

    Raises :class:`PatchFailed` (its ``cause`` the cascade's or the file's error) naming
    the file, the hunk and its patch line; ``files`` is never modified.
    """
    if cascade is None:
        from editengine.matching._cascade import DEFAULT_CASCADE

        cascade = DEFAULT_CASCADE
    run = _Run(files, cascade, fix, ordered=patch.format in _ORDERED_FORMATS)
    for operation in patch.operations:
        run.operation(operation)
    return run.result(patch.format)


class _Run:
    def __init__(
        self, files: Mapping[str, str | None], cascade: Any, fix: HunkFixer | None, ordered: bool
    ) -> None:
        self.files = files
        self.placer = HunkPlacer(cascade, ordered=ordered)
        self.fix = fix
        self.ordered = ordered
        self.state: dict[str, str | None] = {}
        self.moves: dict[str, str] = {}
        self.hunks: list[HunkOutcome] = []

    def current(self, path: str) -> str | None:
        return self.state[path] if path in self.state else self.files.get(path)

    def operation(self, op: FileOperation) -> None:
        for path in op.paths():
            _check_path(path, op)
        if op.kind == "add":
            self._add(op)
        elif op.kind == "delete":
            current = self.current(op.path)
            if current is None:
                raise _failed(op, _missing(op.path, "delete"))
            if op.content is not None and not same_lines(current, op.content):
                raise _failed(
                    op,
                    NoMatch(
                        f"the diff deletes {op.path}, but its '-' lines are not the file's "
                        "content; nothing was deleted.",
                        hint="Give every line of the file as a '-' line, or leave the file.",
                    ),
                )
            self.state[op.path] = None
        else:
            self._update(op)

    def _add(self, op: FileOperation) -> None:
        content = op.content or ""
        existing = self.current(op.path)
        if existing is not None and existing != content:
            raise _failed(
                op,
                FileError(
                    f"{op.path} already exists; adding it would overwrite its content.",
                    path=op.path,
                    hint="Use an update of the file to change it, or delete it first.",
                ),
            )
        self.state[op.path] = content

    def _update(self, op: FileOperation) -> None:
        content = self.current(op.path)
        if content is None:
            if not op.creates_if_missing:
                raise _failed(op, _missing(op.path, "update"))
            content = ""
        cursor = 0
        previous_start: int | None = None
        for index, hunk in enumerate(op.hunks, 1):
            try:
                edit, cursor = self.placer.place(content, hunk, cursor)
                corrected = False
                if self.ordered and previous_start is not None:
                    check_order(edit, previous_start)
            except NoMatch as error:
                fixed = self.fix(op.path, content, hunk, error) if self.fix else None
                if fixed is None:
                    raise _failed(op, error, index, hunk) from error
                edit, cursor, corrected = fixed, cursor_after(content, fixed, cursor), True
            except EditError as error:
                raise _failed(op, error, index, hunk) from error
            self.hunks.append(
                HunkOutcome(
                    op.path, index, hunk.line, edit.strategy, edit.spans, edit.no_change,
                    corrected, edit.trace,
                )
            )  # fmt: skip
            content = edit.new_content
            if edit.spans and not edit.no_change and edit.strategy != "append":
                # (lines appended at the end say nothing about the order of the hunks)
                previous_start = min(region.start_line for region in edit.spans)
        if op.move_to is not None and op.move_to != op.path:
            if self.current(op.move_to) is not None:
                raise _failed(
                    op,
                    FileError(
                        f"cannot move {op.path} to {op.move_to}: {op.move_to} already exists "
                        "and would be overwritten.",
                        path=op.move_to,
                        hint="Move it to a new path, or delete the destination first.",
                    ),
                )
            self.state[op.move_to] = content
            self.state[op.path] = None
            self.moves[op.path] = op.move_to
        else:
            self.state[op.path] = content

    # ------------------------------------------------------------------ result

    def result(self, format: str) -> PatchResult:
        changes: list[FileChange] = []
        moved_from = {dest: src for src, dest in self.moves.items()}
        for path, new in self.state.items():
            changes.append(
                FileChange(
                    path,
                    self.files.get(path),
                    new,
                    moved_to=self.moves.get(path),
                    moved_from=moved_from.get(path),
                )
            )
        return PatchResult(
            format=format,
            files=dict(self.state),
            changes=tuple(changes),
            hunks=tuple(self.hunks),
        )


def _check_path(path: str, op: FileOperation) -> None:
    """A patch path must be relative and stay inside the tree it is applied to."""
    problem = None
    if not path or "\x00" in path:
        problem = "is empty or holds a NUL character"
    elif path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
        problem = "is absolute"
    elif posixpath.normpath(path.replace("\\", "/")).split("/")[0] == "..":
        problem = "leads outside the workspace"
    if problem is not None:
        raise _failed(
            op,
            PathOutsideWorkspace(
                f"the path {path!r} {problem}.",
                path=path,
                hint="Name files by their path relative to the workspace root.",
            ),
        )


def _missing(path: str, what: str) -> FileNotFound:
    hint = "Check the path; to create a file use an Add File section (or /dev/null in a diff)."
    return FileNotFound(f"cannot {what} {path}: it does not exist.", path=path, hint=hint)


def _failed(
    op: FileOperation, cause: EditError, index: int | None = None, hunk: Hunk | None = None
) -> PatchFailed:
    if hunk is not None:
        where = f"Hunk {index} of {op.path} (patch line {hunk.line})"
        line = hunk.line
    else:
        where = f"The {_verb(op)} of {op.path} (patch line {op.line})"
        line = op.line
    message = f"{where} failed; no file was changed. {_in_hunk_terms(str(cause))}"
    if isinstance(cause, BadRequest):
        message = f"{where} is invalid; no file was changed. {cause}"
    old_lines = hunk.before if hunk is not None else None
    return PatchFailed(
        message, path=op.path, cause=cause, hunk=index, line=line, old_lines=old_lines
    )


def _in_hunk_terms(message: str) -> str:
    """The cascade's message, speaking of the hunk's lines instead of edit arguments."""
    message = message.replace(", or set replace_all=true to change every occurrence", "")
    message = message.replace("old_string was", "the hunk's old lines (context and '-' lines) were")
    message = message.replace("old_string matches", "the hunk's old lines match")
    message = message.replace(
        "copy old_string exactly as it stands", "copy them exactly as they stand"
    )
    message = message.replace("old_string", "the hunk's old lines (context and '-' lines)", 1)
    message = message.replace("old_string", "the old lines")
    message = message.replace("new_string", "the new lines")
    first = message.split(" ", 1)[0]
    if first.isalpha():  # a sentence's first word, never a path ("a.py already exists")
        return message[:1].upper() + message[1:]
    return message


def _verb(op: FileOperation) -> str:
    if op.kind == "add":
        return "Add File"
    if op.kind == "delete":
        return "Delete File"
    return "update"
