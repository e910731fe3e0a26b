"""Where API keys come from: the one place editengine reads the environment.

Lookup order: the ``api_key`` argument, then the SDK's usual environment variable.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from editengine._errors import ProviderConfigError

API_KEY_ENV_VARS: Mapping[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
}


def resolve_api_key(
    provider: str, explicit: str | None, *, environ: Mapping[str, str] | None = None
) -> str:
    """The API key for ``provider``: ``explicit`` if given, else its environment variable."""
    if explicit:
        return explicit
    env_var = API_KEY_ENV_VARS[provider]
    value = (os.environ if environ is None else environ).get(env_var, "").strip()
    if value:
        return value
    raise ProviderConfigError(
        f"No API key for the {provider} provider: {env_var} is not set.",
        hint=f"Set {env_var} in the environment or pass api_key= to the provider.",
    )
