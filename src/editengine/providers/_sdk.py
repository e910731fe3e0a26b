"""What the OpenAI and Anthropic SDKs have in common: lazy import and error mapping.

Both SDKs share one exception layout (``APIStatusError`` with ``status_code``,
``APIConnectionError``, ``APITimeoutError``, ``AuthenticationError``), so one function
maps either to the project's error tree.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import ssl
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from types import ModuleType
from typing import Any

from editengine._errors import FixerError, InvalidCorrection, ProviderConfigError, ProviderError
from editengine.providers._abandon import on_abandon

# HTTP statuses a retry may cure: request timeout, conflict, rate limit; plus every 5xx.
_TRANSIENT_STATUSES = frozenset({408, 409, 429})
_DETAIL_LIMIT = 300


def import_sdk(package: str) -> ModuleType:
    """Import ``openai`` or ``anthropic`` on first use, so the core install needs neither."""
    try:
        return importlib.import_module(package)
    except ImportError as exc:
        raise ProviderConfigError(
            f"The {package} package is not installed, so the {package} provider is unavailable.",
            hint=f'Install it with: pip install "editengine[{package}]"',
        ) from exc


def map_sdk_error(
    exc: BaseException, sdk: ModuleType, *, provider: str, env_var: str
) -> FixerError:
    """The project error for an exception raised inside an SDK call."""
    if isinstance(exc, sdk.APITimeoutError):
        return ProviderError(f"The {provider} request timed out.", transient=True)
    if isinstance(exc, sdk.APIConnectionError):
        return ProviderError(f"Could not reach the {provider} API: {_detail(exc)}", transient=True)
    if isinstance(exc, sdk.AuthenticationError):
        return ProviderConfigError(
            f"The {provider} API rejected the API key (HTTP 401): {_detail(exc)}",
            hint=f"Check {env_var} or the api_key= argument.",
        )
    if isinstance(exc, sdk.APIStatusError):
        status = int(exc.status_code)
        transient = status in _TRANSIENT_STATUSES or status >= 500
        return ProviderError(
            f"The {provider} API answered HTTP {status}: {_detail(exc)}",
            transient=transient,
            status_code=status,
            retry_after=_retry_after(exc),
            hint=None if transient else "The request was refused; retrying will not help.",
        )
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError(f"The {provider} API sent a response that is not JSON: {exc}")
    return ProviderError(f"The {provider} call failed: {type(exc).__name__}: {_detail(exc)}")


def parse_json_object(text: Any, *, provider: str) -> dict[str, Any]:
    """The model's answer as a JSON object, or :class:`InvalidCorrection`."""
    if isinstance(text, dict):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InvalidCorrection(f"The {provider} model returned an empty answer.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidCorrection(
            f"The {provider} model's answer is not valid JSON ({exc.msg} at char {exc.pos}): "
            f"{_clip(text)}"
        ) from exc
    if not isinstance(data, dict):
        raise InvalidCorrection(
            f"The {provider} model's answer is JSON but not an object: {_clip(text)}"
        )
    return data


def usage_count(usage: Any, name: str) -> int:
    value = getattr(usage, name, None) if usage is not None else None
    return value if isinstance(value, int) else 0


def _retry_after(exc: BaseException) -> float | None:
    """Seconds from a ``Retry-After`` (or ``retry-after-ms``) header; dates are ignored."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            seconds = float(raw) * scale
        except ValueError:
            continue
        if seconds >= 0:
            return seconds
    return None


def _detail(exc: BaseException) -> str:
    """What the API said went wrong, in words: its error body's message and type when it sent
    one (the SDK's own message may embed the body as a Python dict repr), else the message."""
    said = _body_message(getattr(exc, "body", None))
    if said:
        return _clip(said)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return _clip(str(message))


def _body_message(body: Any) -> str | None:
    # Anthropic: {"type": "error", "error": {"type": ..., "message": ...}};
    # OpenAI (already unwrapped by the SDK): {"message": ..., "type": ...}.
    if not isinstance(body, dict):
        return None
    inner = body.get("error")
    error = inner if isinstance(inner, dict) else body
    message = error.get("message")
    if not isinstance(message, str) or not message.strip():
        return None
    kind = error.get("type")
    return f"{message.strip()} ({kind})" if isinstance(kind, str) and kind else message.strip()


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 3] + "..."


def with_cost(
    exc: InvalidCorrection,
    usage: Any,
    *,
    input_name: str,
    output_name: str,
    provider: str,
    model: str,
) -> InvalidCorrection:
    """``exc`` carrying what the rejected answer cost (the tokens were paid for)."""
    exc.input_tokens = usage_count(usage, input_name)
    exc.output_tokens = usage_count(usage, output_name)
    exc.provider = provider
    exc.model = model
    return exc


class SharedTLS:
    """One TLS context for every client a provider builds, made on first use.

    Building the context (loading the CA bundle) is most of the cost of a new HTTP client,
    about 0.1 s; the context itself is safe to share across threads and event loops.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._context: ssl.SSLContext | None = None

    def get(self) -> ssl.SSLContext:
        with self._lock:
            if self._context is None:
                import httpx2  # the transport both SDKs send through

                self._context = httpx2.create_ssl_context()
            return self._context


class CallClients:
    """The SDK clients a provider's calls go through.

    A client given by the caller is used for every call and never closed here (its owner
    closes it). Otherwise each call builds its own client and closes it when the call ends:
    no client is shared between threads or event loops, so an engine used under a second
    ``asyncio.run`` cannot meet a connection bound to a closed loop, and nothing is left
    open for the garbage collector to close. A sync call's client is also closed the moment
    its caller abandons it (:func:`editengine.providers._abandon.on_abandon`), so a slow
    server cannot keep the worker thread reading.
    """

    def __init__(
        self,
        make_sync: Callable[[], Any],
        make_async: Callable[[], Any],
        *,
        given_sync: Any = None,
        given_async: Any = None,
    ) -> None:
        self._make_sync = make_sync
        self._make_async = make_async
        self._given_sync = given_sync
        self._given_async = given_async
        self._lock = threading.Lock()
        self._live_sync: set[Any] = set()
        self._live_async: dict[Any, asyncio.AbstractEventLoop] = {}

    @contextlib.contextmanager
    def sync(self) -> Iterator[Any]:
        if self._given_sync is not None:
            yield self._given_sync
            return
        client = self._make_sync()
        with self._lock:
            self._live_sync.add(client)
        on_abandon(client.close)
        try:
            yield client
        finally:
            with self._lock:
                self._live_sync.discard(client)
            with contextlib.suppress(Exception):
                client.close()

    @contextlib.asynccontextmanager
    async def async_(self) -> AsyncIterator[Any]:
        if self._given_async is not None:
            yield self._given_async
            return
        client = self._make_async()
        with self._lock:
            self._live_async[client] = asyncio.get_running_loop()
        try:
            yield client
        finally:
            with self._lock:
                self._live_async.pop(client, None)
            with contextlib.suppress(Exception):
                await client.close()

    @property
    def in_flight(self) -> int:
        """Calls under way with a client built here."""
        with self._lock:
            return len(self._live_sync) + len(self._live_async)

    def close(self) -> None:
        """End the sync calls under way (their clients are closed; they fail)."""
        with self._lock:
            clients, self._live_sync = list(self._live_sync), set()
        for client in clients:
            with contextlib.suppress(Exception):
                client.close()

    async def aclose(self) -> None:
        """End the calls under way: sync ones, and async ones on the running event loop.

        An async call on another loop is left to that loop: its client closes when the
        call ends there.
        """
        self.close()
        loop = asyncio.get_running_loop()
        with self._lock:
            mine = [client for client, owner in self._live_async.items() if owner is loop]
            for client in mine:
                self._live_async.pop(client, None)
        for client in mine:
            with contextlib.suppress(Exception):
                await client.close()
