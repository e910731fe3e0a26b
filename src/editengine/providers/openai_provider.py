"""OpenAI through the official ``openai`` SDK: Chat Completions with strict structured output."""

from __future__ import annotations

from typing import Any

from editengine.errors import FixerError, InvalidCorrection
from editengine.providers._sdk import import_sdk, map_sdk_error, parse_json_object, usage_count
from editengine.providers.base import ProviderReply
from editengine.providers.credentials import API_KEY_ENV_VARS, resolve_api_key

DEFAULT_OPENAI_MODEL = "gpt-4.1-mini"


class OpenAIProvider:
    """Asks an OpenAI model for a JSON object that follows a schema (``strict`` mode).

    The SDK clients are built with ``max_retries=0``: retries and the overall deadline
    belong to the caller. Pass ``client``/``async_client`` to reuse configured clients.
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
        self._sdk = import_sdk("openai")
        self._env_var = API_KEY_ENV_VARS["openai"]
        if client is None or async_client is None:
            key = resolve_api_key("openai", api_key)
            if client is None:
                client = self._sdk.OpenAI(api_key=key, base_url=base_url, max_retries=0)
            if async_client is None:
                async_client = self._sdk.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0)
        self._client = client
        self._async_client = async_client
        self._max_output_tokens = max_output_tokens
        self._temperature = temperature
        self._schema_name = schema_name

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            completion = self._client.chat.completions.create(
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
            completion = await self._async_client.chat.completions.create(
                **self._params(system, user, schema, timeout)
            )
            return self._reply(completion)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

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
            "max_completion_tokens": self._max_output_tokens,
            "timeout": timeout,
        }
        if self._temperature is not None:
            params["temperature"] = self._temperature
        return params

    def _reply(self, completion: Any) -> ProviderReply:
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise InvalidCorrection("The openai model returned no answer (no choices).")
        choice = choices[0]
        message = choice.message
        refusal = getattr(message, "refusal", None)
        if refusal:
            raise InvalidCorrection(f"The openai model refused to answer: {refusal}")
        if choice.finish_reason == "length":
            raise InvalidCorrection(
                "The openai model's answer was cut off at the output token limit.",
                hint="Raise max_output_tokens, or make the edit smaller.",
            )
        data = parse_json_object(message.content, provider="openai")
        usage = getattr(completion, "usage", None)
        return ProviderReply(
            data=data,
            input_tokens=usage_count(usage, "prompt_tokens"),
            output_tokens=usage_count(usage, "completion_tokens"),
            model=getattr(completion, "model", None) or self.model,
            provider=self.name,
        )

    def _mapped(self, exc: BaseException) -> Exception:
        return map_sdk_error(exc, self._sdk, provider=self.name, env_var=self._env_var)
