"""The contract between the engine and an LLM fixer.

The engine owns validation: whatever a fixer answers is run back through the cascade
on the current file before anything is written. A fixer only proposes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from editengine._errors import NoMatch


@dataclass(frozen=True)
class FixRequest:
    """A failed edit the fixer is asked to correct. ``content`` is the current file text."""

    file_path: str
    content: str
    old_string: str
    new_string: str
    error: NoMatch
    instruction: str | None = None
    replace_all: bool = False
    expected_replacements: int | None = None


@dataclass(frozen=True)
class Correction:
    """The fixer's proposal plus what it cost."""

    search: str
    replace: str
    no_changes_required: bool = False
    explanation: str = ""
    provider: str | None = None
    model: str | None = None
    cache_hit: bool = False
    latency_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    prompt_chars: int = 0
    windowed: bool = False
    # UTF-8 bytes of the prompt, its estimated tokens, and the byte budget it was held to.
    prompt_bytes: int = 0
    prompt_tokens: int = 0
    prompt_budget_bytes: int | None = None


@runtime_checkable
class Fixer(Protocol):
    """Proposes a corrected search/replace; raises :class:`~editengine.FixerError`."""

    def correct(self, request: FixRequest) -> Correction: ...

    async def acorrect(self, request: FixRequest) -> Correction: ...
