"""What an edit did to a file's syntax: the problems it introduced, and whether the region it
touched stopped parsing where it parsed before.

Only the text around the change is parsed, before and after (the change plus a margin,
widened to lines that start a statement at the region's own indentation), so the cost does not
grow with the file: a 100,000-line file costs what a few hundred lines do. A small file is
parsed whole. A problem is *introduced* when it stands after the edit where no problem stood
before: a place before the change keeps its line, a place after it moves by the lines the edit
added, and a place inside the change is new unless the replaced text held a problem too.
"""

from __future__ import annotations

from dataclasses import dataclass

from editengine._results import Diagnostic
from editengine.diagnostics._languages import Language, language_of
from editengine.diagnostics._parsing import UNEXPECTED, Problem, problems_in, unexpected

# Files up to this many characters are parsed whole: cheaper than choosing a window.
WHOLE_FILE_CHARS = 8 * 1024
# A window that does not parse before the edit is read again as the whole file, up to this size.
WHOLE_FILE_FALLBACK_CHARS = 4 * 1024 * 1024
# Lines of context kept on each side of the change before the window is widened to where a
# statement starts; and how far it may be widened.
MARGIN_LINES = 12
WIDEN_LINES = 400
# A line that continues or closes what the lines above opened, not a statement of its own.
_CLOSERS = ("}", ")", "]", ".", ",", "?", ":", "&&", "||", "+", "|", "'", '"', "`")
_CLOSING_WORDS = frozenset(
    [
        "else",
        "elif",
        "except",
        "finally",
        "catch",
        "end",
        "fi",
        "done",
        "esac",
        "case",
        "default",
        "then",
        "do",
        "in",
    ]
)

SOURCE = "syntax"


@dataclass(frozen=True)
class SyntaxCheck:
    """The syntax verdict on one edit of one file.

    ``introduced``: the problems the edit introduced, in the file's lines after it; ``broke``:
    the region the edit touched parsed before and does not now; ``note``: why there was no
    check (no grammar for the file type), else ``None``.
    """

    introduced: tuple[Diagnostic, ...] = ()
    broke: bool = False
    note: str | None = None


@dataclass(frozen=True)
class _Change:
    """Where two texts differ: ``start`` (same in both), the end in each, 0-based rows."""

    start: int
    old_end: int
    new_end: int
    row: int  # row of ``start``
    old_last_row: int
    new_last_row: int


def check_syntax(
    before: str, after: str, path: str | None, *, language: Language | None = None
) -> SyntaxCheck:
    """The syntax problems turning ``before`` into ``after`` introduced, in a file called
    ``path`` (only its name is read: it picks the language)."""
    language = language or language_of(path)
    if language is None:
        return SyntaxCheck(note=no_grammar_note(path))
    change = _change_between(before, after)
    if change is None:
        return SyntaxCheck()
    try:
        old_problems, new_problems = _problems_around(language, before, after, change)
    except ImportError as error:
        return SyntaxCheck(
            note=f"no syntax check: the {language.name} grammar is missing ({error})"
        )
    shift = change.new_last_row - change.old_last_row
    old_rows = {p.row for p in old_problems if not _inside(p.row, change, old=True)}
    old_inside = any(_inside(p.row, change, old=True) for p in old_problems)
    introduced: list[Problem] = []
    for problem in new_problems:
        if _inside(problem.row, change, old=False):
            if not old_inside:
                introduced.append(problem)
        elif _old_row(problem.row, change, shift) not in old_rows:
            introduced.append(problem)
    parsed_before = not any(
        change.row - 1 <= p.row <= change.old_last_row + 1 for p in old_problems
    ) and not _inside_a_macro(language, before, change)
    introduced = [_at_the_change(p, change, after) for p in introduced]
    near = any(change.row - 1 <= p.row <= change.new_last_row + 1 for p in introduced)
    broke = bool(introduced) and parsed_before and (not old_problems or near)
    return SyntaxCheck(introduced=tuple(_diagnostic(p) for p in introduced), broke=broke)


def _inside_a_macro(language: Language, before: str, change: _Change) -> bool:
    """Whether the change touched a C preprocessor macro's body (lines continued with a
    backslash): the parser reads a body as opaque text, so it never parsed as code there, and
    what an edit does to it cannot be judged."""
    if language.name not in ("c", "cpp"):
        return False
    start = _line_start(before, change.start)
    if start > 0:
        start = _line_start(before, start - 1)  # the line above continues into the change
    end = _line_end(before, max(change.start, change.old_end - 1))
    return any(line.rstrip().endswith("\\") for line in before[start:end].split("\n"))


def _at_the_change(problem: Problem, change: _Change, after: str) -> Problem:
    """A problem that starts above the change and reaches into it is placed where the change
    starts: a parser's error node often opens at the enclosing construct (the function, the
    element) while the edit is what broke it."""
    if not problem.row < change.row <= problem.end_row:
        return problem
    start = _line_start(after, change.start)
    line = _line_at(after, start)
    column = len(line) - len(line.lstrip())
    message = problem.message
    if message.startswith(UNEXPECTED):
        message = unexpected(line)
    return Problem(change.row, column, problem.end_row, problem.end_column, message)


def no_grammar_note(path: str | None) -> str:
    name = path or "this file"
    return f"no syntax check for {name}: no grammar for its file type"


def _diagnostic(problem: Problem) -> Diagnostic:
    return Diagnostic(
        line=problem.row + 1,
        column=problem.column + 1,
        end_line=problem.end_row + 1,
        end_column=problem.end_column + 1,
        severity="error",
        message=problem.message,
        source=SOURCE,
    )


def _inside(row: int, change: _Change, *, old: bool) -> bool:
    last = change.old_last_row if old else change.new_last_row
    return change.row <= row <= last


def _old_row(row: int, change: _Change, shift: int) -> int:
    return row if row < change.row else row - shift


# --------------------------------------------------------------------------- the change

_CHUNK = 4096


def _change_between(before: str, after: str) -> _Change | None:
    """The one span that differs (common prefix and suffix taken off), in linear time."""
    if before == after:
        return None
    shortest = min(len(before), len(after))
    start = 0
    while start < shortest and before[start : start + _CHUNK] == after[start : start + _CHUNK]:
        start += _CHUNK
    start = min(start, shortest)
    while start < shortest and before[start] == after[start]:
        start += 1
    room = shortest - start  # the suffix may not overlap the prefix
    tail = 0
    while (
        tail + _CHUNK <= room
        and before[len(before) - tail - _CHUNK : len(before) - tail]
        == after[len(after) - tail - _CHUNK : len(after) - tail]
    ):
        tail += _CHUNK
    while tail < room and before[len(before) - tail - 1] == after[len(after) - tail - 1]:
        tail += 1
    old_end, new_end = len(before) - tail, len(after) - tail
    row = before.count("\n", 0, start)
    return _Change(
        start=start,
        old_end=old_end,
        new_end=new_end,
        row=row,
        old_last_row=row + before.count("\n", start, max(start, old_end - 1)),
        new_last_row=row + after.count("\n", start, max(start, new_end - 1)),
    )


# --------------------------------------------------------------------------- the window


def _problems_around(
    language: Language, before: str, after: str, change: _Change
) -> tuple[list[Problem], list[Problem]]:
    """The problems of ``before`` and ``after`` in the window around ``change``, in file rows.

    The window is read first: where it parses on its own before the edit, it says what the edit
    did there, even in a file with errors elsewhere (Python's parser stops at the first one).
    """
    small = max(len(before), len(after)) <= WHOLE_FILE_CHARS
    if language.name in ("json", "toml") and small:
        # A slice of a document is not one: small documents are read whole, by both parsers.
        return problems_in(language, before), problems_in(language, after)
    if language.name == "json":
        # The decoder reads a large document whole, fast; tree-sitter would take its time.
        return (
            problems_in(language, before, tree=False),
            problems_in(language, after, tree=False),
        )
    found = _in_window(language, before, after, change, _window(before, change))
    if found is not None and found[0]:
        # Problems in the window before the edit: when they start clear of the change, a
        # window that stops short of them may parse (Python's parser stops at the first one;
        # tree-sitter's error node may run on past the change).
        old_problems = found[0]
        above = [p.row for p in old_problems if p.row < change.row]
        below = [p.row for p in old_problems if p.row > change.old_last_row]
        if len(above) + len(below) == len(old_problems):
            floor = _row_start(before, max(above) + 1) if above else 0
            ceiling = _row_start(before, min(below)) if below else len(before)
            narrower = _window(before, change, floor=floor, ceiling=ceiling)
            retried = _in_window(language, before, after, change, narrower)
            if retried is not None and not retried[0]:
                return retried
        found = None
    if found is None and len(before) <= WHOLE_FILE_FALLBACK_CHARS:
        # The window does not parse on its own (it starts inside a comment, a string, a
        # construct it cut, beside an old error): only the whole file says where the
        # problems really are.
        return problems_in(language, before), problems_in(language, after)
    return found or ([], [])


def _in_window(
    language: Language, before: str, after: str, change: _Change, window: _Window
) -> tuple[list[Problem], list[Problem]] | None:
    """The problems of the window before and after the edit, in file rows; ``None`` when the
    edit moved lines out of the block the window starts in (only whole files can tell)."""
    growth = len(after) - len(before)
    first_row = before.count("\n", 0, window.start)
    old_text = before[window.start : window.end]
    new_text = after[window.start : window.end + growth]
    prefix = window.indent if language.indented else ""
    stdlib = language.name != "toml"  # a slice of a TOML file may repeat a table: whole only
    if prefix and not _all_start_with(new_text, prefix):
        return None
    old_problems = problems_in(language, _dedent(old_text, prefix), stdlib=stdlib)
    new_problems = problems_in(language, _dedent(new_text, prefix), stdlib=stdlib)
    return _shifted(old_problems, first_row, prefix), _shifted(new_problems, first_row, prefix)


def _row_start(text: str, row: int) -> int:
    """The offset where 0-based ``row`` starts (the end of the text past its last row)."""
    position = 0
    for _ in range(row):
        found = text.find("\n", position)
        if found < 0:
            return len(text)
        position = found + 1
    return position


@dataclass(frozen=True)
class _Window:
    start: int
    end: int
    indent: str


def _window(text: str, change: _Change, *, floor: int = 0, ceiling: int | None = None) -> _Window:
    """The lines around ``change``: a margin each side, widened up to a line that starts a
    statement at the window's lowest indentation and down past what that statement holds;
    never above ``floor`` nor below ``ceiling`` (offsets of line starts)."""
    ceiling = len(text) if ceiling is None else ceiling
    start = _line_start(text, change.start)
    for _ in range(MARGIN_LINES):
        if start <= floor:
            break
        start = _line_start(text, start - 1)
    end = _line_end(text, max(change.start, change.old_end - 1))
    for _ in range(MARGIN_LINES):
        if end >= ceiling:
            break
        end = _line_end(text, end)
    lowest = min(
        (_indent_width(line) for line in text[start:end].split("\n") if line.strip()), default=0
    )
    # Up to a line that starts a statement at the window's lowest indentation.
    for _ in range(WIDEN_LINES):
        line = _line_at(text, start)
        if line.strip():
            width = _indent_width(line)
            lowest = min(lowest, width)
            if width == lowest and _starts_statement(line):
                break
        if start <= floor:
            start = _first_statement(text, start, _line_start(text, change.start), lowest)
            break
        start = _line_start(text, start - 1)
    first = _line_at(text, start)
    indent = first[: len(first) - len(first.lstrip())]
    base = _indent_width(first)
    # Down past the lines deeper than it, and the lines at its level that close it.
    for _ in range(WIDEN_LINES):
        if end >= ceiling:
            break
        line = _line_at(text, end)
        if line.strip() and (
            _indent_width(line) < base or (_indent_width(line) == base and _starts_statement(line))
        ):
            break
        end = _line_end(text, end)
    return _Window(start, end, indent)


def _first_statement(text: str, start: int, limit: int, lowest: int) -> int:
    """Stopped by a floor inside a block: the first line from ``start`` down to ``limit`` that
    starts a statement at the ``lowest`` indentation (``start`` itself when none does)."""
    position = start
    while position <= limit:
        line = _line_at(text, position)
        if line.strip() and _indent_width(line) <= lowest and _starts_statement(line):
            return position
        following = _line_end(text, position)
        if following <= position or following > len(text) - 1:
            break
        position = following
    return start


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end(text: str, position: int) -> int:
    """The start of the line after the one holding ``position`` (or the end of the text)."""
    found = text.find("\n", position)
    return len(text) if found < 0 else found + 1


def _line_at(text: str, start: int) -> str:
    found = text.find("\n", start)
    return text[start:] if found < 0 else text[start:found]


def _indent_width(line: str) -> int:
    stripped = line.lstrip(" \t")
    return len(line[: len(line) - len(stripped)].expandtabs(4))


def _starts_statement(line: str) -> bool:
    stripped = line.strip()
    if stripped.startswith(_CLOSERS):
        return False
    word = stripped.split(None, 1)[0].rstrip(":;{(") if stripped else ""
    return word not in _CLOSING_WORDS


def _all_start_with(text: str, prefix: str) -> bool:
    return all(line.startswith(prefix) for line in text.split("\n") if line.strip())


def _dedent(text: str, prefix: str) -> str:
    if not prefix:
        return text
    return "\n".join(
        line[len(prefix) :] if line.startswith(prefix) else line for line in text.split("\n")
    )


def _shifted(problems: list[Problem], first_row: int, prefix: str) -> list[Problem]:
    width = len(prefix)
    return [
        Problem(
            p.row + first_row,
            p.column + width,
            p.end_row + first_row,
            p.end_column + width,
            p.message,
        )
        for p in problems
    ]
