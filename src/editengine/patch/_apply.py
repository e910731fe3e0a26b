"""Apply a parsed :class:`~editengine.patch._model.Patch` to file contents; pure, no I/O.

Every hunk is one search/replace edit (its before-text -> its after-text) run through the
cascade, so it gets the cascade's rules: an ambiguous place is refused, a re-indented quote
is re-indented back, the file's line endings, BOM and final newline are kept, and a hunk
already applied is a no-op. Hunks of one file apply in order, each to the text the previous
ones left. Where a hunk is sought:

1. ``@@`` anchors first: inside the anchor line's block, then from the anchor line to the
   end of the file; a hunk the anchor region cannot place is sought in the whole file;
2. ``*** End of File``: at the end of the file first;
3. the whole file. In the ordered formats (unified diff, ``apply_patch``), when the whole
   file holds the hunk in more than one place, the text after the previous hunk decides if
   it holds exactly one of them (hunks are written in file order).

A hunk with no before-text adds its after-text at the end of the file (after the anchor
line when it has one). Nothing here writes a file: the result maps each touched path to its
new content (``None`` when deleted).

Why one long module: where a hunk is sought and when a loose placement is refused (anchors,
end of file, order, context a loose match would rewrite, elisions, new lines standing
elsewhere) are one decision procedure; split, its rules would be read in five places.
"""

from __future__ import annotations

import difflib
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from editengine._errors import (
    AmbiguousMatch,
    BadRequest,
    EditError,
    FileError,
    FileNotFound,
    MatchError,
    NoMatch,
    PatchFailed,
    PathOutsideWorkspace,
)
from editengine._results import Region, TextEdit, TierAttempt
from editengine._text import NormalizedText, ascii_punctuation, to_lf
from editengine.matching import _already_applied as already_applied
from editengine.patch._lines import whole_line_cascade
from editengine.patch._model import FileOperation, Hunk, Patch

# (path, content, hunk, error) -> the fixer's checked edit, or None to keep the error
HunkFixer = Callable[[str, str, Hunk, NoMatch], "TextEdit | None"]
ChangeKind = Literal["update", "add", "delete"]
_ORDERED_FORMATS = ("udiff", "apply_patch")
# Tiers that re-indent the replacement: where context lines indented unlike the changed
# lines would shift lines the hunk does not change.
_REINDENTING = (
    "line_trimmed",
    "boundary_trim",
    "whitespace",
    "unicode_punctuation",
    "unescape",
    "block_anchor",
)


@dataclass(frozen=True)
class HunkOutcome:
    """How one hunk was placed: ``strategy`` is the cascade tier (or ``append``/``insert``),
    ``spans`` the replaced lines of the file as the previous hunks left it (1-based)."""

    path: str
    index: int
    line: int
    strategy: str
    spans: tuple[Region, ...] = ()
    no_change: bool = False
    corrected_by_fixer: bool = False
    trace: tuple[TierAttempt, ...] = field(default=(), repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "hunk": self.index,
            "line": self.line,
            "strategy": self.strategy,
            "spans": [region.to_dict() for region in self.spans],
            "no_change": self.no_change,
            "corrected_by_fixer": self.corrected_by_fixer,
        }


@dataclass(frozen=True)
class FileChange:
    """One touched path: its content before (``None``: did not exist) and after (``None``:
    deleted). ``moved_to``/``moved_from`` link the two sides of a move."""

    path: str
    old_content: str | None
    new_content: str | None
    moved_to: str | None = None
    moved_from: str | None = None

    @property
    def kind(self) -> ChangeKind:
        if self.old_content is None:
            return "add"
        if self.new_content is None:
            return "delete"
        return "update"

    @property
    def no_change(self) -> bool:
        return self.old_content == self.new_content


@dataclass(frozen=True)
class PatchResult:
    """What a patch did (or, for a dry run, would do).

    ``files`` maps every path the patch touched to its new content (``None`` when deleted);
    ``hunks`` says how each hunk was placed. On the engine, ``results`` holds one
    :class:`~editengine.EditResult` per changed file, ``diff`` the combined diff.
    """

    format: str
    files: dict[str, str | None]
    changes: tuple[FileChange, ...]
    hunks: tuple[HunkOutcome, ...]
    summary: str = ""
    diff: str = ""
    dry_run: bool = False
    results: tuple[Any, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def strategy(self) -> str:
        """The strategies the hunks used, in first-use order, joined by ``+``."""
        names: list[str] = []
        for hunk in self.hunks:
            if hunk.strategy not in names:
                names.append(hunk.strategy)
        return "+".join(names) or "no_op"

    @property
    def no_change(self) -> bool:
        return all(change.no_change for change in self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "summary": self.summary,
            "strategy": self.strategy,
            "no_change": self.no_change,
            "dry_run": self.dry_run,
            "files": dict(self.files),
            "hunks": [hunk.to_dict() for hunk in self.hunks],
            "diff": self.diff,
            "notes": list(self.notes),
        }


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
        self.cascade = cascade
        self.lines_cascade = whole_line_cascade(cascade)
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
            if op.content is not None and not _same_lines(current, op.content):
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
                edit, cursor = self._place(content, hunk, cursor)
                corrected = False
                if self.ordered and previous_start is not None:
                    _check_order(edit, previous_start)
            except NoMatch as error:
                fixed = self.fix(op.path, content, hunk, error) if self.fix else None
                if fixed is None:
                    raise _failed(op, error, index, hunk) from error
                edit, cursor, corrected = fixed, _cursor_after(content, fixed, cursor), True
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

    # ------------------------------------------------------------------ placing a hunk

    def _place(self, content: str, hunk: Hunk, cursor: int) -> tuple[TextEdit, int]:
        """The edit for ``hunk`` and the line the next hunk's search may start from."""
        if hunk.is_addition:
            return _add_lines(content, hunk, cursor)
        hunk = _without_blank_context_edges(hunk)
        try:
            edit = self._seek_whole_lines(content, hunk, cursor)
        except NoMatch:
            trimmed = _without_trailing_blank_context(hunk)
            if trimmed is None:
                raise
            edit = self._seek_whole_lines(content, trimmed, cursor)
        rewritten = _rewritten_context(content, hunk, edit)
        if rewritten is not None:
            span = edit.spans[0].describe()
            raise NoMatch(
                f"The hunk's old lines match {span} only loosely ({edit.strategy}), and "
                f"writing its new lines there would also change the context line "
                f"{rewritten!r}, which the hunk keeps; nothing was changed.",
                hint="Copy the hunk's context and '-' lines exactly from the file.",
                closest=edit.spans,
                trace=edit.trace,
            )
        if _spells_out_what_is_there(content, hunk, edit):
            raise NoMatch(
                "The hunk replaces an elision marker ('...') with lines the file already "
                "holds elsewhere, so the marker stands for no lines here and writing them "
                "would duplicate that code; nothing was changed.",
                hint="Quote the lines to change instead of an elision marker.",
                closest=edit.spans,
                trace=edit.trace,
            )
        elsewhere = _new_lines_stand_at(content, hunk, edit)
        if elsewhere is not None and edit.strategy == "exact":
            raise AmbiguousMatch(
                f"The hunk's old lines stand at {edit.spans[0].describe()}, but its new lines "
                f"already stand at {elsewhere.describe()}: it may have been applied there "
                "before, or be meant here; nothing was changed.",
                candidates=(*edit.spans, elsewhere),
                tier="exact",
                hint="Add context lines that tell the two places apart.",
                trace=edit.trace,
            )
        if _applied_elsewhere(content, hunk, edit):
            edit = TextEdit(content, 0, "already_applied", edit.spans, True, None, edit.trace)
        if "\r" in content and not edit.no_change:
            edit = _keep_line_endings(content, edit)
        return edit, _cursor_after(content, edit, cursor)

    def _seek_whole_lines(self, content: str, hunk: Hunk, cursor: int) -> TextEdit:
        """The hunk placed as whole lines; failing that, as the part of a line its text
        quotes (a SEARCH block holding ``x = 1`` of ``    x = 1  # one``)."""
        try:
            edit = self._seek(content, hunk.before, hunk.after, hunk, cursor, self.lines_cascade)
        except NoMatch as error:
            partial = _as_fragment(hunk)
            if partial is None:
                raise
            # A quote of several lines still starts at a line start (only its last line may
            # be cut short): found inside a line it would be written into that line.
            cascade = None
            if "\n" in partial.before:
                cascade = whole_line_cascade(self.cascade, whole_end=False)
            try:
                return self._seek(content, partial.before, partial.after, partial, cursor, cascade)
            except MatchError:
                raise error from None
        partial = _without_final_newline(hunk)
        if partial is not None and edit.strategy != "exact" and not edit.no_change:
            # One line, placed only by a tolerant tier: if the same text also begins other
            # lines, the model may have cut the line it meant short. Refuse, as edit does.
            try:
                self._seek(content, partial.before, partial.after, partial, cursor)
            except AmbiguousMatch:
                raise
            except MatchError:
                pass
        if _splits_a_line(content, edit, hunk):
            partial = _without_final_newline(hunk)
            if partial is not None:
                return self._seek(content, partial.before, partial.after, partial, cursor)
            raise NoMatch(
                "The hunk's old lines match only part of a line, and writing its new lines "
                "there would split that line; nothing was changed.",
                hint="Copy the old lines whole from the file.",
                trace=edit.trace,
            )
        return self._by_core(content, hunk, edit)

    def _by_core(self, content: str, hunk: Hunk, edit: TextEdit) -> TextEdit:
        """A hunk placed loosely: its changed lines alone, applied inside the place found.

        The context lines only say where; re-indenting them with the changed lines (when the
        model indented the two differently) would move lines the hunk does not change. The
        changed lines alone are the edit ``edit`` would make; when they cannot be placed
        alone inside the span, the whole hunk's edit stands.
        """
        if edit.strategy not in _REINDENTING or edit.no_change or len(edit.spans) != 1:
            return edit
        old = to_lf(hunk.before).splitlines(keepends=True)
        new = to_lf(hunk.after).splitlines(keepends=True)
        head = 0
        while head < min(len(old), len(new)) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        # The changed lines begin and end on text, not on a blank line a tier might trim;
        # lines only added after (or before) the context have no old line at that edge, so
        # the edge moves back onto the nearest context line.
        while head and (not _text_at(old, head) or (head < len(new) and not new[head].strip())):
            head -= 1
        while tail and (
            not _text_at(old, len(old) - 1 - tail)
            or (len(new) - 1 - tail >= 0 and not new[len(new) - 1 - tail].strip())
        ):
            tail -= 1
        if not head and not tail:
            return edit
        core_old = "".join(old[head : len(old) - tail])
        core_new = "".join(new[head : len(new) - tail])
        if not core_old.strip():
            return edit
        span = edit.spans[0]
        lines = _Lines(content)
        self._current = self.lines_cascade
        try:
            core = self._in(lines, span.start_line - 1, span.end_line, core_old, core_new)
        except EditError:
            return edit
        if core.no_change:
            return edit
        return TextEdit(
            core.new_content, core.replacements, edit.strategy, edit.spans, False, edit.note,
            edit.trace,
        )  # fmt: skip

    def _seek(
        self,
        content: str,
        before: str,
        after: str,
        hunk: Hunk,
        cursor: int,
        cascade: Any = None,
    ) -> TextEdit:
        lines = _Lines(content)
        self._current = cascade or self.cascade
        if hunk.anchors:
            anchor = lines.find_anchor(hunk.anchors, cursor)
            if anchor is not None:
                for start, end in (
                    (anchor, lines.block_end(anchor)),
                    (anchor, lines.count),
                ):
                    try:
                        edit = self._in(lines, start, end, before, after)
                    except NoMatch:
                        continue
                    return self._unless_exact_elsewhere(lines, edit, "the @@ anchor", before, after)
        if hunk.at_end:
            needed = before.count("\n") + lines.trailing_blank_lines()
            start = max(0, lines.count - needed)
            try:
                edit = self._in(lines, start, lines.count, before, after)
            except MatchError:
                pass
            else:
                where = "'*** End of File'"
                return self._unless_exact_elsewhere(lines, edit, where, before, after)
        try:
            return self._in(lines, 0, lines.count, before, after)
        except AmbiguousMatch as error:
            if not self.ordered or cursor <= 0:
                raise
            try:
                edit = self._in(lines, cursor, lines.count, before, after)
            except MatchError:
                raise error from None
            if edit.strategy != error.tier:
                # Only one of the places the ambiguous tier found may decide, not a looser
                # tier's guess in the rest of the file.
                raise error from None
            return edit

    def _unless_exact_elsewhere(
        self, lines: _Lines, edit: TextEdit, narrowed_by: str, before: str, after: str
    ) -> TextEdit:
        """A loose match inside the narrowed region, unless the hunk stands verbatim
        elsewhere: then the region and the text disagree, and nothing is guessed."""
        if edit.strategy == "exact" or edit.no_change:
            return edit
        try:
            exact: TextEdit = self._current.edit(lines.text, before, after, match_mode="exact")
            places = exact.spans
        except AmbiguousMatch as error:
            places = error.candidates
        except EditError:
            return edit
        if not places or _same_places(places, edit):
            return edit
        where = ", ".join(region.describe() for region in places)
        raise AmbiguousMatch(
            f"The hunk's old lines stand exactly at {where}, but {narrowed_by} points to "
            f"{', '.join(r.describe() for r in edit.spans)}, where they only match loosely "
            f"({edit.strategy}); nothing was changed.",
            candidates=(*places, *edit.spans),
            tier="exact",
            hint="Fix the @@ line (or the copied lines) so both point to the same place.",
            trace=edit.trace,
        )

    def _in(self, lines: _Lines, start: int, end: int, before: str, after: str) -> TextEdit:
        """The cascade's edit of lines ``[start, end)``, spliced back into the whole text."""
        if start == 0 and end >= lines.count:
            edit: TextEdit = self._current.edit(lines.text, before, after)
            return edit
        a, b = lines.offset(start), lines.offset(end)
        edit = self._current.edit(lines.text[a:b], before, after)
        spans = tuple(
            Region(r.start_line + start, r.end_line + start, r.similarity, r.text)
            for r in edit.spans
        )
        return TextEdit(
            new_content=lines.text[:a] + edit.new_content + lines.text[b:],
            replacements=edit.replacements,
            strategy=edit.strategy,
            spans=spans,
            no_change=edit.no_change,
            note=edit.note,
            trace=edit.trace,
        )

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


class _Lines:
    """A text's lines (ending at ``\\n``; the text keeps its own endings), found lazily."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.count = _line_count(text)
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        if self._starts is None:
            starts = [0, *(m.end() for m in _NEWLINE.finditer(self.text))]
            self._starts = starts[: self.count]
        return self._starts

    def offset(self, line: int) -> int:
        return self.starts[line] if line < self.count else len(self.text)

    def line(self, index: int) -> str:
        return self.text[self.offset(index) : self.offset(index + 1)].rstrip("\r\n")

    def find_anchor(self, anchors: tuple[str, ...], cursor: int) -> int | None:
        """The line of the last anchor, each sought after the previous one (from the
        cursor first, then from the top)."""
        position: int | None = None
        for anchor in anchors:
            start = 0 if position is None else position + 1
            found = None
            if position is None and cursor > 0:
                found = self._find_line(anchor, cursor)
            if found is None:
                found = self._find_line(anchor, start)
            if found is None:
                return None
            position = found
        return position

    def _find_line(self, anchor: str, start: int) -> int | None:
        wanted = _loose(anchor)
        if not wanted:
            return None
        candidates = range(start, self.count)
        for index in candidates:
            if _loose(self.line(index)) == wanted:
                return index
        for index in candidates:
            if len(wanted) >= 8 and _loose(self.line(index)).startswith(wanted):
                return index
        return None

    def block_end(self, anchor: int) -> int:
        """The line after the anchor's block: the first non-blank line indented no deeper
        than the anchor (a closing bracket at the anchor's depth still belongs to it)."""
        depth = _indent(self.line(anchor))
        for index in range(anchor + 1, self.count):
            line = self.line(index)
            if not line.strip():
                continue
            if _indent(line) <= depth:
                return index + 1 if line.strip()[0] in ")]}" else index
        return self.count

    def trailing_blank_lines(self) -> int:
        count = 0
        for index in range(self.count - 1, -1, -1):
            if self.line(index).strip():
                break
            count += 1
        return count


def _add_lines(content: str, hunk: Hunk, cursor: int) -> tuple[TextEdit, int]:
    """A hunk with no before-text: after the anchor line, or at the end of the file."""
    source = NormalizedText.of(content)
    addition = to_lf(hunk.after)
    lines = _Lines(content)
    if hunk.anchors and not hunk.at_end:
        anchor = lines.find_anchor(hunk.anchors, cursor)
        if anchor is None:
            raise NoMatch(
                f"The anchor line {hunk.anchors[-1]!r} is not in the file, so the added "
                "lines have no place.",
                hint="Give an '@@' line copied from the file, or context lines around the "
                "addition.",
            )
        at = lines.offset(anchor + 1)
        following = to_lf(content[at:])
        if following.startswith(addition):
            return _unchanged(content, "already_applied", anchor + 1), anchor + 1
        piece = source.styled(addition)
        if at == len(content) and content and not content.endswith(("\n", "\r")):
            piece = source.styled("\n") + piece
        new = content[:at] + piece + content[at:]
        return (
            TextEdit(new, 1, "insert", (Region(anchor + 2, anchor + 1 + addition.count("\n")),)),
            anchor + 1 + addition.count("\n"),
        )
    if hunk.hint_line is not None and 0 <= hunk.hint_line < lines.count:
        # A diff hunk of added lines only, whose "@@ -N" says they go after line N: a line
        # number is all there is to place them, and numbers are never trusted.
        raise NoMatch(
            f"The hunk only adds lines, with no context line around them; its '@@' header "
            f"puts them after line {hunk.hint_line}, but a line number alone does not say "
            "where they go. Nothing was changed.",
            hint="Give two or three unchanged lines around the added lines as context.",
        )
    body = source.text
    if body.endswith(addition) and (
        len(body) == len(addition) or body[: -len(addition)].endswith("\n")
    ):
        return _unchanged(content, "already_applied", lines.count), lines.count
    piece = source.styled(addition)
    if content and not content.endswith(("\n", "\r")):
        piece = source.styled("\n") + piece
    if not content:
        piece = addition
    new = content + piece
    first = lines.count + 1
    added = addition.count("\n")
    return TextEdit(new, 1, "append", (Region(first, first + max(added, 1) - 1),)), first + added


# A line ends at CRLF, LF or a lone CR, as the cascade reads lines (text.to_lf).
_NEWLINE = re.compile("\r\n|\r|\n")


def _same_lines(content: str, quoted: str) -> bool:
    """Whether ``quoted`` (a diff's '-' lines) is ``content``, whatever the line endings and
    the final newline."""
    return to_lf(content).removeprefix("\ufeff").rstrip("\n") == to_lf(quoted).rstrip("\n")


def _text_at(lines: list[str], index: int) -> bool:
    """Whether ``lines[index]`` exists and holds text (not blank)."""
    return 0 <= index < len(lines) and bool(lines[index].strip())


def _line_count(text: str) -> int:
    """Lines of ``text``: a final line without its newline counts."""
    if not text:
        return 0
    text = to_lf(text)
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _same_places(places: tuple[Region, ...], edit: TextEdit) -> bool:
    """The verbatim places are the loose edit's own lines (nothing disagrees)."""
    return {(r.start_line, r.end_line) for r in places} <= {
        (r.start_line, r.end_line) for r in edit.spans
    }


def _keep_line_endings(content: str, edit: TextEdit) -> TextEdit:
    """The edit with the lines it left equal (a hunk's context) ending as they did: the
    cascade writes its replacement in the file's dominant line ending, which would change a
    mixed-ending file's context lines."""
    old = content.splitlines(keepends=True)
    new = edit.new_content.splitlines(keepends=True)
    limit = min(len(old), len(new))
    tail = 0
    while tail < limit and old[-1 - tail].rstrip("\r\n") == new[-1 - tail].rstrip("\r\n"):
        tail += 1
    head = 0
    while head < limit - tail and old[head].rstrip("\r\n") == new[head].rstrip("\r\n"):
        head += 1
    rebuilt = "".join(old[:head] + new[head : len(new) - tail] + old[len(old) - tail :])
    if rebuilt == edit.new_content:
        return edit
    return TextEdit(
        rebuilt, edit.replacements, edit.strategy, edit.spans, rebuilt == content, edit.note,
        edit.trace,
    )  # fmt: skip


def _unchanged(content: str, strategy: str, line: int) -> TextEdit:
    return TextEdit(content, 0, strategy, (), no_change=True)


def _check_order(edit: TextEdit, previous_start: int) -> None:
    """In a diff, hunks come in file order: a hunk found wholly above the previous one was
    found in the wrong place (its few context lines also stand there)."""
    if edit.no_change or not edit.spans:
        return
    end = max(region.end_line for region in edit.spans)
    if end < previous_start:
        where = ", ".join(region.describe() for region in edit.spans)
        raise AmbiguousMatch(
            f"The hunk matches {where}, above the previous hunk (line {previous_start}); "
            "hunks of a diff are written in file order, so this place is doubtful and "
            "nothing was changed.",
            candidates=edit.spans,
            tier=edit.strategy,
            hint="Give the hunk more context lines, or order the hunks as in the file.",
            trace=edit.trace,
        )


def _cursor_after(content: str, edit: TextEdit, cursor: int) -> int:
    """The line (0-based) just after the text the edit wrote, in its new content."""
    if not edit.spans:
        return cursor
    old_lines = _line_count(content)
    new_lines = _line_count(edit.new_content)
    end = max(region.end_line for region in edit.spans)
    return max(0, new_lines - (old_lines - end))


def _splits_a_line(content: str, edit: TextEdit, hunk: Hunk) -> bool:
    """The edit replaced as many lines as the hunk's old lines, yet the file's line count
    moved by more than the hunk's: a tolerant tier matched the old lines' final newline
    against spaces inside a line, and the write would break that line in two."""
    if edit.no_change or len(edit.spans) != 1 or not hunk.before.endswith("\n"):
        return False
    span = edit.spans[0]
    old_lines = hunk.before.count("\n")
    if span.end_line - span.start_line + 1 != old_lines:
        return False
    expected = _line_count(content) - old_lines + to_lf(hunk.after).count("\n")
    return _line_count(edit.new_content) != expected


def _without_final_newline(hunk: Hunk) -> Hunk | None:
    """The hunk as a quote of part of a line: one line each side, final newline dropped."""
    if hunk.before.count("\n") != 1 or not hunk.before.endswith("\n"):
        return None
    if not hunk.after.endswith("\n"):
        return None
    return Hunk(
        hunk.before[:-1], hunk.after[:-1], hunk.line, hunk.anchors, hunk.at_end, hunk.hint_line
    )


def _as_fragment(hunk: Hunk) -> Hunk | None:
    """The hunk as a quote that may begin and end inside lines (what a SEARCH block holding
    part of a line, or a diff made from one, means): the final newline of each side
    dropped, placed by the cascade as ``edit`` places old_string."""
    if not hunk.before.endswith("\n") or not hunk.after.endswith("\n"):
        return None
    if not hunk.before[:-1].strip():
        return None
    return Hunk(
        hunk.before[:-1], hunk.after[:-1], hunk.line, hunk.anchors, hunk.at_end, hunk.hint_line
    )


def _without_blank_context_edges(hunk: Hunk) -> Hunk:
    """The hunk without the blank (or ``...`` elision) context lines that begin or end it,
    on both sides alike.

    They say little about where the hunk goes, and a tier that trims such lines off the
    quote's edges (boundary_trim, elision) would write them back as new lines.
    """
    old = to_lf(hunk.before).splitlines(keepends=True)
    new = to_lf(hunk.after).splitlines(keepends=True)
    head = 0
    while (
        head < min(len(old), len(new)) - 1 and old[head] == new[head] and _says_nothing(old[head])
    ):
        head += 1
    tail = 0
    while (
        tail < min(len(old), len(new)) - head - 1
        and old[-1 - tail] == new[-1 - tail]
        and _says_nothing(old[-1 - tail])
    ):
        tail += 1
    if not head and not tail:
        return hunk
    before = "".join(old[head : len(old) - tail])
    after = "".join(new[head : len(new) - tail])
    if not before.strip() or _says_nothing_at_all(before):
        return hunk
    return Hunk(before, after, hunk.line, hunk.anchors, hunk.at_end, hunk.hint_line)


def _says_nothing(line: str) -> bool:
    return not line.strip() or _is_marker(line.rstrip("\n"))


def _says_nothing_at_all(text: str) -> bool:
    return all(_says_nothing(line) for line in text.splitlines())


def _is_marker(line: str) -> bool:
    """An elision marker line (``# ... existing code ...``)."""
    try:
        from editengine.matching._elision import is_marker
    except ImportError:  # pragma: no cover - the tier module moved
        return line.strip() in ("...", "# ...", "// ...")
    return bool(is_marker(line))


def _rewritten_context(content: str, hunk: Hunk, edit: TextEdit) -> str | None:
    """A context line the hunk keeps, standing verbatim in the place it matched, that the
    edit would nonetheless change (a tolerant tier rewriting a line's spacing); ``None``
    when every such line survives."""
    if edit.no_change or edit.strategy == "exact" or len(edit.spans) != 1:
        return None
    old = to_lf(hunk.before).splitlines()
    new = to_lf(hunk.after).splitlines()
    kept: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        # A removed line may stand in the file spelled as a kept one (the quoting mistake
        # the tier forgave): count removed lines by their spelling-free key.
        if tag == "equal":
            kept.update(old[i1:i2])
        else:
            removed.update(_spelling_free(line) for line in old[i1:i2])
    span = edit.spans[0]
    before_lines = to_lf(content).split("\n")
    after_lines = to_lf(edit.new_content).split("\n")
    start, end = span.start_line - 1, span.end_line
    grown = len(after_lines) - len(before_lines)
    region_before = Counter(before_lines[start:end])
    region_after = Counter(after_lines[start : end + grown])
    for line in kept:
        if not line.strip() or line not in region_before:
            continue
        if region_after[line] < region_before[line] - removed[_spelling_free(line)]:
            return line
    return None


def _spelling_free(line: str) -> str:
    return "".join(ascii_punctuation(line).split())


def _spells_out_what_is_there(content: str, hunk: Hunk, edit: TextEdit) -> bool:
    """An elision match whose hunk removes a marker line and adds a block of lines the file
    already holds verbatim somewhere else than the matched place, and not within it: the
    marker matched a gap that is not those lines, and the write would repeat existing code.
    (Where the block also stands inside the matched place, the marker stood for those very
    lines and the hunk only spells them out.)"""
    if edit.strategy != "elision" or edit.no_change or len(edit.spans) != 1:
        return False
    old = to_lf(hunk.before).splitlines()
    new = to_lf(hunk.after).splitlines()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    text = "\n" + to_lf(content)
    span = edit.spans[0]
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag not in ("replace", "insert"):
            continue
        if not any(_is_marker(line) for line in old[i1:i2]):
            continue
        added = new[j1:j2]
        if sum(1 for line in added if line.strip()) < 2:
            continue
        block = "\n" + "\n".join(added) + "\n"
        inside = outside = False
        at = text.find(block)
        while at != -1:
            first = text.count("\n", 0, at) + 1  # 1-based line of the block's first line
            last = first + len(added) - 1
            if first < span.start_line or last > span.end_line:
                outside = True
            else:
                inside = True
            at = text.find(block, at + 1)
        if outside and not inside:
            return True
    return False


def _new_lines_stand_at(content: str, hunk: Hunk, edit: TextEdit) -> Region | None:
    """Where the hunk's new lines already stand, verbatim and whole, apart from the place
    the edit changes (``None`` when they do not)."""
    if edit.no_change or len(edit.spans) != 1:
        return None
    after = to_lf(hunk.after)
    if sum(1 for line in after.splitlines() if line.strip()) < 2:
        return None
    text = to_lf(content)
    span = edit.spans[0]
    at = text.find(after)
    while at != -1:
        if at == 0 or text[at - 1] == "\n":
            first = text.count("\n", 0, at) + 1
            last = first + after.count("\n") - 1
            if last < span.start_line or first > span.end_line:
                return Region(first, last)
        at = text.find(after, at + 1)
    return None


def _applied_elsewhere(content: str, hunk: Hunk, edit: TextEdit) -> bool:
    """A loose match for the old lines while the new lines already stand, verbatim and
    whole, in the file: the hunk was applied before; the loose match is a look-alike."""
    if edit.no_change or edit.strategy == "exact":
        return False
    after = to_lf(hunk.after)
    if sum(1 for line in after.splitlines() if line.strip()) < 2:
        return False
    # The rule of every path (matching._already_applied): the lines the hunk adds or
    # rewrites must stand, byte for byte; a deletion's kept context proves nothing.
    return already_applied.stands_verbatim(to_lf(content), to_lf(hunk.before), after)


def _without_trailing_blank_context(hunk: Hunk) -> Hunk | None:
    """The hunk without the blank context lines that end it (a blank line before the end of
    the patch is read as one), or ``None`` when it has none."""
    before, after = hunk.before, hunk.after
    changed = False
    while before.endswith("\n\n") and after.endswith("\n\n"):
        before, after = before[:-1], after[:-1]
        changed = True
    if not changed:
        return None
    return Hunk(before, after, hunk.line, hunk.anchors, hunk.at_end, hunk.hint_line)


def _loose(line: str) -> str:
    return " ".join(ascii_punctuation(line).split())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


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
