"""The syntax guard: a forgiving placement that breaks the syntax of the region it touched is
refused, because the engine has most likely misread the quote; an exact one never is (the
agent may be mid-change), and both report what they introduced."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from editengine._errors import BadRequest, SyntaxBroken
from editengine._results import TextEdit
from editengine._text import to_lf
from editengine.diagnostics._check import SyntaxCheck, _change_between, check_syntax

SyntaxGuard = Literal["refuse", "report", "off"]
GUARD_MODES: tuple[str, ...] = ("refuse", "report", "off")
DEFAULT_GUARD: SyntaxGuard = "refuse"

# What places a quote as the agent wrote it, or decides without placing one: never forgiving.
_STRICT = frozenset(
    {"exact", "whole_file", "no_op", "already_applied", "append", "insert", "add", "update"}
)


def guard_mode(value: object) -> SyntaxGuard:
    """``value`` checked as a guard mode; :class:`BadRequest` naming the valid ones."""
    if value not in GUARD_MODES:
        raise BadRequest(f"syntax_guard must be one of {', '.join(GUARD_MODES)}, got {value!r}.")
    return value  # type: ignore[return-value]


def forgiving(strategy: str, *, corrected_by_fixer: bool = False) -> bool:
    """Whether what placed the edit forgave something (a tier other than ``exact``, a fixer's
    correction); a multi-edit's strategy is its tiers joined with ``+``."""
    return corrected_by_fixer or any(part not in _STRICT for part in strategy.split("+"))


def guard_edit(
    before: str,
    after: str,
    path: str | os.PathLike[str] | None,
    *,
    mode: SyntaxGuard,
    tier: str,
    forgiven: bool,
    quote: Quote | None = None,
) -> SyntaxCheck:
    """The syntax check of turning ``before`` into ``after``; raises :class:`SyntaxBroken`
    when ``mode`` is ``refuse``, the placement was ``forgiven`` and the region broke — unless
    ``quote`` shows that what broke it is the agent's own text (see :func:`own_breakage`)."""
    if mode == "off" or before == after:
        return SyntaxCheck()
    name = None if path is None else os.fspath(path)
    check = check_syntax(before, after, name)
    if (
        mode == "refuse"
        and forgiven
        and check.broke
        and not deletes_lines_only(before, after)
        and not own_breakage(before, quote)
    ):
        raise syntax_broken(check, tier=tier, path=name)
    return check


@dataclass(frozen=True)
class Quote:
    """What the agent asked: ``old``/``new`` as sent (copy mistakes taken off) and the lines
    of the file the quote was placed on (1-based, inclusive)."""

    old: str
    new: str
    start_line: int
    end_line: int


def own_breakage(before: str, quote: Quote | None) -> bool:
    """Whether the breakage is the agent's own text, not a misreading of its quote: the quote
    differs from the lines it was placed on only in whitespace at the ends of lines, which no
    language reads, so what was written is new_string as the agent wrote it. Such a breakage
    (code mid-change) is reported, not refused. Any other forgiveness (indentation, spacing
    inside a line, escapes, punctuation, a fuzzy place) keeps the strict rule."""
    if quote is None:
        return False
    old_lines = quote.old.rstrip("\n").split("\n")
    if len(old_lines) != quote.end_line - quote.start_line + 1:
        return False
    start, end = _line_offsets(before, quote.start_line, quote.end_line)
    if start < 0:
        return False
    placed = before[start:end].rstrip("\n").split("\n")
    return [line.rstrip() for line in old_lines] == [line.rstrip() for line in placed]


def deletes_lines_only(before: str, after: str) -> bool:
    """Whether turning ``before`` into ``after`` only takes lines out (compared without the
    whitespace at their ends and with typographic punctuation read as ASCII): such an edit
    writes no text of its own, so there is nothing a matcher could have misread into the file,
    and a line left dangling is what the agent asked for."""
    change = _change_between(before, after)
    if change is None:
        return False
    start = before.rfind("\n", 0, change.start) + 1
    removed = before[start : change.old_end].split("\n")
    written = after[start : change.new_end].split("\n")
    if len(written) >= len(removed):
        return False
    kept = iter(_plain(line) for line in removed)
    return all(_plain(line) in kept for line in written)


# Typographic punctuation read as the ASCII a tier maps it to: one decoding for old and new.
_TYPOGRAPHY = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "–": "-", "—": "-"})


def _plain(line: str) -> str:
    return line.strip().translate(_TYPOGRAPHY)


def quote_of(edit: TextEdit, old: str, new: str) -> Quote | None:
    """The :class:`Quote` of a one-place edit (``None`` for several places)."""
    if len(edit.spans) != 1:
        return None
    span = edit.spans[0]
    return Quote(to_lf(old), to_lf(new), span.start_line, span.end_line)


def _line_offsets(text: str, first: int, last: int) -> tuple[int, int]:
    """The offsets of the start of line ``first`` and the end of line ``last`` (1-based,
    newline included); (-1, -1) when the text is shorter. Walked from the nearer end of the
    text in C-speed steps of ``str.find``/``rfind``, never from a split of the whole text."""
    total = text.count("\n", 0, len(text)) + 1
    if first > total:
        return -1, -1
    if first - 1 <= total - first:
        position = 0
        for _ in range(first - 1):
            position = text.find("\n", position) + 1
    else:
        position = len(text)
        for _ in range(total - first + 1):
            position = text.rfind("\n", 0, position)
        position += 1
    end = position
    for _ in range(last - first + 1):
        found = text.find("\n", end)
        end = len(text) if found < 0 else found + 1
    return position, end


def syntax_broken(check: SyntaxCheck, *, tier: str, path: str | None) -> SyntaxBroken:
    first = check.introduced[0]
    where = path or "the text"
    placed = "the LLM fixer's correction" if tier == "fixer" else f"the {tier} tier"
    listed = "; ".join(
        f"line {item.line}, column {item.column}: {item.message}" for item in check.introduced[:5]
    )
    return SyntaxBroken(
        f"The edit was placed by {placed}, not by an exact match, and it would break the "
        f"syntax of {where} at line {first.line}, column {first.column} ({listed}), where the "
        "code parsed before; the quote most likely stands for other text than was meant. "
        "Nothing was written.",
        line=first.line,
        column=first.column,
        tier=tier,
        diagnostics=check.introduced,
        hint="Quote old_string exactly as the file has it (read those lines again), or pass "
        'syntax_guard="report" to write the edit anyway and get the errors back as diagnostics.',
    )
