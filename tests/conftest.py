"""What the provider and integration tests share: how each SDK provider looks on the wire.

HTTP is mocked with the ``httpx2_mock`` fixture (pytest-httpx2): a respx router that
intercepts httpx2, which the current openai and anthropic SDKs send requests through. The
``backend`` fixture runs a test once per SDK; ``workspace`` is an empty folder to edit in.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import Phase, settings

from editengine.providers import AnthropicProvider, OpenAIProvider

# Mutation runs (scripts/mutation.py) ask for this profile: there only whether a property
# fails matters, so a failing example is not shrunk (shrinking can take minutes), and a
# fixed seed gives a mutant the same verdict on every run.
settings.register_profile(
    "mutation",
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


@dataclass(frozen=True)
class Backend:
    """How one SDK provider looks on the wire."""

    name: str
    url: str
    env_var: str
    default_model: str

    def provider(self, **options: Any) -> OpenAIProvider | AnthropicProvider:
        options.setdefault("api_key", "test-key")
        cls = OpenAIProvider if self.name == "openai" else AnthropicProvider
        return cls(self.default_model, **options)

    def answer(self, data: dict[str, Any] | str, **extra: Any) -> httpx.Response:
        """A 200 response whose model answer is ``data`` (a str is sent as-is)."""
        if self.name == "openai":
            content = data if isinstance(data, str) else json.dumps(data)
            body = {
                "id": "chatcmpl-1",
                "object": "chat.completion",
                "created": 1,
                "model": self.default_model,
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": extra.get("finish_reason", "stop"),
                        "message": {"role": "assistant", "content": content},
                    }
                ],
                "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
            }
        else:
            body = {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": self.default_model,
                "stop_reason": extra.get("stop_reason", "tool_use"),
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
    "openai": Backend(
        "openai",
        "https://api.openai.com/v1/chat/completions",
        "OPENAI_API_KEY",
        "gpt-4.1-mini",
    ),
    "anthropic": Backend(
        "anthropic",
        "https://api.anthropic.com/v1/messages",
        "ANTHROPIC_API_KEY",
        "claude-haiku-4-5",
    ),
}


def pytest_configure(config: pytest.Config) -> None:
    # pytest-httpx2 reads this marker but its entry point does not register it.
    config.addinivalue_line(
        "markers", "httpx2(**options): respx router options for the httpx2_mock fixture"
    )
    config.addinivalue_line(
        "markers", "lsp: starts language server processes (a few seconds; -m 'not lsp' skips)"
    )


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Backend:
    return BACKENDS[request.param]


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at teardown, so handlers that block on it let their worker thread finish."""
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace folder; lock files and other scratch stay beside it."""
    root = tmp_path / "ws"
    root.mkdir()
    return root
