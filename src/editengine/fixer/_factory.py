"""``make_fixer``: an :class:`LLMFixer` on a named real provider, for the CLI and harnesses."""

from __future__ import annotations

from editengine._errors import BadRequest
from editengine.fixer._budget import PromptBudget
from editengine.fixer._llm import LLMFixer
from editengine.providers._base import Provider

PROVIDER_NAMES = ("openai", "anthropic")


def make_provider(
    provider_name: str,
    *,
    model: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
) -> Provider:
    """The real provider called ``provider_name`` (``"openai"`` or ``"anthropic"``)."""
    name = provider_name.strip().lower()
    if name == "openai":
        from editengine.providers._openai_provider import DEFAULT_OPENAI_MODEL, OpenAIProvider

        return OpenAIProvider(model or DEFAULT_OPENAI_MODEL, api_key=api_key, base_url=base_url)
    if name == "anthropic":
        from editengine.providers._anthropic_provider import (
            DEFAULT_ANTHROPIC_MODEL,
            AnthropicProvider,
        )

        return AnthropicProvider(
            model or DEFAULT_ANTHROPIC_MODEL, api_key=api_key, base_url=base_url
        )
    raise BadRequest(
        f"Unknown fixer provider {provider_name!r}.",
        hint="Choose one of: " + ", ".join(PROVIDER_NAMES) + ".",
    )


def make_fixer(
    provider_name: str,
    *,
    model: str | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout: float = 40.0,
    cache_size: int = 50,
    prompt_budget: PromptBudget | None = None,
) -> LLMFixer:
    """An :class:`LLMFixer` on OpenAI or Anthropic; the API key defaults to the SDK's env var.

    >>> fixer = make_fixer("anthropic", model="claude-haiku-4-5")  # doctest: +SKIP
    """
    provider = make_provider(provider_name, model=model, api_key=api_key, base_url=base_url)
    return LLMFixer(provider, timeout=timeout, cache_size=cache_size, prompt_budget=prompt_budget)
