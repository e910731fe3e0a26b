"""Anthropic through the official ``anthropic`` SDK: a forced tool call carries the JSON."""

from __future__ import annotations

import json
from typing import Any

from editengine.errors import FixerError, InvalidCorrection
from editengine.providers._sdk import import_sdk, map_sdk_error, parse_json_object, usage_count
from editengine.providers.base import ProviderReply
from editengine.providers.credentials import API_KEY_ENV_VARS, resolve_api_key

DEFAULT_ANTHROPIC_MODEL = "claude-haiku-4-5"


class AnthropicProvider:
    """Asks a Claude model to call one tool whose ``input_schema`` is the wanted schema.

    ``tool_choice`` forces that tool, so the answer is the tool_use block's input.
    The SDK clients are built with ``max_retries=0``: retries belong to the caller.
    """

    name = "anthropic"

    def __init__(
        self,
        model: str = DEFAULT_ANTHROPIC_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        client: Any = None,
        async_client: Any = None,
        max_output_tokens: int = 4096,
        temperature: float | None = None,
        tool_name: str = "submit_correction",
    ) -> None:
        self.model = model
        self._sdk = import_sdk("anthropic")
        self._env_var = API_KEY_ENV_VARS["anthropic"]
        if client is None or async_client is None:
            key = resolve_api_key("anthropic", api_key)
            if client is None:
                client = self._sdk.Anthropic(api_key=key, base_url=base_url, max_retries=0)
            if async_client is None:
                async_client = self._sdk.AsyncAnthropic(
                    api_key=key, base_url=base_url, max_retries=0
                )
        self._client = client
        self._async_client = async_client
        self._max_output_tokens = max_output_tokens
        self._temperature = temperature
        self._tool_name = tool_name

    def complete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            message = self._client.messages.create(**self._params(system, user, schema, timeout))
            return self._reply(message)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

    async def acomplete_json(
        self, system: str, user: str, schema: dict[str, Any], *, timeout: float
    ) -> ProviderReply:
        try:
            message = await self._async_client.messages.create(
                **self._params(system, user, schema, timeout)
            )
            return self._reply(message)
        except FixerError:
            raise
        except Exception as exc:  # every other failure leaves as a project error
            raise self._mapped(exc) from exc

    def _params(
        self, system: str, user: str, schema: dict[str, Any], timeout: float
    ) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self._max_output_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
            "tools": [
                {
                    "name": self._tool_name,
                    "description": "Submit the answer. Always answer by calling this tool.",
                    "input_schema": schema,
                }
            ],
            "tool_choice": {"type": "tool", "name": self._tool_name},
            "timeout": timeout,
        }
        if self._temperature is not None:
            params["temperature"] = self._temperature
        return params

    def _reply(self, message: Any) -> ProviderReply:
        for block in getattr(message, "content", None) or []:
            if getattr(block, "type", None) == "tool_use" and block.name == self._tool_name:
                data = self._tool_input(block.input)
                usage = getattr(message, "usage", None)
                return ProviderReply(
                    data=data,
                    input_tokens=usage_count(usage, "input_tokens"),
                    output_tokens=usage_count(usage, "output_tokens"),
                    model=getattr(message, "model", None) or self.model,
                    provider=self.name,
                )
        if getattr(message, "stop_reason", None) == "max_tokens":
            raise InvalidCorrection(
                "The anthropic model's answer was cut off at the output token limit.",
                hint="Raise max_output_tokens, or make the edit smaller.",
            )
        raise InvalidCorrection(
            f"The anthropic model did not call the {self._tool_name} tool "
            f"(stop_reason={getattr(message, 'stop_reason', None)!r})."
        )

    @staticmethod
    def _tool_input(raw: Any) -> dict[str, Any]:
        # The API sends the input as an object; some proxies pass it on as a JSON string.
        if isinstance(raw, (str, dict)):
            return parse_json_object(raw, provider="anthropic")
        raise InvalidCorrection(
            f"The anthropic tool input is not a JSON object: {json.dumps(raw, default=str)[:200]}"
        )

    def _mapped(self, exc: BaseException) -> Exception:
        return map_sdk_error(exc, self._sdk, provider=self.name, env_var=self._env_var)
