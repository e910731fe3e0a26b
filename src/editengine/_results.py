"""Result values: what each tier tried and what the cascade made of a text (:class:`TextEdit`),
and what an edit of a file did (:class:`EditResult`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
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

    ``threshold`` is the similarity a fuzzy tier demanded at the time and ``margin`` the lead
    it demanded over the runner-up (``None`` for exact tiers, or when whoever built the trace
    did not say). The cascade records both, so what a tier was held to travels with its try.
    """

    tier: str
    outcome: TierOutcome
    candidates: int = 0
    best_similarity: float | None = None
    elapsed_ms: float = 0.0
    threshold: float | None = None
    margin: float | None = None


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
    # How many edits made this text: 1, or a multi-edit's count (the engine's summary).
    edits: int = field(default=1, repr=False)
    # With a path: the problems the edit introduced, and why that list may be incomplete.
    diagnostics: tuple[Diagnostic, ...] = ()
    diagnostics_note: str | None = None


@dataclass(frozen=True)
class EditResult:
    """What an edit did (or, for a dry run, would do).

    ``file_path`` is workspace-relative POSIX; ``absolute_path`` the path as the caller named
    it (a symlink stays the link). ``hash_before``/``hash_after`` are sha256 hex digests of the
    bytes on disk (``None`` for a file that did not exist / for a dry run). ``notes`` are
    sentences an agent should read (a correction checked against a changed file, ...).
    """

    summary: str
    file_path: str
    absolute_path: str
    replacements: int
    strategy: str
    diff: str
    additions: int
    deletions: int
    hash_before: str | None
    hash_after: str | None
    no_change: bool = False
    dry_run: bool = False
    created: bool = False
    corrected_by_fixer: bool = False
    fixer_explanation: str | None = None
    modified_by_user: bool = False
    notes: tuple[str, ...] = ()
    edit_id: str = ""
    old_text: str = field(default="", repr=False, compare=False)
    new_text: str = field(default="", repr=False, compare=False)
    # The problems this edit introduced (syntax, language servers); see docs/diagnostics.md.
    diagnostics: tuple[Diagnostic, ...] = ()
    # Why the list may be incomplete: no grammar for the file type, a server unavailable.
    diagnostics_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (file contents left out; see :meth:`to_acp`)."""
        data = asdict(self)
        del data["old_text"], data["new_text"]
        data["notes"] = list(self.notes)
        data["diagnostics"] = [item.to_dict() for item in self.diagnostics]
        return data

    def to_acp(self) -> dict[str, Any]:
        """The Agent Client Protocol ``diff`` tool-call content for this edit."""
        return {
            "type": "diff",
            "path": self.absolute_path,
            "oldText": self.old_text if not self.created else None,
            "newText": self.new_text,
        }


@dataclass(frozen=True)
class Diagnostic:
    """A problem in a file after an edit: 1-based ``line``/``column`` (characters) and where it
    ends, ``severity`` (``error``, ``warning``, ``information``, ``hint``), what is wrong and who
    said so (``source``: ``syntax`` for the built-in parsers, else the language server's name).
    """

    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    message: str
    source: str

    def describe(self) -> str:
        """``ERROR [12:5] missing ")" (syntax)``: the line an agent reads."""
        return f"{self.severity.upper()} [{self.line}:{self.column}] {self.message} ({self.source})"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
