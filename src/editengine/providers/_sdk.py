"""What the OpenAI and Anthropic SDKs have in common: lazy import and error mapping.

Both SDKs share one exception layout (``APIStatusError`` with ``status_code``,
``APIConnectionError``, ``APITimeoutError``, ``AuthenticationError``), so one function
maps either to the project's error tree.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

from editengine.errors import FixerError, InvalidCorrection, ProviderConfigError, ProviderError

# HTTP statuses a retry may cure: request timeout, conflict, rate limit; plus every 5xx.
_TRANSIENT_STATUSES = frozenset({408, 409, 429})
_DETAIL_LIMIT = 300


def import_sdk(package: str) -> ModuleType:
    """Import ``openai`` or ``anthropic`` on first use, so the core install needs neither."""
    try:
        return importlib.import_module(package)
    except ImportError as exc:
        raise ProviderConfigError(
            f"The {package} package is not installed, so the {package} provider is unavailable.",
            hint=f'Install it with: pip install "editengine[{package}]"',
        ) from exc


def map_sdk_error(
    exc: BaseException, sdk: ModuleType, *, provider: str, env_var: str
) -> FixerError:
    """The project error for an exception raised inside an SDK call."""
    if isinstance(exc, sdk.APITimeoutError):
        return ProviderError(f"The {provider} request timed out.", transient=True)
    if isinstance(exc, sdk.APIConnectionError):
        return ProviderError(f"Could not reach the {provider} API: {_detail(exc)}", transient=True)
    if isinstance(exc, sdk.AuthenticationError):
        return ProviderConfigError(
            f"The {provider} API rejected the API key (HTTP 401): {_detail(exc)}",
            hint=f"Check {env_var} or the api_key= argument.",
        )
    if isinstance(exc, sdk.APIStatusError):
        status = int(exc.status_code)
        transient = status in _TRANSIENT_STATUSES or status >= 500
        return ProviderError(
            f"The {provider} API answered HTTP {status}: {_detail(exc)}",
            transient=transient,
            status_code=status,
            retry_after=_retry_after(exc),
            hint=None if transient else "The request was refused; retrying will not help.",
        )
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError(f"The {provider} API sent a response that is not JSON: {exc}")
    return ProviderError(f"The {provider} call failed: {type(exc).__name__}: {_detail(exc)}")


def parse_json_object(text: Any, *, provider: str) -> dict[str, Any]:
    """The model's answer as a JSON object, or :class:`InvalidCorrection`."""
    if isinstance(text, dict):
        return text
    if not isinstance(text, str) or not text.strip():
        raise InvalidCorrection(f"The {provider} model returned an empty answer.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidCorrection(
            f"The {provider} model's answer is not valid JSON ({exc.msg} at char {exc.pos}): "
            f"{_clip(text)}"
        ) from exc
    if not isinstance(data, dict):
        raise InvalidCorrection(
            f"The {provider} model's answer is JSON but not an object: {_clip(text)}"
        )
    return data


def usage_count(usage: Any, name: str) -> int:
    value = getattr(usage, name, None) if usage is not None else None
    return value if isinstance(value, int) else 0


def _retry_after(exc: BaseException) -> float | None:
    """Seconds from a ``Retry-After`` (or ``retry-after-ms``) header; dates are ignored."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            seconds = float(raw) * scale
        except ValueError:
            continue
        if seconds >= 0:
            return seconds
    return None


def _detail(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return _clip(str(message))


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_LIMIT else text[: _DETAIL_LIMIT - 3] + "..."
