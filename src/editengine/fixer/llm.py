"""The LLM fixer: asks a provider to correct a failed search/replace."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

from editengine.errors import BadRequest, FixerError
from editengine.fixer.cache import CorrectionCache, correction_key
from editengine.fixer.deadline import AsyncSleep, Backoff, Clock, DeadlineRunner, Sleep
from editengine.fixer.prompt import Prompt, PromptBuilder
from editengine.fixer.protocol import Correction, FixRequest
from editengine.fixer.schema import CORRECTION_SCHEMA, parse_correction
from editengine.fixer.window import WindowPolicy
from editengine.providers.base import Provider, ProviderReply


class LLMFixer:
    """Proposes a corrected ``search``/``replace`` for an edit no cascade tier could place.

    - One total ``timeout`` (seconds) per call, retries included; transient provider
      errors are retried with backoff up to ``max_attempts``; a provider that blocks past
      the deadline still yields :class:`~editengine.errors.FixerTimeout` on time.
    - Answers are checked against :data:`CORRECTION_SCHEMA`
      (:class:`~editengine.errors.InvalidCorrection` if they do not fit).
    - Corrections and "no change" verdicts are kept in an LRU of ``cache_size`` entries;
      errors and timeouts are not.
    - Files over ``window_threshold_lines`` lines are sent as windows of
      ``window_context_lines`` lines around the closest regions of the failed search.

    Every failure is a :class:`~editengine.errors.FixerError`. The fixer only proposes:
    the engine checks the proposal against the file before anything is written.
    """

    def __init__(
        self,
        provider: Provider,
        *,
        timeout: float = 40.0,
        cache_size: int = 50,
        max_attempts: int = 4,
        window_threshold_lines: int = 400,
        window_context_lines: int = 40,
        window_max_regions: int = 3,
        backoff: Backoff | None = None,
        prompts: PromptBuilder | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
        async_sleep: AsyncSleep = asyncio.sleep,
    ) -> None:
        _require(timeout > 0, "timeout must be a positive number of seconds", timeout)
        _require(cache_size >= 0, "cache_size must be 0 (off) or more", cache_size)
        _require(max_attempts >= 1, "max_attempts must be at least 1", max_attempts)
        _require(
            window_threshold_lines >= 0,
            "window_threshold_lines must be >= 0",
            window_threshold_lines,
        )
        _require(
            window_context_lines >= 0, "window_context_lines must be >= 0", window_context_lines
        )
        _require(window_max_regions >= 1, "window_max_regions must be >= 1", window_max_regions)
        self.provider = provider
        self.timeout = timeout
        self.cache = CorrectionCache(cache_size)
        self.prompts = prompts or PromptBuilder(
            window=WindowPolicy(
                threshold_lines=window_threshold_lines,
                context_lines=window_context_lines,
                max_regions=window_max_regions,
            )
        )
        self._clock = clock
        self._runner = DeadlineRunner(
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff or Backoff(),
            clock=clock,
            sleep=sleep,
            async_sleep=async_sleep,
            label=_provider_name(provider),
        )

    def correct(self, request: FixRequest) -> Correction:
        started = self._clock()
        try:
            key = correction_key(request)
            cached = self.cache.get(key)
            if cached is not None:
                return self._from_cache(cached, started)
            prompt = self.prompts.build(request)
            reply = self._runner.run(
                lambda timeout: self.provider.complete_json(
                    prompt.system, prompt.user, CORRECTION_SCHEMA, timeout=timeout
                )
            )
            return self._accept(key, reply, prompt, started)
        except FixerError:
            raise
        except Exception as exc:
            raise _unexpected(exc) from exc

    async def acorrect(self, request: FixRequest) -> Correction:
        started = self._clock()
        try:
            key = correction_key(request)
            cached = self.cache.get(key)
            if cached is not None:
                return self._from_cache(cached, started)
            prompt = self.prompts.build(request)
            reply = await self._runner.arun(
                lambda timeout: self.provider.acomplete_json(
                    prompt.system, prompt.user, CORRECTION_SCHEMA, timeout=timeout
                )
            )
            return self._accept(key, reply, prompt, started)
        except FixerError:
            raise
        except Exception as exc:
            raise _unexpected(exc) from exc

    def forget(self, request: FixRequest) -> bool:
        """Drop the cached correction for ``request`` (e.g. one the engine refused)."""
        return self.cache.forget(correction_key(request))

    def _accept(self, key: str, reply: ProviderReply, prompt: Prompt, started: float) -> Correction:
        proposed = parse_correction(reply.data, source=f"the {_provider_name(self.provider)} model")
        correction = Correction(
            search=proposed.search,
            replace=proposed.replace,
            no_changes_required=proposed.no_changes_required,
            explanation=proposed.explanation,
            provider=reply.provider or _provider_name(self.provider),
            model=reply.model or getattr(self.provider, "model", None),
            cache_hit=False,
            latency_ms=self._elapsed_ms(started),
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            prompt_chars=prompt.chars,
            windowed=prompt.windowed,
        )
        self.cache.put(key, correction)
        return correction

    def _from_cache(self, cached: Correction, started: float) -> Correction:
        # A hit costs nothing: no tokens, and only the lookup's latency.
        return dataclasses.replace(
            cached,
            cache_hit=True,
            latency_ms=self._elapsed_ms(started),
            input_tokens=0,
            output_tokens=0,
        )

    def _elapsed_ms(self, started: float) -> float:
        return max(0.0, (self._clock() - started) * 1000.0)


def _provider_name(provider: Any) -> str:
    return str(getattr(provider, "name", None) or type(provider).__name__)


def _require(condition: bool, message: str, value: object) -> None:
    if not condition:
        raise BadRequest(f"LLMFixer: {message} (got {value!r}).")


def _unexpected(exc: Exception) -> FixerError:
    return FixerError(
        f"The LLM fixer failed unexpectedly: {type(exc).__name__}: {exc}",
        hint="The original edit error stands. Please report this as a bug in editengine.",
    )
