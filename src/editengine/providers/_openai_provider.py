"""OpenAI through the official ``openai`` SDK: Chat Completions with strict structured output."""

from __future__ import annotations

from typing import Any

from editengine._errors import InvalidCorrection
from editengine.providers._sdk import parse_json_object
from editengine.providers._sdk_provider import SDKProvider

DEFAULT_OPENAI_MODEL = "gpt-4.1-mini"

# finish_reason values that mean the answer is complete. None: a proxy that leaves it out.
_FINISHED = frozenset({"stop", None})


class OpenAIProvider(SDKProvider):
    """Asks an OpenAI model for a JSON object that follows a schema (``strict`` mode).

    Clients, retries and lifetime as :class:`SDKProvider` says. The finish reason is read
    before the answer: a reply cut off at the token limit is invalid, whatever it holds.
    """

    name = "openai"
    _sync_client_class = "OpenAI"
    _async_client_class = "AsyncOpenAI"
    _usage_names = ("prompt_tokens", "completion_tokens")

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
        super().__init__(
            model,
            api_key=api_key,
            base_url=base_url,
            client=client,
            async_client=async_client,
            max_output_tokens=max_output_tokens,
            temperature=temperature,
        )
        self._schema_name = schema_name

    def _create(self, client: Any, params: dict[str, Any]) -> Any:
        return client.chat.completions.create(**params)

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
