"""Both SDK providers behind one interface, so each HTTP test runs against both.

HTTP is mocked with the ``httpx2_mock`` fixture (pytest-httpx2): a respx router that
intercepts httpx2, which the current openai and anthropic SDKs send requests through.
"""

from __future__ import annotations

import pytest

from editengine._errors import NoMatch, Region
from editengine.fixer import FixRequest

GOOD_ANSWER = {
    "search": "    return a - b",
    "replace": "    return a + b",
    "noChangesRequired": False,
    "explanation": "The search used two-space indentation; the file uses four.",
}

FILE_TEXT = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b + 0\n"


@pytest.fixture
def fix_request() -> FixRequest:
    return make_request()


def make_request(
    content: str = FILE_TEXT,
    *,
    old: str = "def add(a, b):\n  return a - b",
    new: str = "def add(a, b):\n  return a + b",
    instruction: str | None = "Fix add(): it must return the sum, not the difference.",
    closest: tuple[Region, ...] = (Region(1, 2, 0.85),),
) -> FixRequest:
    error = NoMatch("old_string was not found in the file.", closest=closest)
    return FixRequest(
        file_path="calc.py",
        content=content,
        old_string=old,
        new_string=new,
        error=error,
        instruction=instruction,
    )


@pytest.fixture
def no_sleep() -> list[float]:
    """Backoff waits are recorded here instead of slept."""
    return []


@pytest.fixture
def request_factory():
    return make_request
