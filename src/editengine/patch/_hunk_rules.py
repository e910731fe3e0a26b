"""The rules a placed hunk is held to, each a small pure function of the file and the hunk.

Additions (a hunk with no before-text) go after their anchor line or at the end of the file.
A loose place is refused when writing the hunk there would rewrite a context line the hunk
keeps, replace an elision marker with lines the file already holds, or split a line; a hunk
whose new lines stand where it was meant is already applied. Hunks of the ordered formats
must come in file order. A hunk retried without its blank context edges or its final newline
is made here too.
"""

from __future__ import annotations

import difflib
from collections import Counter

from editengine._errors import AmbiguousMatch, NoMatch
from editengine._results import Region, TextEdit
from editengine._text import NormalizedText, ascii_punctuation, to_lf
from editengine.matching import _already_applied as already_applied
from editengine.patch._file_lines import FileLines, line_count
from editengine.patch._model import Hunk


def add_lines(content: str, hunk: Hunk, cursor: int) -> tuple[TextEdit, int]:
    """A hunk with no before-text: after the anchor line, or at the end of the file."""
    source = NormalizedText.of(content)
    addition = hunk.after_lf
    lines = FileLines(content)
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


def same_lines(content: str, quoted: str) -> bool:
    """Whether ``quoted`` (a diff's '-' lines) is ``content``, whatever the line endings and
    the final newline."""
    return to_lf(content).removeprefix("\ufeff").rstrip("\n") == to_lf(quoted).rstrip("\n")


def text_at(lines: list[str], index: int) -> bool:
    """Whether ``lines[index]`` exists and holds text (not blank)."""
    return 0 <= index < len(lines) and bool(lines[index].strip())


def same_places(places: tuple[Region, ...], edit: TextEdit) -> bool:
    """The verbatim places are the loose edit's own lines (nothing disagrees)."""
    return {(r.start_line, r.end_line) for r in places} <= {
        (r.start_line, r.end_line) for r in edit.spans
    }


def keep_line_endings(content: str, edit: TextEdit) -> TextEdit:
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


def check_order(edit: TextEdit, previous_start: int) -> None:
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


def cursor_after(content: str, edit: TextEdit, cursor: int) -> int:
    """The line (0-based) just after the text the edit wrote, in its new content."""
    if not edit.spans:
        return cursor
    old_lines = line_count(content)
    new_lines = line_count(edit.new_content)
    end = max(region.end_line for region in edit.spans)
    return max(0, new_lines - (old_lines - end))


def splits_a_line(content: str, edit: TextEdit, hunk: Hunk) -> bool:
    """The edit replaced as many lines as the hunk's old lines, yet the file's line count
    moved by more than the hunk's: a tolerant tier matched the old lines' final newline
    against spaces inside a line, and the write would break that line in two."""
    if edit.no_change or len(edit.spans) != 1 or not hunk.before.endswith("\n"):
        return False
    span = edit.spans[0]
    old_lines = hunk.before.count("\n")
    if span.end_line - span.start_line + 1 != old_lines:
        return False
    expected = line_count(content) - old_lines + hunk.after_lf.count("\n")
    return line_count(edit.new_content) != expected


def without_final_newline(hunk: Hunk) -> Hunk | None:
    """The hunk as a quote of part of a line: one line each side, final newline dropped."""
    if hunk.before.count("\n") != 1 or not hunk.before.endswith("\n"):
        return None
    if not hunk.after.endswith("\n"):
        return None
    return Hunk(
        hunk.before[:-1], hunk.after[:-1], hunk.line, hunk.anchors, hunk.at_end, hunk.hint_line
    )


def as_fragment(hunk: Hunk) -> Hunk | None:
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


def without_blank_context_edges(hunk: Hunk) -> Hunk:
    """The hunk without the blank (or ``...`` elision) context lines that begin or end it,
    on both sides alike.

    They say little about where the hunk goes, and a tier that trims such lines off the
    quote's edges (boundary_trim, elision) would write them back as new lines.
    """
    old = hunk.before_lf.splitlines(keepends=True)
    new = hunk.after_lf.splitlines(keepends=True)
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


def rewritten_context(content: str, hunk: Hunk, edit: TextEdit) -> str | None:
    """A context line the hunk keeps, standing verbatim in the place it matched, that the
    edit would nonetheless change (a tolerant tier rewriting a line's spacing); ``None``
    when every such line survives."""
    if edit.no_change or edit.strategy == "exact" or len(edit.spans) != 1:
        return None
    old = hunk.before_lf.splitlines()
    new = hunk.after_lf.splitlines()
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


def spells_out_what_is_there(content: str, hunk: Hunk, edit: TextEdit) -> bool:
    """An elision match whose hunk removes a marker line and adds a block of lines the file
    already holds verbatim somewhere else than the matched place, and not within it: the
    marker matched a gap that is not those lines, and the write would repeat existing code.
    (Where the block also stands inside the matched place, the marker stood for those very
    lines and the hunk only spells them out.)"""
    if edit.strategy != "elision" or edit.no_change or len(edit.spans) != 1:
        return False
    old = hunk.before_lf.splitlines()
    new = hunk.after_lf.splitlines()
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


def new_lines_stand_at(content: str, hunk: Hunk, edit: TextEdit) -> Region | None:
    """Where the hunk's new lines already stand, verbatim and whole, apart from the place
    the edit changes (``None`` when they do not)."""
    if edit.no_change or len(edit.spans) != 1:
        return None
    after = hunk.after_lf
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


def applied_elsewhere(content: str, hunk: Hunk, edit: TextEdit) -> bool:
    """A loose match for the old lines while the new lines already stand, verbatim and
    whole, in the file: the hunk was applied before; the loose match is a look-alike."""
    if edit.no_change or edit.strategy == "exact":
        return False
    after = hunk.after_lf
    if sum(1 for line in after.splitlines() if line.strip()) < 2:
        return False
    # The rule of every path (matching._already_applied): the lines the hunk adds or
    # rewrites must stand, byte for byte; a deletion's kept context proves nothing.
    return already_applied.stands_verbatim(to_lf(content), hunk.before_lf, after)


def without_trailing_blank_context(hunk: Hunk) -> Hunk | None:
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
