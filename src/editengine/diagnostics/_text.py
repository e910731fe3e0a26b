"""How diagnostics read in a tool's answer: an ``Errors:`` block, as the agents' own edit
tools show what their language servers said."""

from __future__ import annotations

from collections.abc import Sequence

from editengine._results import Diagnostic

# An agent reads the first problems; more lines are noise in its context.
MAX_LINES = 20


def errors_block(
    diagnostics: Sequence[Diagnostic], note: str | None = None, *, path: str | None = None
) -> str:
    """``Errors:`` and one line a problem (at most :data:`MAX_LINES`), or ``""`` when there are
    none; a ``note`` saying diagnostics were unavailable follows as its own line (a note that
    the file type has no grammar is left out: it says nothing about this edit)."""
    lines: list[str] = []
    if diagnostics:
        where = f" in {path}" if path else ""
        lines.append(f"Errors{where} introduced by this edit:")
        shown = list(diagnostics[:MAX_LINES])
        lines.extend(item.describe() for item in shown)
        if len(diagnostics) > len(shown):
            lines.append(f"... and {len(diagnostics) - len(shown)} more")
    if note and "unavailable" in note:
        lines.append(f"Diagnostics: {note}")
    return "\n".join(lines)
