"""The whole stack at once: EditEngine, LLMFixer, the real SDK providers, telemetry.

HTTP is mocked with the ``httpx2_mock`` fixture (pytest-httpx2), which intercepts the
``httpx2`` transport the openai and anthropic SDKs send through. The wire formats below are
the minimal bits of ``tests/providers/conftest.py``.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from editengine.engine import EditEngine
from editengine.fixer import LLMFixer
from editengine.providers import AnthropicProvider, OpenAIProvider

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


@dataclass(frozen=True)
class Backend:
    """How one SDK provider looks on the wire."""

    name: str
    url: str
    model: str

    def provider(self) -> OpenAIProvider | AnthropicProvider:
        cls = OpenAIProvider if self.name == "openai" else AnthropicProvider
        return cls(self.model, api_key="test")

    def answer(self, data: dict[str, Any]) -> httpx.Response:
        """A 200 response whose model answer is ``data``."""
        if self.name == "openai":
            body: dict[str, Any] = {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 1,
                "model": self.model,
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": json.dumps(data)},
                    }
                ],
                "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
            }
        else:
            body = {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": self.model,
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "submit_correction",
                        "input": data,
                    }
                ],
                "usage": {"input_tokens": 120, "output_tokens": 30},
            }
        return httpx.Response(200, json=body)

    def error(self, status: int) -> httpx.Response:
        if self.name == "openai":
            body = {"error": {"message": f"status {status}", "type": "server_error"}}
        else:
            body = {"type": "error", "error": {"type": "api_error", "message": f"status {status}"}}
        return httpx.Response(status, json=body)

    def prompt_sent(self, request: httpx.Request) -> tuple[str, str]:
        """(system, user) as the provider put them on the wire."""
        body = json.loads(request.content)
        if self.name == "openai":
            messages = {message["role"]: message["content"] for message in body["messages"]}
            return messages["system"], messages["user"]
        return body["system"], body["messages"][0]["content"]


BACKENDS = {
    "openai": Backend("openai", "https://api.openai.com/v1/chat/completions", "gpt-4.1-mini"),
    "anthropic": Backend("anthropic", "https://api.anthropic.com/v1/messages", "claude-haiku-4-5"),
}


def pytest_configure(config: pytest.Config) -> None:
    # pytest-httpx2 reads this marker but its entry point does not register it.
    config.addinivalue_line(
        "markers", "httpx2(**options): respx router options for the httpx2_mock fixture"
    )


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Backend:
    return BACKENDS[request.param]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


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

    def make(backend: Backend, *, timeout: float = 5.0, telemetry: Any = None, **options: Any):
        options.setdefault("sleep", no_sleep)
        options.setdefault("async_sleep", no_async_sleep)
        fixer = LLMFixer(backend.provider(), timeout=timeout, **options)
        return EditEngine(
            root=workspace, fixer=fixer, telemetry=telemetry, lock_dir=tmp_path / "locks"
        )

    return make


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at teardown, so handlers that block on it let their worker thread finish."""
    event = threading.Event()
    yield event
    event.set()
