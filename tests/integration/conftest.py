"""The whole stack at once: EditEngine, LLMFixer, the real SDK providers, telemetry.

HTTP is mocked with the ``httpx2_mock`` fixture (pytest-httpx2), which intercepts the
``httpx2`` transport the openai and anthropic SDKs send through. The wire formats below are
in ``tests/conftest.py``, shared with the provider tests.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from editengine.engine import EditEngine
from editengine.fixer import LLMFixer

# A file no deterministic tier can edit with WRONG_OLD: the agent quoted subtotal() from a
# wrong memory (other names throughout), so only the fixer can place the edit.
BILLING = '''"""Billing helpers."""

TAX_RATE = 0.2


def subtotal(items):
    total = 0
    for item in items:
        total += item.price * item.quantity
    return total


def count_items(items):
    total = 0
    for item in items:
        total += item.quantity
    return total


def with_tax(amount):
    return amount * (1 + TAX_RATE)
'''

WRONG_OLD = """def subtotal(lines):
    result = 0
    for line in lines:
        result += line.cost * line.qty
    return result
"""

WRONG_NEW = """def subtotal(lines):
    result = 0
    for line in lines:
        if line.qty == 0:
            continue
        result += line.cost * line.qty
    return result
"""

INSTRUCTION = "Make subtotal() skip items whose quantity is zero."

GOOD_SEARCH = "    for item in items:\n        total += item.price * item.quantity\n"
GOOD_REPLACE = (
    "    for item in items:\n"
    "        if item.quantity == 0:\n"
    "            continue\n"
    "        total += item.price * item.quantity\n"
)
GOOD_ANSWER = {
    "search": GOOD_SEARCH,
    "replace": GOOD_REPLACE,
    "noChangesRequired": False,
    "explanation": "The function uses items/item/total, not lines/line/result.",
}
BILLING_FIXED = BILLING.replace(GOOD_SEARCH, GOOD_REPLACE)


@pytest.fixture
def write(workspace: Path) -> Callable[[str, str], Path]:
    def write(relative: str, content: str) -> Path:
        path = workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))
        return path

    return write


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` and its bytes (to prove nothing else was touched)."""
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            out[os.path.relpath(path, root)] = path.read_bytes()
    return out


def no_sleep(seconds: float) -> None:
    """Backoff waits are skipped: retries run at once."""


async def no_async_sleep(seconds: float) -> None:
    """Async twin of :func:`no_sleep`."""


@pytest.fixture
def make_engine(workspace: Path, tmp_path: Path) -> Callable[..., EditEngine]:
    """An engine on the workspace whose fixer is an LLMFixer on ``backend``'s SDK provider."""

    def make(backend: Any, *, timeout: float = 5.0, telemetry: Any = None, **options: Any):
        options.setdefault("sleep", no_sleep)
        options.setdefault("async_sleep", no_async_sleep)
        fixer = LLMFixer(backend.provider(), timeout=timeout, **options)
        return EditEngine(
            root=workspace, fixer=fixer, telemetry=telemetry, lock_dir=tmp_path / "locks"
        )

    return make
