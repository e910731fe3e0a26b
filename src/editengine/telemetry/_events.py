"""The telemetry events: typed, versioned records of what one edit did.

Four events per edit, in this order: ``edit.started``, one ``tier.tried`` per tier the
cascade tried (both passes), ``fixer.called`` when the fixer ran, ``edit.finished``.
Every event carries ``event``, ``v``, ``ts``, ``edit_id`` and ``engine_version``; the
fields are documented one by one in ``docs/telemetry.md``.

``ts`` is ISO 8601 UTC with microseconds and a ``Z`` (``2026-11-22T05:00:40.123456Z``):
fixed width, so lexical order is time order and the report filters without parsing dates.

By default no event holds file content, edit text or the file path: only sizes, counts,
timings, names of tiers/strategies/models, and a SHA-256 of the path. The opt-in fields
(``path``, ``old_preview``, ``new_preview``) are ``None`` unless snippets were asked for,
and :meth:`to_dict` leaves ``None`` opt-in fields out entirely.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, ClassVar, Literal, cast

SCHEMA_VERSION = 1

Pass = Literal["original", "fixer"]

# Fields present only on explicit opt-in; dropped from the dict when None.
_OPT_IN = frozenset({"path", "old_preview", "new_preview"})


def format_ts(epoch_seconds: float) -> str:
    """``2026-11-22T05:00:40.123456Z``: the fixed-width timestamp every event carries."""
    moment = datetime.fromtimestamp(epoch_seconds, tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def path_hash(path: str) -> str:
    """A stable pseudonym for a file path: the first 16 hex digits of its SHA-256.

    It lets the report count distinct files and recurring files without naming them; a
    reader who can guess a path can confirm it, so it is a pseudonym, not a secret.
    """
    return hashlib.sha256(path.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class _Event:
    event: ClassVar[str] = ""

    edit_id: str
    ts: str
    engine_version: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON object written by the sinks: ``event`` and ``v`` first."""
        out: dict[str, Any] = {"event": self.event, "v": SCHEMA_VERSION}
        values = self.__dict__
        for attr, key, opt_in in _layout(cast(type, type(self))):
            value = values[attr]
            if value is None and opt_in:
                continue
            out[key] = value
        return out


@functools.cache
def _layout(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, JSON key, opt-in) per field: ``pass_`` is written as ``pass``."""
    return tuple((f.name, f.name.rstrip("_"), f.name in _OPT_IN) for f in dataclasses.fields(cls))


@dataclass(frozen=True)
class EditStarted(_Event):
    """The engine accepted a request and is about to read the file."""

    event: ClassVar[str] = "edit.started"

    operation: str = "edit"
    dry_run: bool = False
    match_mode: str = "auto"
    replace_all: bool = False
    instruction_given: bool = False
    old_chars: int = 0
    new_chars: int = 0
    path_sha256: str = ""
    path: str | None = None
    old_preview: str | None = None
    new_preview: str | None = None


@dataclass(frozen=True)
class TierTried(_Event):
    """One matching tier's try at placing old_string."""

    event: ClassVar[str] = "tier.tried"

    tier: str = ""
    outcome: str = "no_candidates"
    candidates: int = 0
    best_similarity: float | None = None
    elapsed_ms: float = 0.0
    pass_: Pass = "original"
    position: int = 0
    threshold: float | None = None


@dataclass(frozen=True)
class FixerCalled(_Event):
    """The LLM fixer was asked to correct the search string."""

    event: ClassVar[str] = "fixer.called"

    provider: str | None = None
    model: str | None = None
    outcome: str = "error"
    latency_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hit: bool = False
    windowed: bool = False
    prompt_chars: int = 0
    deadline_ms: float | None = None
    prompt_bytes: int = 0
    prompt_tokens: int = 0
    prompt_budget_bytes: int | None = None
    # outcome failed_validation: why the correction was not used, a stable code
    # ("misplaced", "splits_a_word", "search_ambiguous", ...); None otherwise.
    refusal_reason: str | None = None
    # A fingerprint of the request (16 hex digits of the fixer cache's key): equal for
    # identical requests, so repeats that missed the cache can be told from new requests.
    request_key: str | None = None


@dataclass(frozen=True)
class EditFinished(_Event):
    """The edit is over, successful or not; carries everything the report needs per edit."""

    event: ClassVar[str] = "edit.finished"

    outcome: str = "error"
    error_code: str | None = None
    strategy: str | None = None
    replacements: int = 0
    duration_ms: float = 0.0
    file_lines: int | None = None
    file_bytes: int | None = None
    dry_run: bool = False
    operation: str = "edit"
    match_mode: str = "auto"
    instruction_given: bool = False
    tiers_tried: int = 0
    tier_ms: float = 0.0
    fixer_outcome: str | None = None
    corrected_by_fixer: bool = False
    path_sha256: str = ""
    path: str | None = None
    # A syntax_broken refusal: the tier whose forgiving placement the syntax guard refused.
    syntax_guard_tier: str | None = None


Event = EditStarted | TierTried | FixerCalled | EditFinished

EVENT_TYPES: dict[str, type[_Event]] = {
    cls.event: cls for cls in (EditStarted, TierTried, FixerCalled, EditFinished)
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild a typed event from its JSON object (unknown keys are ignored).

    Raises ``ValueError`` for an unknown event name or schema version.
    """
    name = data.get("event")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown telemetry event {name!r}")
    if data.get("v") != SCHEMA_VERSION:
        raise ValueError(f"unsupported telemetry schema version {data.get('v')!r}")
    known = {f.name: f.name.rstrip("_") for f in dataclasses.fields(cls)}
    kwargs = {attr: data[key] for attr, key in known.items() if key in data}
    return cls(**kwargs)  # type: ignore[return-value]  # EVENT_TYPES holds only the Event classes
