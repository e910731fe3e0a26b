"""Value objects that flow out of the cascade: what each tier tried and what was edited."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class Region:
    """A place in the file: 1-based inclusive line numbers, with a similarity in [0, 1]."""

    start_line: int
    end_line: int
    similarity: float = 1.0
    text: str = ""

    def describe(self) -> str:
        lines = (
            f"line {self.start_line}"
            if self.start_line == self.end_line
            else f"lines {self.start_line}-{self.end_line}"
        )
        if self.similarity < 1.0:
            return f"{lines} ({self.similarity:.0%} similar)"
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_line": self.start_line,
            "end_line": self.end_line,
            "similarity": round(self.similarity, 4),
        }


TierOutcome = Literal["matched", "no_candidates", "ambiguous", "refused", "skipped"]


@dataclass(frozen=True)
class TierAttempt:
    """One tier's try at placing old_string; the trace telemetry is built from.

    ``threshold`` is the similarity a fuzzy tier demanded at the time (``None`` for exact
    tiers, or when whoever built the trace did not say).
    """

    tier: str
    outcome: TierOutcome
    candidates: int = 0
    best_similarity: float | None = None
    elapsed_ms: float = 0.0
    threshold: float | None = None


@dataclass(frozen=True)
class TextEdit:
    """The result of :func:`editengine.edit_text`.

    ``strategy`` names the tier that placed old_string (``exact``, ``line_trimmed``, ...)
    or the rule that decided (``no_op``, ``already_applied``, ``whole_file``).
    ``spans`` are the replaced regions of the *original* content, 1-based lines.
    """

    new_content: str
    replacements: int
    strategy: str
    spans: tuple[Region, ...] = ()
    no_change: bool = False
    note: str | None = None
    trace: tuple[TierAttempt, ...] = field(default=(), repr=False)
    rewritten_new_string: str | None = field(default=None, repr=False)
