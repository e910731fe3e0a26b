"""OpenAI through the official ``openai`` SDK: Chat Completions with strict structured output."""

from __future__ import annotations

from typing import Any

from editengine.errors import FixerError, InvalidCorrection
from editengine.providers._sdk import (
    CallClients,
    SharedTLS,
    import_sdk,
    map_sdk_error,
    parse_json_object,
    usage_count,
    with_cost,
)
from editengine.providers.base import ProviderReply
from editengine.providers.credentials import API_KEY_ENV_VARS, resolve_api_key

DEFAULT_OPENAI_MODEL = "gpt-4.1-mini"

# finish_reason values that mean the answer is complete. None: a proxy that leaves it out.
_FINISHED = frozenset({"stop", None})


class OpenAIProvider:
    """Asks an OpenAI model for a JSON object that follows a schema (``strict`` mode).

    The SDK clients are built with ``max_retries=0``: retries and the overall deadline
    belong to the caller. Unless ``client`` / ``async_client`` are given (and then owned and
    closed by the caller), each call builds its own client and closes it when done, so the
    provider is safe across threads and event loops. The finish reason is read before the
    answer: a reply cut off at the token limit is invalid, whatever it holds.
    """

    name = "openai"

    def __init__(
        self,
        model: str = DEFAULT_OPENAI_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        client: Any = None,
        async_client: Any = None,
        max_output_tokens: int = 4096,
        temperature: float | None = None,
        schema_name: str = "correction",
    ) -> None:
        self.model = model
        self.max_output_tokens = max_output_tokens
        self._sdk = import_sdk("openai")
        self._env_var = API_KEY_ENV_VARS["openai"]
        key = resolve_api_key("openai", api_key) if client is None or async_client is None else ""
        tls = SharedTLS()
        self._clients = CallClients(
            lambda: self._sdk.OpenAI(
                api_key=key,
                base_url=base_url,
                max_retries=0,
                http_client=self._sdk.DefaultHttpxClient(verify=tls.get()),
            ),
            lambda: self._sdk.AsyncOpenAI(
                api_key=key,
                base_url=base_url,
                max_retries=0,
                http_client=self._sdk.DefaultAsyncHttpxClient(verify=tls.get()),
            ),
            given_sync=client,
            given_async=async_client,
        )
        self._temperature = temperature
        self._schema_name = schema_name

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            with self._clients.sync() as client:
                completion = client.chat.completions.create(
                    **self._params(system, user, schema, timeout)
                )
            return self._reply(completion)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            async with self._clients.async_() as client:
                completion = await client.chat.completions.create(
                    **self._params(system, user, schema, timeout)
                )
            return self._reply(completion)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

    def close(self) -> None:
        """End calls under way on clients this provider built (given clients stay open)."""
        self._clients.close()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        await self._clients.aclose()

    def __enter__(self) -> OpenAIProvider:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> OpenAIProvider:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def _params(
        self, system: str, user: str, schema: dict[str, Any], timeout: float
    ) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": self._schema_name, "schema": schema, "strict": True},
            },
            "max_completion_tokens": self.max_output_tokens,
            "timeout": timeout,
        }
        if self._temperature is not None:
            params["temperature"] = self._temperature
        return params

    def _reply(self, completion: Any) -> ProviderReply:
        usage = getattr(completion, "usage", None)
        model = getattr(completion, "model", None) or self.model
        try:
            data = self._answer(completion)
        except InvalidCorrection as exc:
            raise with_cost(
                exc,
                usage,
                input_name="prompt_tokens",
                output_name="completion_tokens",
                provider=self.name,
                model=model,
            ) from exc.__cause__
        return ProviderReply(
            data=data,
            input_tokens=usage_count(usage, "prompt_tokens"),
            output_tokens=usage_count(usage, "completion_tokens"),
            model=model,
            provider=self.name,
        )

    def _answer(self, completion: Any) -> dict[str, Any]:
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise InvalidCorrection("The openai model returned no answer (no choices).")
        choice = choices[0]
        # The finish reason first: a cut-off answer can still be valid JSON by chance.
        finish = getattr(choice, "finish_reason", None)
        if finish == "length":
            raise InvalidCorrection(
                "The openai model's answer was cut off at the output token limit "
                f"({self.max_output_tokens} tokens); it was not used.",
                hint="Raise max_output_tokens, or make the edit smaller.",
            )
        message = choice.message
        refusal = getattr(message, "refusal", None)
        if refusal:
            raise InvalidCorrection(f"The openai model refused to answer: {refusal}")
        if finish == "content_filter":
            raise InvalidCorrection(
                "The openai model's answer was stopped by the content filter; it was not used."
            )
        if finish not in _FINISHED:
            raise InvalidCorrection(
                f"The openai model's answer did not finish normally (finish_reason={finish}); "
                "it was not used."
            )
        return parse_json_object(message.content, provider="openai")

    def _mapped(self, exc: BaseException) -> Exception:
        return map_sdk_error(exc, self._sdk, provider=self.name, env_var=self._env_var)
