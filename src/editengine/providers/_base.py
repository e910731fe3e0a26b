"""The provider contract: one JSON-producing LLM call, sync and async.

A provider turns ``(system, user, schema)`` into a JSON object that follows ``schema``.
It raises only project errors: :class:`~editengine.ProviderError` (``transient``
tells whether a retry may help), :class:`~editengine.ProviderConfigError` and
:class:`~editengine.InvalidCorrection`. Retries, deadlines and caching belong to
the caller (:class:`editengine.fixer.LLMFixer`), never to the provider.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class ProviderReply:
    """What the model answered, and what it cost."""

    data: dict[str, Any]
    input_tokens: int = 0
    output_tokens: int = 0
    model: str = ""
    provider: str = ""


@dataclass(frozen=True)
class ProviderRequest:
    """One call as a provider received it (recorded by the offline providers)."""

    system: str
    user: str
    schema: dict[str, Any] = field(repr=False)
    timeout: float

    @property
    def key(self) -> str:
        return request_key(self.system, self.user, self.schema)


@runtime_checkable
class Provider(Protocol):
    """Answers one prompt with a JSON object that follows ``schema``.

    ``timeout`` is the time left for this request, in seconds.
    """

    name: str
    model: str

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply: ...

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply: ...


def request_key(system: str, user: str, schema: dict[str, Any]) -> str:
    """A stable sha256 of one request, used to key cassettes."""
    payload = json.dumps([system, user, schema], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
