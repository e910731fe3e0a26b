"""The errors editengine raises: one tree, each class with a stable ``code``.

::

    EditError                      edit_error
    ├── BadRequest                 bad_request
    │   └── PatchError             bad_patch        (.line: the patch line at fault)
    ├── MatchError                 (old_string could not be placed exactly)
    │   ├── NoMatch                no_match
    │   ├── AmbiguousMatch         ambiguous
    │   ├── CountMismatch          count_mismatch
    │   └── UnmatchedElision       unmatched_elision
    ├── FileError                  (the file itself is the problem)
    │   ├── PathOutsideWorkspace   path_outside_workspace
    │   ├── FileNotFound           file_not_found
    │   ├── NotAFile               not_a_file
    │   ├── BinaryFile             binary_file
    │   ├── FileTooLarge           file_too_large
    │   ├── UnsupportedEncoding    unsupported_encoding
    │   ├── StaleFile              stale_file
    │   └── WriteFailed            write_failed
    ├── EditRejected               rejected
    ├── MultiEditFailed            multi_edit_failed
    ├── PatchFailed                patch_failed     (.path, .hunk, .cause)
    ├── SyntaxBroken               syntax_broken    (.line, .column, .tier, .diagnostics)
    ├── FixerError                 fixer_error
    │   ├── FixerTimeout           fixer_timeout
    │   ├── ProviderError          provider_error   (.transient: worth retrying)
    │   ├── ProviderConfigError    provider_config
    │   ├── PromptTooLarge         fixer_prompt_too_large
    │   └── InvalidCorrection      invalid_correction (.input_tokens/.output_tokens: its cost)
    ├── EvaluationError            (the evaluation harness could not run)
    │   ├── InvalidDataset         invalid_dataset
    │   └── EngineCommandFailed    engine_command_failed
    └── JournalError               journal_error    (the undo journal cannot be used)
        ├── JournalCorrupt         journal_corrupt
        └── NothingToUndo          nothing_to_undo

    BadRequest
    └── OverwriteRequired          overwrite_required (empty old_string on a file with content)

Every message is written for an agent to read: what was wrong, then what to do.
The ``code`` strings are part of the public contract and never change.

Why one long module: the tree is read as a whole — a caller matches on a base class, an
agent on a ``code`` — so every class and its code stand together, one short class each.
"""

from __future__ import annotations

from typing import Any, ClassVar

# Errors carry the places they name (Region) and the tiers' traces (TierAttempt): values
# that live with the results, which import nothing from here.
from editengine._results import Diagnostic, Region, TierAttempt


class EditError(Exception):
    """Base of every error editengine raises on purpose."""

    code: ClassVar[str] = "edit_error"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.notes_for_agent: list[str] = []

    def add_note_for_agent(self, note: str) -> None:
        """Attach a sentence that ends up in ``str(error)`` (e.g. why the fixer failed)."""
        self.notes_for_agent.append(note)

    def __str__(self) -> str:
        parts = [self.message]
        if self.hint:
            parts.append(self.hint)
        parts.extend(self.notes_for_agent)
        return "\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"error_code": self.code, "error": str(self)}


class BadRequest(EditError):
    """The call itself is malformed (wrong types, contradictory options)."""

    code = "bad_request"


class PatchError(BadRequest):
    """A patch (SEARCH/REPLACE blocks, unified diff or ``apply_patch``) is malformed.

    ``line`` is the 1-based line of the patch text at fault (``None`` for the whole text).
    """

    code = "bad_patch"

    def __init__(self, message: str, *, line: int | None = None, hint: str | None = None) -> None:
        where = f"Patch line {line}: " if line is not None else "Patch: "
        super().__init__(where + message, hint=hint)
        self.line = line

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["line"] = self.line
        return data


# --------------------------------------------------------------------------- matching


class MatchError(EditError):
    """old_string could not be placed in the file exactly where the caller meant."""

    code = "match_error"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        trace: tuple[TierAttempt, ...] = (),
    ) -> None:
        super().__init__(message, hint=hint)
        self.trace = trace


class NoMatch(MatchError):
    """No tier found old_string. ``closest`` lists the most similar regions."""

    code = "no_match"

    def __init__(
        self,
        message: str,
        *,
        closest: tuple[Region, ...] = (),
        hint: str | None = None,
        trace: tuple[TierAttempt, ...] = (),
    ) -> None:
        super().__init__(message, hint=hint, trace=trace)
        self.closest = closest

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["closest"] = [region.to_dict() for region in self.closest]
        return data


class AmbiguousMatch(MatchError):
    """A tier found old_string in more places than the edit asked for."""

    code = "ambiguous"

    def __init__(
        self,
        message: str,
        *,
        candidates: tuple[Region, ...],
        tier: str,
        hint: str | None = None,
        trace: tuple[TierAttempt, ...] = (),
    ) -> None:
        super().__init__(message, hint=hint, trace=trace)
        self.candidates = candidates
        self.tier = tier

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["candidates"] = [region.to_dict() for region in self.candidates]
        return data


class CountMismatch(MatchError):
    """``expected_replacements`` disagrees with the number of places found."""

    code = "count_mismatch"

    def __init__(
        self,
        message: str,
        *,
        expected: int,
        found: int,
        candidates: tuple[Region, ...] = (),
        tier: str | None = None,
        hint: str | None = None,
        trace: tuple[TierAttempt, ...] = (),
    ) -> None:
        super().__init__(message, hint=hint, trace=trace)
        self.expected = expected
        self.found = found
        self.candidates = candidates
        self.tier = tier


class UnmatchedElision(MatchError):
    """new_string elides code (``...``) that old_string does not: writing it would delete code."""

    code = "unmatched_elision"


# --------------------------------------------------------------------------- files


class FileError(EditError):
    """The file cannot be edited as asked; nothing was written."""

    code = "file_error"

    def __init__(self, message: str, *, path: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.path = path


class PathOutsideWorkspace(FileError):
    code = "path_outside_workspace"


class FileNotFound(FileError):
    code = "file_not_found"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        suggestions: tuple[str, ...] = (),
        hint: str | None = None,
    ) -> None:
        super().__init__(message, path=path, hint=hint)
        self.suggestions = suggestions


class NotAFile(FileError):
    code = "not_a_file"


class BinaryFile(FileError):
    code = "binary_file"


class FileTooLarge(FileError):
    code = "file_too_large"


class UnsupportedEncoding(FileError):
    code = "unsupported_encoding"


class StaleFile(FileError):
    code = "stale_file"


class WriteFailed(FileError):
    code = "write_failed"


# --------------------------------------------------------------------------- engine


class EditRejected(EditError):
    """The ``confirm`` callback declined the edit; nothing was written."""

    code = "rejected"


class MultiEditFailed(EditError):
    """Edit number ``index`` (1-based) of a multi-edit failed; nothing was written."""

    code = "multi_edit_failed"

    def __init__(self, message: str, *, index: int, cause: EditError) -> None:
        super().__init__(message)
        self.index = index
        self.cause = cause

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["index"] = self.index
        data["cause"] = self.cause.to_dict()
        return data


class PatchFailed(EditError):
    """One file operation of a patch could not be applied; nothing was written.

    ``path`` is the file, ``hunk`` the 1-based hunk of that file (``None`` when the file
    operation itself failed), ``line`` the patch line the hunk starts on, ``cause`` the error
    that stopped it (a :class:`NoMatch`, :class:`AmbiguousMatch`, :class:`FileNotFound` ...).
    """

    code = "patch_failed"

    def __init__(
        self,
        message: str,
        *,
        path: str,
        cause: EditError,
        hunk: int | None = None,
        line: int | None = None,
        hint: str | None = None,
        old_lines: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.path = path
        self.hunk = hunk
        self.line = line
        self.cause = cause
        self.old_lines = old_lines  # the failing hunk's context and '-' lines, as sent

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data.update(path=self.path, hunk=self.hunk, line=self.line, cause=self.cause.to_dict())
        return data


# --------------------------------------------------------------------------- fixer


class FixerError(EditError):
    """The LLM fixer could not produce a usable correction."""

    code = "fixer_error"


class FixerTimeout(FixerError):
    code = "fixer_timeout"


class ProviderError(FixerError):
    """The model provider failed to answer.

    ``transient`` is true for failures worth retrying (rate limit, connection error,
    provider timeout, 5xx); ``status_code`` is the HTTP status when there was one;
    ``retry_after`` the seconds the provider asked to wait (``Retry-After``), if it did.
    """

    code = "provider_error"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        transient: bool = False,
        status_code: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.transient = transient
        self.status_code = status_code
        self.retry_after = retry_after


class ProviderConfigError(FixerError):
    """The provider is misconfigured (no API key, SDK not installed)."""

    code = "provider_config"


class PromptTooLarge(FixerError):
    """The failed edit alone (old_string, new_string, instruction) is over the fixer's prompt
    budget, so no model was asked."""

    code = "fixer_prompt_too_large"


class InvalidCorrection(FixerError):
    """The model answered, but not with a usable correction (bad JSON, wrong schema, cut off).

    The answer was paid for all the same: ``input_tokens`` / ``output_tokens`` (and the
    ``provider`` / ``model`` that answered) say what it cost, so telemetry can count it.
    """

    code = "invalid_correction"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        input_tokens: int = 0,
        output_tokens: int = 0,
        provider: str | None = None,
        model: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self.provider = provider
        self.model = model
        # Set by the fixer: the prompt that was paid for, and how long the call took.
        self.prompt_chars = 0
        self.prompt_bytes = 0
        self.windowed = False
        self.latency_ms = 0.0


# --------------------------------------------------------------------------- evaluation


class EvaluationError(EditError):
    """The evaluation harness could not run (bad dataset, broken external engine)."""

    code = "evaluation_error"


class InvalidDataset(EvaluationError):
    """A dataset file is unreadable or one of its cases is malformed (``path``, ``line``)."""

    code = "invalid_dataset"

    def __init__(
        self, message: str, *, path: str, line: int | None = None, hint: str | None = None
    ) -> None:
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}", hint=hint)
        self.path = path
        self.line = line

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["path"] = self.path
        data["line"] = self.line
        return data


class EngineCommandFailed(EvaluationError):
    """An external batch-protocol engine (``--engine-cmd``) died, hung or answered garbage."""

    code = "engine_command_failed"


# --------------------------------------------------------------------------- journal


class JournalError(EditError):
    """The undo journal cannot be read or written, or an entry cannot be restored."""

    code = "journal_error"

    def __init__(self, message: str, *, path: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.path = path


class JournalCorrupt(JournalError):
    """A journal line is damaged: the journal is not trusted to restore anything."""

    code = "journal_corrupt"


class NothingToUndo(JournalError):
    """The journal holds no write (of that file) left to undo, or no undo left to redo."""

    code = "nothing_to_undo"


# --------------------------------------------------------------------------- diagnostics


class SyntaxBroken(EditError):
    """A forgiving placement (a tier other than ``exact``, a fixer's correction, a patch hunk
    placed loosely) would make code that parsed stop parsing: the quote was most likely misread.
    ``line``/``column`` locate the first new error, ``tier`` names what placed the edit and
    ``diagnostics`` holds every problem it would have introduced. Nothing was written."""

    code = "syntax_broken"

    def __init__(
        self,
        message: str,
        *,
        line: int,
        column: int,
        tier: str,
        diagnostics: tuple[Diagnostic, ...] = (),
        hint: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.line = line
        self.column = column
        self.tier = tier
        self.diagnostics = diagnostics

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data.update(
            line=self.line,
            column=self.column,
            tier=self.tier,
            diagnostics=[item.to_dict() for item in self.diagnostics],
        )
        return data


# --------------------------------------------------------------------------- whole file


class OverwriteRequired(BadRequest):
    """An empty old_string on a file that has content: replacing the whole file is allowed
    only when asked for (``overwrite``) or when ``expected_hash`` shows the caller read the
    file it replaces. An empty old_string is more often a quote lost on the way."""

    code = "overwrite_required"
