"""The LLM fixer: asks a provider to correct a failed search/replace."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import re
import time
from typing import Any

from editengine._errors import BadRequest, FixerError, InvalidCorrection
from editengine.fixer._budget import PromptBudget
from editengine.fixer._cache import CorrectionCache, correction_key
from editengine.fixer._deadline import AsyncSleep, Backoff, Clock, DeadlineRunner, Sleep
from editengine.fixer._flight import FlightTimeout, SingleFlight
from editengine.fixer._prompt import Prompt, PromptBuilder
from editengine.fixer._protocol import Correction, FixRequest
from editengine.fixer._schema import CORRECTION_SCHEMA, parse_correction
from editengine.fixer._window import WindowPolicy
from editengine.providers._base import Provider, ProviderReply


class LLMFixer:
    """Proposes a corrected ``search``/``replace`` for an edit no cascade tier could place.

    - One total ``timeout`` (seconds) per call, retries included; transient provider
      errors are retried with backoff up to ``max_attempts``; a provider that blocks past
      the deadline still yields :class:`~editengine.FixerTimeout` on time.
    - Answers are checked against :data:`CORRECTION_SCHEMA`
      (:class:`~editengine.InvalidCorrection` if they do not fit).
    - Corrections and "no change" verdicts are kept in an LRU of ``cache_size`` entries;
      errors and timeouts are not.
    - Files over ``window_threshold_lines`` lines are sent as windows of
      ``window_context_lines`` lines around the closest regions of the failed search, and
      every prompt is held to ``prompt_budget`` (bytes and estimated tokens, per model):
      fewer regions, less context, long lines shortened around the failed search.
    - Concurrent identical requests (same cache key) share one call; each caller gets its
      outcome, and only the caller that made the call is charged its tokens.
    - An answer that is cut off, refused or not a valid correction raises
      :class:`~editengine.InvalidCorrection` carrying the tokens it cost.
    - :meth:`close` / :meth:`aclose` (or ``with`` / ``async with``) release the provider.

    Every failure is a :class:`~editengine.FixerError`. The fixer only proposes:
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
        prompt_budget: PromptBudget | None = None,
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
        self.budget = prompt_budget or PromptBudget()
        self._flights: SingleFlight[Correction] = SingleFlight(share_error=_shared_error)
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
            correction, shared = self._flights.run(
                key, lambda: self._call(key, request, started), wait=self.timeout
            )
            return self._from_cache(correction, started) if shared else correction
        except FlightTimeout:
            raise self._runner.timed_out_waiting() from None
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
            correction, shared = await self._flights.arun(
                key, lambda: self._acall(key, request, started), wait=self.timeout
            )
            return self._from_cache(correction, started) if shared else correction
        except FlightTimeout:
            raise self._runner.timed_out_waiting() from None
        except FixerError:
            raise
        except Exception as exc:
            raise _unexpected(exc) from exc

    def forget(self, request: FixRequest) -> bool:
        """Drop the cached correction for ``request`` (e.g. one the engine refused)."""
        return self.cache.forget(correction_key(request))

    def close(self) -> None:
        """Release the provider's resources (calls under way on its own clients end)."""
        close = getattr(self.provider, "close", None)
        if callable(close):
            close()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`; uses the provider's ``aclose`` when it has one."""
        aclose = getattr(self.provider, "aclose", None)
        if callable(aclose):
            await aclose()
        else:
            self.close()

    def __enter__(self) -> LLMFixer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> LLMFixer:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    @property
    def prompt_limit_bytes(self) -> int:
        """The byte limit of this fixer's prompts, for its provider's model."""
        return self.budget.limit_bytes(
            getattr(self.provider, "model", None),
            _int(getattr(self.provider, "max_output_tokens", 0)),
        )

    # ------------------------------------------------------------------ one call

    def _call(self, key: str, request: FixRequest, started: float) -> Correction:
        """The leader's work: cache again (a flight may just have landed), else ask."""
        cached = self.cache.get(key)
        if cached is not None:
            return self._from_cache(cached, started)
        prompt = self.prompts.build(request, max_bytes=self.prompt_limit_bytes)
        try:
            reply = self._runner.run(
                lambda timeout: self.provider.complete_json(
                    prompt.system, prompt.user, CORRECTION_SCHEMA, timeout=timeout
                )
            )
        except InvalidCorrection as exc:
            raise self._priced(exc, prompt, started) from exc.__cause__
        return self._accept(key, request, reply, prompt, started)

    async def _acall(self, key: str, request: FixRequest, started: float) -> Correction:
        cached = self.cache.get(key)
        if cached is not None:
            return self._from_cache(cached, started)
        prompt = self.prompts.build(request, max_bytes=self.prompt_limit_bytes)
        try:
            reply = await self._runner.arun(
                lambda timeout: self.provider.acomplete_json(
                    prompt.system, prompt.user, CORRECTION_SCHEMA, timeout=timeout
                )
            )
        except InvalidCorrection as exc:
            raise self._priced(exc, prompt, started) from exc.__cause__
        return self._accept(key, request, reply, prompt, started)

    def _accept(
        self,
        key: str,
        request: FixRequest,
        reply: ProviderReply,
        prompt: Prompt,
        started: float,
    ) -> Correction:
        source = f"the {_provider_name(self.provider)} model"
        try:
            proposed = parse_correction(reply.data, source=source)
            _check_text(proposed.search, request.old_string, "search", source)
            _check_text(proposed.replace, request.new_string, "replace", source)
        except InvalidCorrection as exc:
            exc.input_tokens, exc.output_tokens = reply.input_tokens, reply.output_tokens
            exc.provider = reply.provider or _provider_name(self.provider)
            exc.model = reply.model or getattr(self.provider, "model", None)
            raise self._priced(exc, prompt, started) from exc.__cause__
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
            prompt_bytes=prompt.size_bytes,
            prompt_tokens=self.budget.estimate_tokens(prompt.size_bytes),
            prompt_budget_bytes=prompt.budget_bytes,
        )
        self.cache.put(key, correction)
        return correction

    def _priced(self, exc: InvalidCorrection, prompt: Prompt, started: float) -> InvalidCorrection:
        """``exc`` with the prompt's facts: an invalid answer was still a paid call."""
        exc.provider = exc.provider or _provider_name(self.provider)
        exc.model = exc.model or getattr(self.provider, "model", None)
        exc.prompt_chars = prompt.chars
        exc.prompt_bytes = prompt.size_bytes
        exc.windowed = prompt.windowed
        exc.latency_ms = self._elapsed_ms(started)
        return exc

    def _from_cache(self, cached: Correction, started: float) -> Correction:
        # A hit (or a call shared with a concurrent identical request) costs nothing: no
        # tokens, and only the lookup's latency; the call itself was counted once.
        return dataclasses.replace(
            cached,
            cache_hit=True,
            latency_ms=self._elapsed_ms(started),
            input_tokens=0,
            output_tokens=0,
        )

    def _elapsed_ms(self, started: float) -> float:
        return max(0.0, (self._clock() - started) * 1000.0)


def _shared_error(error: Exception) -> Exception:
    """The leader's error as a caller that shared its call receives it: a copy of its own
    (an exception object is not raised in two threads at once), charged nothing."""
    shared = copy.copy(error)
    if isinstance(shared, InvalidCorrection):
        shared.input_tokens = shared.output_tokens = 0
    # Telemetry records such a caller as answered without a call of its own (cache_hit).
    shared.shared_call = True  # type: ignore[attr-defined]  # read back with getattr by telemetry; any exception may carry it
    return shared


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(text: str, agent_text: str, field: str, source: str) -> None:
    """A lone surrogate the agent did not send is the model's doing: its answer is invalid
    (it could not be written as UTF-8), not the agent's request."""
    found = _LONE_SURROGATE.search(text)
    if found is None or _LONE_SURROGATE.search(agent_text) is not None:
        return
    raise InvalidCorrection(
        f"The answer from {source} is unusable: its {field} text holds a lone surrogate "
        f"(U+{ord(found.group()):04X} at character {found.start()}), which cannot be written "
        "as UTF-8. The edit you sent is not at fault.",
        hint="Fix old_string by hand, or send the edit again.",
    )


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


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
