"""Model providers: one JSON-producing call each, sync and async.

Real providers (their SDK is imported only when you build one):
:class:`OpenAIProvider` (``pip install "editengine[openai]"``) and
:class:`AnthropicProvider` (``pip install "editengine[anthropic]"``).
Offline providers for tests and evaluation: :class:`ScriptedProvider`,
:class:`ReplayProvider`, :class:`CallbackProvider`.
"""

from editengine._public import publish
from editengine.providers._anthropic_provider import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider
from editengine.providers._base import Provider, ProviderReply, ProviderRequest, request_key
from editengine.providers._credentials import API_KEY_ENV_VARS, resolve_api_key
from editengine.providers._offline import CallbackProvider, ReplayProvider, ScriptedProvider
from editengine.providers._openai_provider import DEFAULT_OPENAI_MODEL, OpenAIProvider

__all__ = [
    "API_KEY_ENV_VARS",
    "DEFAULT_ANTHROPIC_MODEL",
    "DEFAULT_OPENAI_MODEL",
    "AnthropicProvider",
    "CallbackProvider",
    "OpenAIProvider",
    "Provider",
    "ProviderReply",
    "ProviderRequest",
    "ReplayProvider",
    "ScriptedProvider",
    "request_key",
    "resolve_api_key",
]


publish(globals())  # public names show this package, not their private module
