"""The one base of the SDK providers: what OpenAI and Anthropic calls share.

Construction (key, TLS, one client per call unless the caller gives its own), the sync and
async call with every failure mapped to the project's error tree, usage and cost on a
rejected answer, and the close/context-manager lifetime. A subclass says only what differs:
which SDK and client classes, the request's parameters, where the call lives on the client,
the names of the usage counters, and how an answer is read (stop reason first).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable
from typing import Any, ClassVar, TypeVar

from editengine._errors import FixerError, InvalidCorrection
from editengine.providers._base import ProviderReply
from editengine.providers._credentials import API_KEY_ENV_VARS, resolve_api_key
from editengine.providers._sdk import (
    CallClients,
    SharedTLS,
    import_sdk,
    map_sdk_error,
    usage_count,
    with_cost,
)

_Self = TypeVar("_Self", bound="SDKProvider")


class SDKProvider(ABC):
    """A :class:`~editengine.providers.Provider` over an official SDK.

    The SDK clients are built with ``max_retries=0``: retries and the overall deadline
    belong to the caller. Unless ``client`` / ``async_client`` are given (and then owned and
    closed by the caller), each call builds its own client and closes it when done, so the
    provider is safe across threads and event loops.
    """

    name: str
    # The SDK's client classes, by attribute name on the SDK module.
    _sync_client_class: ClassVar[str]
    _async_client_class: ClassVar[str]
    # The usage counters of the SDK's answer: (input tokens, output tokens).
    _usage_names: ClassVar[tuple[str, str]]

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None,
        base_url: str | None,
        client: Any,
        async_client: Any,
        max_output_tokens: int,
        temperature: float | None,
    ) -> None:
        self.model = model
        self.max_output_tokens = max_output_tokens
        self._temperature = temperature
        self._sdk = import_sdk(self.name)
        self._env_var = API_KEY_ENV_VARS[self.name]
        # A key is needed only for the clients this provider builds itself.
        key = resolve_api_key(self.name, api_key) if client is None or async_client is None else ""
        tls = SharedTLS()
        sync_class = getattr(self._sdk, self._sync_client_class)
        async_class = getattr(self._sdk, self._async_client_class)
        self._clients = CallClients(
            lambda: sync_class(
                api_key=key,
                base_url=base_url,
                max_retries=0,
                http_client=self._sdk.DefaultHttpxClient(verify=tls.get()),
            ),
            lambda: async_class(
                api_key=key,
                base_url=base_url,
                max_retries=0,
                http_client=self._sdk.DefaultAsyncHttpxClient(verify=tls.get()),
            ),
            given_sync=client,
            given_async=async_client,
        )

    # ------------------------------------------------------------------ what differs

    @abstractmethod
    def _params(
        self, system: str, user: str, schema: dict[str, Any], timeout: float
    ) -> dict[str, Any]:
        """The keyword arguments of the SDK call."""

    @abstractmethod
    def _create(self, client: Any, params: dict[str, Any]) -> Any:
        """Make the call on ``client`` (sync: the answer; async: an awaitable of it)."""

    @abstractmethod
    def _answer(self, response: Any) -> dict[str, Any]:
        """The JSON object of a finished answer, or :class:`InvalidCorrection`."""

    # ------------------------------------------------------------------ the call

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            with self._clients.sync() as client:
                response = self._create(client, self._params(system, user, schema, timeout))
            return self._reply(response)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            async with self._clients.async_() as client:
                pending: Awaitable[Any] = self._create(
                    client, self._params(system, user, schema, timeout)
                )
                response = await pending
            return self._reply(response)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

    def _reply(self, response: Any) -> ProviderReply:
        usage = getattr(response, "usage", None)
        model = getattr(response, "model", None) or self.model
        input_name, output_name = self._usage_names
        try:
            data = self._answer(response)
        except InvalidCorrection as exc:
            # A rejected answer was still paid for: its tokens travel with the error.
            raise with_cost(
                exc,
                usage,
                input_name=input_name,
                output_name=output_name,
                provider=self.name,
                model=model,
            ) from exc.__cause__
        return ProviderReply(
            data=data,
            input_tokens=usage_count(usage, input_name),
            output_tokens=usage_count(usage, output_name),
            model=model,
            provider=self.name,
        )

    def _mapped(self, exc: BaseException) -> Exception:
        return map_sdk_error(exc, self._sdk, provider=self.name, env_var=self._env_var)

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """End calls under way on clients this provider built (given clients stay open)."""
        self._clients.close()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        await self._clients.aclose()

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self: _Self) -> _Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
