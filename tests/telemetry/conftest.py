"""A small factory of EditState objects filled the way the engine fills them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from editengine._results import TierAttempt
from editengine._state import EditState, FixerCall

SECRET_PATH = "clients/acme-secret-merger/plan_zebra.py"
SECRET_OLD = "def transfer_funds_zq(account):"
SECRET_NEW = "def transfer_funds_zq(account, audit=True):"


def _state(**overrides: Any) -> EditState:
    state = EditState(
        file_path=SECRET_PATH,
        edit_id="edit-1",
        started_at=1_790_000_000.25,
        instruction_given=True,
        old_chars=len(SECRET_OLD),
        new_chars=len(SECRET_NEW),
        old_preview=SECRET_OLD,
        new_preview=SECRET_NEW,
        file_bytes=4_096,
        file_lines=120,
        hash_before="sha256:" + "ab" * 32,
    )
    for key, value in overrides.items():
        setattr(state, key, value)
    return state


def exact_hit() -> EditState:
    return _state(
        attempts=[TierAttempt("exact", "matched", 1, None, 0.04)],
        outcome="success",
        strategy="exact",
        replacements=1,
        duration_ms=1.5,
    )


def fuzzy_hit() -> EditState:
    return _state(
        attempts=[
            TierAttempt("exact", "no_candidates", 0, None, 0.05),
            TierAttempt("line_trimmed", "no_candidates", 0, None, 0.2),
            TierAttempt("block_anchor", "matched", 1, 0.93, 0.8),
        ],
        outcome="success",
        strategy="block_anchor",
        replacements=1,
        duration_ms=3.0,
    )


def ambiguity() -> EditState:
    return _state(
        attempts=[TierAttempt("exact", "ambiguous", 3, None, 0.06)],
        outcome="error",
        error_code="ambiguous",
        duration_ms=1.1,
    )


def no_match() -> EditState:
    return _state(
        attempts=[
            TierAttempt("exact", "no_candidates", 0, None, 0.05),
            TierAttempt("block_anchor", "refused", 1, 0.71, 0.9),
        ],
        outcome="error",
        error_code="no_match",
        duration_ms=2.0,
    )


def fixer_success(*, cache_hit: bool = False) -> EditState:
    return _state(
        attempts=[
            TierAttempt("exact", "no_candidates", 0, None, 0.05),
            TierAttempt("block_anchor", "refused", 1, 0.62, 0.9),
            TierAttempt("exact", "matched", 1, None, 0.04),
        ],
        fixer=FixerCall(
            provider="openai",
            model="gpt-4o-mini",
            outcome="corrected",
            latency_ms=0.7 if cache_hit else 1840.0,
            input_tokens=1200,
            output_tokens=90,
            cache_hit=cache_hit,
            windowed=True,
            prompt_chars=4800,
            note=f"search was {SECRET_OLD}",
        ),
        outcome="success",
        strategy="exact",
        replacements=1,
        duration_ms=1850.0,
    )


def fixer_timeout() -> EditState:
    return _state(
        attempts=[
            TierAttempt("exact", "no_candidates", 0, None, 0.05),
            TierAttempt("block_anchor", "refused", 1, 0.55, 0.9),
        ],
        fixer=FixerCall(
            provider="anthropic",
            model="claude-haiku-4-5",
            outcome="timeout",
            latency_ms=30_000.0,
            input_tokens=0,
            output_tokens=0,
            prompt_chars=9000,
        ),
        outcome="error",
        error_code="fixer_timeout",
        duration_ms=30_010.0,
    )


PATHS: dict[str, Callable[[], EditState]] = {
    "exact_hit": exact_hit,
    "fuzzy_hit": fuzzy_hit,
    "ambiguity": ambiguity,
    "no_match": no_match,
    "fixer_success": fixer_success,
    "fixer_timeout": fixer_timeout,
    "cache_hit": lambda: fixer_success(cache_hit=True),
}


@pytest.fixture
def edit_paths() -> dict[str, Callable[[], EditState]]:
    return PATHS


@pytest.fixture
def make_state() -> Callable[..., EditState]:
    return _state
