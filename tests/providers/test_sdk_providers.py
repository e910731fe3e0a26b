"""The OpenAI and Anthropic providers on their own: configuration and the error boundary."""

from __future__ import annotations

import json
import sys

import httpx
import httpx2
import pytest

from editengine._errors import (
    BadRequest,
    FixerError,
    InvalidCorrection,
    ProviderConfigError,
    ProviderError,
)
from editengine.fixer import CORRECTION_SCHEMA, LLMFixer, PromptBudget, make_fixer
from editengine.providers import AnthropicProvider, OpenAIProvider

from .conftest import GOOD_ANSWER


def test_a_missing_api_key_names_the_env_var(backend, monkeypatch):
    monkeypatch.delenv(backend.env_var, raising=False)

    with pytest.raises(ProviderConfigError) as caught:
        backend.provider(api_key=None)

    assert backend.env_var in str(caught.value)
    assert caught.value.code == "provider_config"


def test_make_fixer_without_a_key_names_the_env_var(backend, monkeypatch):
    monkeypatch.delenv(backend.env_var, raising=False)

    with pytest.raises(ProviderConfigError, match=backend.env_var):
        make_fixer(backend.name)


def test_the_key_comes_from_the_env_var_when_not_given(backend, monkeypatch, httpx2_mock):
    monkeypatch.setenv(backend.env_var, "key-from-env")
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    backend.provider(api_key=None).complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    headers = route.calls[0].request.headers
    sent_key = headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")
    assert sent_key == "key-from-env"


def test_an_explicit_key_wins_over_the_env_var(backend, monkeypatch, httpx2_mock):
    monkeypatch.setenv(backend.env_var, "key-from-env")
    route = httpx2_mock.post(backend.url).mock(return_value=backend.answer(GOOD_ANSWER))

    backend.provider(api_key="explicit").complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    headers = route.calls[0].request.headers
    assert "explicit" in (headers.get("x-api-key", "") + headers.get("authorization", ""))


def test_a_missing_sdk_says_which_extra_to_install(backend, monkeypatch):
    monkeypatch.setitem(sys.modules, backend.name, None)  # makes `import <sdk>` fail

    with pytest.raises(ProviderConfigError) as caught:
        backend.provider()

    assert f'pip install "editengine[{backend.name}]"' in str(caught.value)


def test_sdk_clients_do_not_retry_on_their_own(backend, httpx2_mock):
    route = httpx2_mock.post(backend.url).mock(side_effect=[backend.error(500)] * 3)
    provider = backend.provider()

    with pytest.raises(ProviderError):
        provider.complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert route.call_count == 1  # the SDK's own retry loop is off: retries are the fixer's


async def test_async_sdk_clients_do_not_retry_on_their_own(backend, httpx2_mock):
    route = httpx2_mock.post(backend.url).mock(side_effect=[backend.error(500)] * 3)

    with pytest.raises(ProviderError):
        await backend.provider().acomplete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert route.call_count == 1


def test_base_url_is_honoured(backend, httpx2_mock):
    route = httpx2_mock.post(url__regex=r"https://llm\.internal/.*").mock(
        return_value=backend.answer(GOOD_ANSWER)
    )

    backend.provider(base_url="https://llm.internal/v1").complete_json(
        "s", "u", CORRECTION_SCHEMA, timeout=5
    )

    assert route.call_count == 1


def test_a_rejected_key_is_a_config_error(backend, httpx2_mock):
    httpx2_mock.post(backend.url).mock(return_value=backend.error(401))

    with pytest.raises(ProviderConfigError) as caught:
        backend.provider().complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert "401" in str(caught.value) and backend.env_var in str(caught.value)


@pytest.mark.parametrize(
    "status, transient",
    [(400, False), (403, False), (404, False), (408, True), (429, True), (500, True), (529, True)],
)
def test_http_errors_map_to_provider_errors(backend, httpx2_mock, status, transient):
    httpx2_mock.post(backend.url).mock(return_value=backend.error(status))

    with pytest.raises(ProviderError) as caught:
        backend.provider().complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert caught.value.transient is transient
    assert caught.value.status_code == status
    assert isinstance(caught.value.__cause__, Exception)  # the SDK error, kept for debugging


def test_a_connection_failure_is_transient(backend, httpx2_mock):
    httpx2_mock.post(backend.url).mock(side_effect=httpx2.ConnectError("refused"))

    with pytest.raises(ProviderError) as caught:
        backend.provider().complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert caught.value.transient is True


def test_a_timeout_is_transient(backend, httpx2_mock):
    httpx2_mock.post(backend.url).mock(side_effect=httpx2.ReadTimeout("slow"))

    with pytest.raises(ProviderError) as caught:
        backend.provider().complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert caught.value.transient is True
    assert "timed out" in str(caught.value)


async def test_async_errors_are_mapped_too(backend, httpx2_mock):
    httpx2_mock.post(backend.url).mock(return_value=backend.error(503))

    with pytest.raises(ProviderError) as caught:
        await backend.provider().acomplete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert caught.value.transient is True


def test_openai_refusal_is_an_invalid_correction(httpx2_mock):
    body = {
        "id": "c",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1-mini",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": None, "refusal": "I can't."},
            }
        ],
    }
    httpx2_mock.post("https://api.openai.com/v1/chat/completions").mock(
        return_value=httpx.Response(200, json=body)
    )

    with pytest.raises(InvalidCorrection, match="refused"):
        OpenAIProvider(api_key="k").complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)


def test_anthropic_tool_input_sent_as_a_json_string_is_parsed(httpx2_mock):
    body = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "Here is the fix."},
            {
                "type": "tool_use",
                "id": "t",
                "name": "submit_correction",
                "input": json.dumps(GOOD_ANSWER),
            },
        ],
        "usage": {"input_tokens": 5, "output_tokens": 6},
    }
    httpx2_mock.post("https://api.anthropic.com/v1/messages").mock(
        return_value=httpx.Response(200, json=body)
    )

    reply = AnthropicProvider(api_key="k").complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert reply.data == GOOD_ANSWER
    assert (reply.input_tokens, reply.output_tokens) == (5, 6)


def test_anthropic_answer_without_the_tool_call_is_invalid(httpx2_mock):
    body = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5",
        "stop_reason": "end_turn",
        "content": [{"type": "text", "text": "Just edit line 2."}],
        "usage": {"input_tokens": 5, "output_tokens": 6},
    }
    httpx2_mock.post("https://api.anthropic.com/v1/messages").mock(
        return_value=httpx.Response(200, json=body)
    )

    with pytest.raises(InvalidCorrection, match="did not call the submit_correction tool"):
        AnthropicProvider(api_key="k").complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)


# ---------------------------------------------------------------------- make_fixer


def test_make_fixer_builds_the_named_provider(backend):
    fixer = make_fixer(backend.name, api_key="k", timeout=12.5, cache_size=7)

    assert isinstance(fixer, LLMFixer)
    assert fixer.provider.name == backend.name
    assert fixer.provider.model == backend.default_model
    assert fixer.timeout == 12.5 and fixer.cache.maxsize == 7


def test_make_fixer_passes_the_model_and_base_url(backend, httpx2_mock):
    route = httpx2_mock.post(url__regex=r"https://proxy\.example/.*").mock(
        return_value=backend.answer(GOOD_ANSWER)
    )
    fixer = make_fixer(
        backend.name.upper(), model="my-model", api_key="k", base_url="https://proxy.example/v1"
    )

    fixer.provider.complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert json.loads(route.calls[0].request.content)["model"] == "my-model"


def test_make_fixer_refuses_an_unknown_provider():
    with pytest.raises(BadRequest) as caught:
        make_fixer("gemini")

    assert "openai" in str(caught.value) and "anthropic" in str(caught.value)


def test_make_fixer_names_the_unknown_provider_and_the_ones_it_knows():
    with pytest.raises(BadRequest) as caught:
        make_fixer(" Gemini")

    assert caught.value.message == "Unknown fixer provider ' Gemini'."
    assert caught.value.hint == "Choose one of: openai, anthropic."


def test_make_fixer_takes_the_provider_name_with_spaces_around_it(backend):
    assert make_fixer(f" {backend.name}\n", api_key="k").provider.name == backend.name


def test_make_fixer_waits_forty_seconds_and_caches_fifty_corrections_by_default(backend):
    fixer = make_fixer(backend.name, api_key="k")

    assert fixer.timeout == 40.0
    assert fixer.cache.maxsize == 50


def test_make_fixer_holds_prompts_to_the_budget_it_is_given(backend):
    budget = PromptBudget(max_bytes=20_000)

    assert make_fixer(backend.name, api_key="k", prompt_budget=budget).budget is budget


def test_an_unreadable_answer_is_still_a_project_error(backend, httpx2_mock):
    # a well-formed HTTP body whose answer is not where the provider looks for it
    body = json.loads(backend.answer(GOOD_ANSWER).content)
    if backend.name == "openai":
        body["choices"][0]["message"] = None
    else:
        body["content"] = None
    httpx2_mock.post(backend.url).mock(return_value=httpx.Response(200, json=body))

    with pytest.raises(FixerError) as caught:
        backend.provider().complete_json("s", "u", CORRECTION_SCHEMA, timeout=5)

    assert caught.value.__cause__ is not caught.value
