"""The syntax guard: a forgiving placement that breaks the syntax of the region it touched is
refused, because the engine has most likely misread the quote; an exact one never is (the
agent may be mid-change), and both report what they introduced."""

from __future__ import annotations

import os
from typing import Literal

from editengine._errors import BadRequest, SyntaxBroken
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
    return value  # type: ignore[return-value]  # checked against GUARD_MODES just above


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
) -> SyntaxCheck:
    """The syntax check of turning ``before`` into ``after``; raises :class:`SyntaxBroken`
    when ``mode`` is ``refuse``, the placement was ``forgiven`` and the region broke — unless
    the edit only took lines out (see :func:`deletes_lines_only`)."""
    if mode == "off" or before == after:
        return SyntaxCheck()
    name = None if path is None else os.fspath(path)
    check = check_syntax(before, after, name)
    if mode == "refuse" and forgiven and check.broke and not deletes_lines_only(before, after):
        raise syntax_broken(check, tier=tier, path=name)
    return check


def deletes_lines_only(before: str, after: str) -> bool:
    """Whether turning ``before`` into ``after`` only takes lines out (compared without the
    whitespace at their ends, which a tier may trim): such an edit writes no text of its own,
    so there is nothing a matcher could have misread into the file, and a line left dangling
    is what the agent asked for."""
    change = _change_between(before, after)
    if change is None:
        return False
    # Whole lines on both sides: the differing span may begin and end mid-line (a common
    # suffix can start inside the last line kept), and a cut line is no line of the file.
    start = before.rfind("\n", 0, change.start) + 1
    line_end = before.find("\n", change.old_end)
    extra = (len(before) if line_end == -1 else line_end) - change.old_end
    removed = before[start : change.old_end + extra].split("\n")
    written = after[start : change.new_end + extra].split("\n")
    if len(written) >= len(removed):
        return False
    kept = iter(line.rstrip() for line in removed)
    return all(line.rstrip() in kept for line in written)


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
