"""Anthropic through the official ``anthropic`` SDK: a forced, strict tool call carries the JSON."""

from __future__ import annotations

import json
from typing import Any

from editengine._errors import InvalidCorrection
from editengine.providers._sdk import parse_json_object
from editengine.providers._sdk_provider import SDKProvider

DEFAULT_ANTHROPIC_MODEL = "claude-haiku-4-5"

# Stop reasons that mean the answer was cut short: its tool input may lack its end even
# when every key is present (a ``replace`` cut mid-way deletes what follows).
_CUT_OFF = frozenset({"max_tokens", "model_context_window_exceeded"})
# Stop reasons of a finished answer. None: a proxy that leaves it out.
_FINISHED = frozenset({"tool_use", "end_turn", "stop_sequence", None})
# Model families older than strict tool use (tools[].strict); the API refuses it for them.
_NO_STRICT_PREFIXES = ("claude-2", "claude-instant", "claude-3")


def supports_strict_tools(model: str) -> bool:
    """Whether the Messages API takes ``strict: true`` on a tool for ``model``."""
    return not model.lower().startswith(_NO_STRICT_PREFIXES)


class AnthropicProvider(SDKProvider):
    """Asks a Claude model to call one tool whose ``input_schema`` is the wanted schema.

    ``tool_choice`` forces that tool, so the answer is the tool_use block's input. The tool
    is sent with ``strict: true`` (the API then guarantees the input follows the schema)
    for models that support it; ``strict_tools`` overrides the choice. The stop reason is
    read before the tool input: an answer cut off at the token limit is invalid, even if
    its input has every key. Clients, retries and lifetime as :class:`SDKProvider` says.
    """

    name = "anthropic"
    _sync_client_class = "Anthropic"
    _async_client_class = "AsyncAnthropic"
    _usage_names = ("input_tokens", "output_tokens")

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
        strict_tools: bool | None = None,
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
        self.strict_tools = supports_strict_tools(model) if strict_tools is None else strict_tools
        self._tool_name = tool_name

    def _create(self, client: Any, params: dict[str, Any]) -> Any:
        return client.messages.create(**params)

    def _params(
        self, system: str, user: str, schema: dict[str, Any], timeout: float
    ) -> dict[str, Any]:
        tool: dict[str, Any] = {
            "name": self._tool_name,
            "description": "Submit the answer. Always answer by calling this tool.",
            "input_schema": schema,
        }
        if self.strict_tools:
            tool["strict"] = True
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "system": system,
            "messages": [{"role": "user", "content": user}],
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": self._tool_name},
            "timeout": timeout,
        }
        if self._temperature is not None:
            params["temperature"] = self._temperature
        return params

    def _answer(self, message: Any) -> dict[str, Any]:
        # The stop reason first: a cut-off tool input can look complete.
        stop = getattr(message, "stop_reason", None)
        if stop in _CUT_OFF:
            raise InvalidCorrection(
                f"The anthropic model's answer was cut off (stop_reason {stop}, "
                f"output limit {self.max_output_tokens} tokens); it was not used.",
                hint="Raise max_output_tokens, or make the edit smaller.",
            )
        if stop == "refusal":
            raise InvalidCorrection("The anthropic model refused to answer.")
        if stop not in _FINISHED:
            raise InvalidCorrection(
                f"The anthropic model's answer did not finish (stop_reason {stop}); "
                "it was not used."
            )
        for block in getattr(message, "content", None) or []:
            if getattr(block, "type", None) == "tool_use" and block.name == self._tool_name:
                return self._tool_input(block.input)
        raise InvalidCorrection(
            f"The anthropic model did not call the {self._tool_name} tool (stop_reason {stop})."
        )

    @staticmethod
    def _tool_input(raw: Any) -> dict[str, Any]:
        # The API sends the input as an object; some proxies pass it on as a JSON string.
        if isinstance(raw, (str, dict)):
            return parse_json_object(raw, provider="anthropic")
        raise InvalidCorrection(
            f"The anthropic tool input is not a JSON object: {json.dumps(raw, default=str)[:200]}"
        )
