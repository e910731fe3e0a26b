"""The mutable record of one edit as it moves through the engine.

The engine fills an :class:`EditState` as it reads, matches, asks the fixer and writes;
telemetry hooks read it at the start and the end of the edit. Apart from the two short
previews (which telemetry emits only on an explicit opt-in), nothing here holds file content
or edit text: only sizes, hashes, names and timings.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Literal, Protocol

from editengine._results import TierAttempt

FixerOutcome = Literal[
    "corrected",
    "no_change",
    "failed_validation",
    "invalid_answer",
    "timeout",
    "error",
    "cancelled",
]
EditOutcome = Literal["success", "no_change", "error", "cancelled"]


@dataclass
class FixerCall:
    """What one fixer step did and cost."""

    provider: str | None = None
    model: str | None = None
    outcome: FixerOutcome = "error"
    latency_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hit: bool = False
    windowed: bool = False
    prompt_chars: int = 0
    # UTF-8 bytes of the prompt, its estimated tokens, and the byte budget it was held to.
    prompt_bytes: int = 0
    prompt_tokens: int = 0
    prompt_budget_bytes: int | None = None
    note: str | None = None
    # The fixer's configured deadline, retries included; None when the fixer has none.
    deadline_ms: float | None = None
    # Why a correction was not used (outcome failed_validation): a stable code such as
    # "misplaced" or "search_ambiguous"; None otherwise.
    refusal_reason: str | None = None
    # A fingerprint of the request (equal for identical requests); None without a request.
    request_key: str | None = None


@dataclass
class EditState:
    """One edit, start to finish. ``attempts`` may hold several cascade passes.

    ``attempts[:fixer_pass_start]`` placed the caller's old_string (on the first read, and
    again on the re-read file if it changed while the fixer ran); ``attempts[fixer_pass_start:]``
    placed the fixer's corrected search. ``fixer_pass_start`` is ``None`` when the fixer was
    not asked, and ``len(attempts)`` when its answer never reached the cascade.
    """

    file_path: str
    edit_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    started_at: float = field(default_factory=time.time)
    operation: Literal["edit", "multi_edit", "patch"] = "edit"
    dry_run: bool = False
    match_mode: str = "auto"
    replace_all: bool = False
    instruction_given: bool = False
    old_chars: int = 0
    new_chars: int = 0
    old_preview: str = ""
    new_preview: str = ""
    file_bytes: int | None = None
    file_lines: int | None = None
    hash_before: str | None = None
    attempts: list[TierAttempt] = field(default_factory=list)
    fixer: FixerCall | None = None
    fixer_pass_start: int | None = None
    outcome: EditOutcome | None = None
    error_code: str | None = None
    strategy: str | None = None
    replacements: int = 0
    # The fixer's correction is what was applied; None until the edit succeeds.
    corrected_by_fixer: bool | None = None
    duration_ms: float = 0.0
    # The tier whose placement the syntax guard refused (a syntax_broken error), else None.
    syntax_guard_tier: str | None = None


class EditObserver(Protocol):
    """What the engine calls around every edit (telemetry implements it)."""

    def edit_started(self, state: EditState) -> None: ...

    def edit_finished(self, state: EditState) -> None: ...
