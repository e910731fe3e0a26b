"""One total deadline per fixer call, retries included, enforced by the wall clock.

:class:`DeadlineRunner` calls ``call(remaining_seconds)`` and retries it with tenacity,
but only on transient provider errors (rate limit, connection, provider timeout, 5xx),
with exponential backoff plus jitter (longer if the provider sent ``Retry-After``),
until the call succeeds, ``max_attempts`` is reached or the next attempt could not start
before the deadline. A call that blocks past the deadline is abandoned: the sync runner
waits for a worker thread only as long as the time left and then ends the request (see
:mod:`editengine.providers._abandon`), the async runner uses :func:`asyncio.wait_for`,
which cancels it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar, cast

from tenacity import AsyncRetrying, RetryCallState, Retrying, retry_if_exception
from tenacity.wait import wait_exponential, wait_random

from editengine._errors import FixerError, FixerTimeout, ProviderError
from editengine.providers._abandon import CallScope

T = TypeVar("T")

Clock = Callable[[], float]
Sleep = Callable[[float], None]
AsyncSleep = Callable[[float], Awaitable[None]]

# Starting a request with less time than this left is pointless; stop instead.
_MIN_ATTEMPT_SECONDS = 0.05


@dataclass(frozen=True)
class Backoff:
    """Wait ``initial * 2**(n-1)`` seconds (capped at ``maximum``) plus up to ``jitter``."""

    initial: float = 0.5
    maximum: float = 8.0
    jitter: float = 0.5


@dataclass(frozen=True)
class _RetryRules:
    """When tenacity stops, how long it waits, and what it retries: the same for the sync
    and async runners."""

    stop: Callable[[RetryCallState], bool]
    wait: Callable[[RetryCallState], float]
    retry: retry_if_exception


def _is_transient(exc: BaseException) -> bool:
    return isinstance(exc, ProviderError) and exc.transient


class DeadlineRunner:
    """Runs one provider call under a total deadline, retrying transient errors."""

    def __init__(
        self,
        *,
        timeout: float,
        max_attempts: int,
        backoff: Backoff,
        clock: Clock,
        sleep: Sleep,
        async_sleep: AsyncSleep,
        label: str = "provider",
    ) -> None:
        self.timeout = timeout
        self.max_attempts = max_attempts
        self._wait = wait_exponential(
            multiplier=backoff.initial, max=backoff.maximum
        ) + wait_random(0, backoff.jitter)
        self._clock = clock
        self._sleep = sleep
        self._async_sleep = async_sleep
        self._label = label

    def run(self, call: Callable[[float], T]) -> T:
        deadline = self._clock() + self.timeout
        attempts = 0
        try:
            rules = self._retry_rules(deadline)
            retrying = Retrying(
                stop=rules.stop, wait=rules.wait, retry=rules.retry, reraise=True, sleep=self._sleep
            )
            for attempt in retrying:
                with attempt:
                    attempts += 1
                    remaining = self._time_left(deadline, attempts)
                    finished, value = _in_thread(call, remaining)
                    if not finished:
                        raise self._timed_out(attempts)
                    return cast(T, value)
        except ProviderError as exc:
            if exc.transient:
                raise self._gave_up(exc, attempts) from exc
            raise
        raise AssertionError("unreachable: tenacity either returns or raises")  # pragma: no cover

    async def arun(self, call: Callable[[float], Awaitable[T]]) -> T:
        deadline = self._clock() + self.timeout
        attempts = 0
        try:
            rules = self._retry_rules(deadline)
            retrying = AsyncRetrying(
                stop=rules.stop,
                wait=rules.wait,
                retry=rules.retry,
                reraise=True,
                sleep=self._async_sleep,
            )
            async for attempt in retrying:
                with attempt:
                    attempts += 1
                    remaining = self._time_left(deadline, attempts)
                    try:
                        return await asyncio.wait_for(_aguarded(call, remaining), remaining)
                    except asyncio.TimeoutError:
                        raise self._timed_out(attempts) from None
        except ProviderError as exc:
            if exc.transient:
                raise self._gave_up(exc, attempts) from exc
            raise
        raise AssertionError("unreachable: tenacity either returns or raises")  # pragma: no cover

    # ------------------------------------------------------------------ helpers

    def _retry_rules(self, deadline: float) -> _RetryRules:
        def stop(state: RetryCallState) -> bool:
            if state.attempt_number >= self.max_attempts:
                return True
            upcoming = getattr(state, "upcoming_sleep", 0.0) or 0.0
            return self._clock() + upcoming + _MIN_ATTEMPT_SECONDS >= deadline

        def wait(state: RetryCallState) -> float:
            # A provider that says when to come back is believed over our own backoff.
            backoff = self._wait(state)
            failure = state.outcome.exception() if state.outcome is not None else None
            asked = getattr(failure, "retry_after", None)
            return max(backoff, asked) if isinstance(asked, (int, float)) else backoff

        return _RetryRules(stop, wait, retry_if_exception(_is_transient))

    def _time_left(self, deadline: float, attempts: int) -> float:
        remaining = deadline - self._clock()
        if remaining <= 0:
            raise self._timed_out(attempts - 1)
        return remaining

    def timed_out_waiting(self) -> FixerTimeout:
        """The deadline passed while waiting for an identical request's call to finish."""
        return FixerTimeout(
            f"The LLM fixer ({self._label}) did not answer within its {self.timeout:g} s deadline "
            "(waiting for the same correction requested concurrently).",
            hint="The original edit error stands; fix old_string by hand or raise the timeout.",
        )

    def _timed_out(self, attempts: int) -> FixerTimeout:
        return FixerTimeout(
            f"The LLM fixer ({self._label}) did not answer within its {self.timeout:g} s deadline "
            f"({_attempts(attempts)}).",
            hint="The original edit error stands; fix old_string by hand or raise the timeout.",
        )

    def _gave_up(self, last: ProviderError, attempts: int) -> FixerError:
        if attempts < self.max_attempts:
            # Stopped early because the next backoff would have passed the deadline.
            asked = (
                f" (the provider asked to wait {last.retry_after:g} s)"
                if last.retry_after is not None
                else ""
            )
            return FixerTimeout(
                f"The LLM fixer ({self._label}) ran out of its {self.timeout:g} s deadline after "
                f"{_attempts(attempts)}; last error: {last.message}{asked}",
                hint="The original edit error stands; try again later or raise the timeout.",
            )
        return ProviderError(
            f"The LLM fixer ({self._label}) gave up after {_attempts(attempts)}: {last.message}",
            hint="The provider kept failing with transient errors; try again later.",
            transient=True,
            status_code=last.status_code,
        )


def _attempts(count: int) -> str:
    return f"{count} attempt" + ("" if count == 1 else "s")


def _as_fixer_error(exc: Exception) -> FixerError:
    if isinstance(exc, FixerError):
        return exc
    error = ProviderError(f"The provider call failed: {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


def _in_thread(call: Callable[[float], T], remaining: float) -> tuple[bool, T | None]:
    """Run ``call(remaining)`` in a daemon thread; ``(False, None)`` if it outlives ``remaining``.

    Errors other than :class:`FixerError` come back as :class:`ProviderError`.
    """
    future: concurrent.futures.Future[T] = concurrent.futures.Future()
    context = contextvars.copy_context()
    scope = CallScope()
    context.run(scope.enter)  # the provider registers how to end its request here

    def work() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(context.run(call, remaining))
        except BaseException as exc:  # handed to the waiting thread, never lost
            future.set_exception(exc)

    # A daemon thread, not a pool: a provider stuck past the deadline must not hold a
    # worker that later calls need, nor keep the interpreter from exiting.
    threading.Thread(target=work, name="editengine-fixer-call", daemon=True).start()
    done, _ = concurrent.futures.wait([future], timeout=remaining)
    if not done:
        # Given up: end the request (its client is closed), so a server still sending
        # slowly does not keep this thread and its socket busy past the deadline.
        scope.abandon()
        return False, None
    exc = future.exception()
    if exc is None:
        return True, future.result()
    if isinstance(exc, Exception):
        raise _as_fixer_error(exc)
    raise exc


async def _aguarded(call: Callable[[float], Awaitable[T]], remaining: float) -> T:
    try:
        return await call(remaining)
    except FixerError:
        raise
    except Exception as exc:
        raise _as_fixer_error(exc) from exc
