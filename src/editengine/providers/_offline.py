"""Providers that need no network: for tests, evaluation runs and demos.

- :class:`ScriptedProvider` answers from a queue and records every request.
- :class:`ReplayProvider` answers from a JSON Lines cassette; in record mode it asks a
  real provider for requests the cassette lacks and appends the answers.
- :class:`CallbackProvider` answers with a function of the request.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from editengine._errors import BadRequest, ProviderError
from editengine.providers._base import Provider, ProviderReply, ProviderRequest, request_key

Scripted = dict[str, Any] | ProviderReply | BaseException
CallbackResult = dict[str, Any] | ProviderReply
Callback = Callable[[ProviderRequest], CallbackResult | Awaitable[CallbackResult]]


def _as_reply(answer: CallbackResult, *, provider: str, model: str) -> ProviderReply:
    if isinstance(answer, ProviderReply):
        return answer
    return ProviderReply(data=answer, model=model, provider=provider)


class ScriptedProvider:
    """Answers each request with the next queued item; an exception item is raised.

    ``requests`` lists every request received, in order, including failed ones.

    >>> provider = ScriptedProvider([{"search": "a", "replace": "b",
    ...     "noChangesRequired": False, "explanation": "typo"}])
    """

    name = "scripted"

    def __init__(self, responses: Iterable[Scripted] = (), *, model: str = "scripted") -> None:
        self.model = model
        self.requests: list[ProviderRequest] = []
        self._queue: deque[Scripted] = deque(responses)
        self._lock = threading.Lock()

    def enqueue(self, *responses: Scripted) -> None:
        with self._lock:
            self._queue.extend(responses)

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        with self._lock:
            self.requests.append(ProviderRequest(system, user, schema, timeout))
            if not self._queue:
                raise ProviderError(
                    "ScriptedProvider has no response left for this request.",
                    hint="Queue one more with enqueue().",
                )
            item = self._queue.popleft()
        if isinstance(item, BaseException):
            raise item
        return _as_reply(item, provider=self.name, model=self.model)

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        return self.complete_json(system, user, schema, timeout=timeout)


class CallbackProvider:
    """Answers with ``fn(request)``: a dict, a :class:`ProviderReply`, or an awaitable of one.

    A plain function is run in a worker thread by :meth:`acomplete_json`, so a slow
    callback does not block the event loop.
    """

    name = "callback"

    def __init__(self, fn: Callback, *, model: str = "callback") -> None:
        self.model = model
        self._fn = fn

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        answer = self._fn(ProviderRequest(system, user, schema, timeout))
        if inspect.isawaitable(answer):
            answer = asyncio.run(_awaited(answer))
        return _as_reply(answer, provider=self.name, model=self.model)

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        request = ProviderRequest(system, user, schema, timeout)
        if inspect.iscoroutinefunction(self._fn):
            answer = await self._fn(request)
        else:
            answer = await asyncio.to_thread(self._fn, request)
            if inspect.isawaitable(answer):
                answer = await answer
        return _as_reply(answer, provider=self.name, model=self.model)


async def _awaited(answer: Awaitable[CallbackResult]) -> CallbackResult:
    return await answer


class ReplayProvider:
    """Answers from a JSON Lines cassette keyed by a sha256 of (system, user, schema).

    Without ``record_with`` a request missing from the cassette is a
    :class:`~editengine.ProviderError`. With ``record_with=<real provider>``
    missing requests go to that provider and each answer is appended to the cassette,
    so a first run records and every later run replays offline. Errors are never
    recorded.
    """

    name = "replay"

    def __init__(self, cassette_path: str | Path, *, record_with: Provider | None = None) -> None:
        self.cassette_path = Path(cassette_path)
        self._record_with = record_with
        self.model = record_with.model if record_with is not None else "replay"
        self._lock = threading.Lock()
        self._entries = self._load()
        self.hits = 0
        self.recorded = 0

    def __len__(self) -> int:
        return len(self._entries)

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        key = request_key(system, user, schema)
        found = self._lookup(key)
        if found is not None:
            return found
        recorder = self._require_recorder(key)
        reply = recorder.complete_json(system, user, schema, timeout=timeout)
        self._record(key, user, reply)
        return reply

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        key = request_key(system, user, schema)
        found = self._lookup(key)
        if found is not None:
            return found
        recorder = self._require_recorder(key)
        reply = await recorder.acomplete_json(system, user, schema, timeout=timeout)
        self._record(key, user, reply)
        return reply

    def close(self) -> None:
        """Close the recording provider, if it has anything to close."""
        close = getattr(self._record_with, "close", None)
        if callable(close):
            close()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        aclose = getattr(self._record_with, "aclose", None)
        if callable(aclose):
            await aclose()
        else:
            self.close()

    def _lookup(self, key: str) -> ProviderReply | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self.hits += 1
        return ProviderReply(
            data=dict(entry["data"]),
            input_tokens=int(entry.get("input_tokens", 0)),
            output_tokens=int(entry.get("output_tokens", 0)),
            model=str(entry.get("model", "")),
            provider=str(entry.get("provider", "")),
        )

    def _require_recorder(self, key: str) -> Provider:
        if self._record_with is None:
            raise ProviderError(
                f"The cassette {self.cassette_path} has no recording for this request "
                f"(key {key[:12]}).",
                hint="Record it by passing record_with=<a real provider> to ReplayProvider.",
            )
        return self._record_with

    def _record(self, key: str, user: str, reply: ProviderReply) -> None:
        entry = {
            "key": key,
            "provider": reply.provider,
            "model": reply.model,
            "data": reply.data,
            "input_tokens": reply.input_tokens,
            "output_tokens": reply.output_tokens,
            "user_preview": user[:200],
        }
        line = json.dumps(entry, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self.cassette_path.parent.mkdir(parents=True, exist_ok=True)
            with self.cassette_path.open("a+b") as handle:
                # A hand-edited cassette may lack its final newline; never glue two records.
                handle.seek(0, 2)
                if handle.tell() > 0:
                    handle.seek(-1, 2)
                    if handle.read(1) != b"\n":
                        handle.write(b"\n")
                handle.write(line.encode("utf-8") + b"\n")
            self._entries[key] = entry
            self.recorded += 1

    def _load(self) -> dict[str, dict[str, Any]]:
        if not self.cassette_path.exists():
            if self._record_with is None:
                raise BadRequest(
                    f"The cassette {self.cassette_path} does not exist.",
                    hint="Record one first by passing record_with=<a real provider>.",
                )
            return {}
        entries: dict[str, dict[str, Any]] = {}
        text = self.cassette_path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key, data = entry["key"], entry["data"]
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise BadRequest(
                    f"Line {number} of the cassette {self.cassette_path} is not a recording "
                    f"(a JSON object with 'key' and 'data'): {exc}",
                ) from exc
            if not isinstance(key, str) or not isinstance(data, dict):
                raise BadRequest(
                    f"Line {number} of the cassette {self.cassette_path} has a malformed "
                    "'key' or 'data'."
                )
            entries[key] = entry
        return entries
