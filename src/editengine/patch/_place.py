"""Where a hunk goes in a file's text: one search/replace edit run through the cascade.

Every hunk is its before-text -> its after-text, so it gets the cascade's rules: an
ambiguous place is refused, a re-indented quote is re-indented back, the file's line
endings, BOM and final newline are kept, and a hunk already applied is a no-op. Where it is
sought:

1. ``@@`` anchors first: inside the anchor line's block, then from the anchor line to the
   end of the file; a hunk the anchor region cannot place is sought in the whole file;
2. ``*** End of File``: at the end of the file first;
3. the whole file. In the ordered formats (unified diff, ``apply_patch``), when the whole
   file holds the hunk in more than one place, the text after the previous hunk decides if
   it holds exactly one of them (hunks are written in file order).

A place found only loosely is refused when writing there would rewrite a context line,
spell out an elision, or when the new lines already stand elsewhere (:mod:`._hunk_rules`).
"""

from __future__ import annotations

from typing import Any

from editengine._errors import AmbiguousMatch, EditError, MatchError, NoMatch
from editengine._results import Region, TextEdit
from editengine.patch._file_lines import FileLines
from editengine.patch._hunk_rules import (
    add_lines,
    applied_elsewhere,
    as_fragment,
    cursor_after,
    keep_line_endings,
    new_lines_stand_at,
    rewritten_context,
    same_places,
    spells_out_what_is_there,
    splits_a_line,
    text_at,
    without_blank_context_edges,
    without_final_newline,
    without_trailing_blank_context,
)
from editengine.patch._lines import whole_line_cascade
from editengine.patch._model import Hunk

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


class HunkPlacer:
    """Where each hunk goes in a file's text, by the cascade, and when a loose place is refused.

    ``ordered``: hunks are written in file order (unified diff, ``apply_patch``), so when the
    whole file holds a hunk in several places, the text after the previous hunk may decide.
    """

    def __init__(self, cascade: Any, *, ordered: bool) -> None:
        self.cascade = cascade
        self.lines_cascade = whole_line_cascade(cascade)
        self.ordered = ordered
        self._current = cascade  # the cascade of the search under way (whole lines, or not)

    def place(self, content: str, hunk: Hunk, cursor: int) -> tuple[TextEdit, int]:
        """The edit for ``hunk`` and the line the next hunk's search may start from."""
        if hunk.is_addition:
            return add_lines(content, hunk, cursor)
        hunk = without_blank_context_edges(hunk)
        try:
            edit = self._seek_whole_lines(content, hunk, cursor)
        except NoMatch:
            trimmed = without_trailing_blank_context(hunk)
            if trimmed is None:
                raise
            edit = self._seek_whole_lines(content, trimmed, cursor)
        rewritten = rewritten_context(content, hunk, edit)
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
        if spells_out_what_is_there(content, hunk, edit):
            raise NoMatch(
                "The hunk replaces an elision marker ('...') with lines the file already "
                "holds elsewhere, so the marker stands for no lines here and writing them "
                "would duplicate that code; nothing was changed.",
                hint="Quote the lines to change instead of an elision marker.",
                closest=edit.spans,
                trace=edit.trace,
            )
        elsewhere = new_lines_stand_at(content, hunk, edit)
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
        if applied_elsewhere(content, hunk, edit):
            edit = TextEdit(content, 0, "already_applied", edit.spans, True, None, edit.trace)
        if "\r" in content and not edit.no_change:
            edit = keep_line_endings(content, edit)
        return edit, cursor_after(content, edit, cursor)

    def _seek_whole_lines(self, content: str, hunk: Hunk, cursor: int) -> TextEdit:
        """The hunk placed as whole lines; failing that, as the part of a line its text
        quotes (a SEARCH block holding ``x = 1`` of ``    x = 1  # one``)."""
        try:
            edit = self._seek(content, hunk.before, hunk.after, hunk, cursor, self.lines_cascade)
        except NoMatch as error:
            partial = as_fragment(hunk)
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
        partial = without_final_newline(hunk)
        if partial is not None and edit.strategy != "exact" and not edit.no_change:
            # One line, placed only by a tolerant tier: if the same text also begins other
            # lines, the model may have cut the line it meant short. Refuse, as edit does.
            try:
                self._seek(content, partial.before, partial.after, partial, cursor)
            except AmbiguousMatch:
                raise
            except MatchError:
                pass
        if splits_a_line(content, edit, hunk):
            partial = without_final_newline(hunk)
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
        old = hunk.before_lf.splitlines(keepends=True)
        new = hunk.after_lf.splitlines(keepends=True)
        head = 0
        while head < min(len(old), len(new)) and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        # The changed lines begin and end on text, not on a blank line a tier might trim;
        # lines only added after (or before) the context have no old line at that edge, so
        # the edge moves back onto the nearest context line.
        while head and (not text_at(old, head) or (head < len(new) and not new[head].strip())):
            head -= 1
        while tail and (
            not text_at(old, len(old) - 1 - tail)
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
        lines = FileLines(content)
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
        lines = FileLines(content)
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
        self, lines: FileLines, edit: TextEdit, narrowed_by: str, before: str, after: str
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
        if not places or same_places(places, edit):
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

    def _in(self, lines: FileLines, start: int, end: int, before: str, after: str) -> TextEdit:
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
