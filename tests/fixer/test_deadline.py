"""The deadline runner alone: what is retried, when it stops, and the wall-clock guard."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from editengine._errors import FixerTimeout, InvalidCorrection, ProviderError
from editengine.fixer import Backoff
from editengine.fixer._deadline import DeadlineRunner


def _runner(clock, *, timeout=10.0, max_attempts=4, backoff=None, real_time=False):
    if real_time:
        return DeadlineRunner(
            timeout=timeout,
            max_attempts=max_attempts,
            backoff=backoff or Backoff(),
            clock=time.monotonic,
            sleep=time.sleep,
            async_sleep=asyncio.sleep,
        )
    return DeadlineRunner(
        timeout=timeout,
        max_attempts=max_attempts,
        backoff=backoff or Backoff(initial=1.0, maximum=8.0, jitter=0.0),
        clock=clock,
        sleep=clock.sleep,
        async_sleep=clock.async_sleep,
    )


class Flaky:
    """Fails with each queued error, then answers."""

    def __init__(self, *errors: Exception, answer: str = "ok") -> None:
        self.errors = list(errors)
        self.answer = answer
        self.timeouts: list[float] = []

    def __call__(self, timeout: float) -> str:
        self.timeouts.append(timeout)
        if self.errors:
            raise self.errors.pop(0)
        return self.answer

    async def acall(self, timeout: float) -> str:
        return self(timeout)


def transient(status: int = 503) -> ProviderError:
    return ProviderError(f"HTTP {status}", transient=True, status_code=status)


def test_transient_errors_are_retried_with_growing_backoff(clock):
    call = Flaky(transient(), transient(429), transient())

    assert _runner(clock).run(call) == "ok"

    assert len(call.timeouts) == 4
    assert clock.sleeps == [1.0, 2.0, 4.0]


def test_each_attempt_gets_the_time_left(clock):
    call = Flaky(transient(), transient())

    _runner(clock, timeout=30.0).run(call)

    assert call.timeouts == [30.0, 29.0, 27.0]


def test_non_transient_errors_are_not_retried(clock):
    call = Flaky(ProviderError("HTTP 400", status_code=400))

    with pytest.raises(ProviderError, match="HTTP 400"):
        _runner(clock).run(call)

    assert len(call.timeouts) == 1 and clock.sleeps == []


def test_invalid_answers_are_not_retried(clock):
    call = Flaky(InvalidCorrection("bad JSON"))

    with pytest.raises(InvalidCorrection):
        _runner(clock).run(call)

    assert len(call.timeouts) == 1


def test_it_gives_up_after_max_attempts(clock):
    call = Flaky(*[transient(500)] * 10)

    with pytest.raises(ProviderError) as caught:
        _runner(clock, max_attempts=3).run(call)

    assert len(call.timeouts) == 3
    assert caught.value.transient is True and caught.value.status_code == 500
    assert "gave up after 3 attempts: HTTP 500" in str(caught.value)


def test_it_stops_when_the_next_backoff_would_pass_the_deadline(clock):
    call = Flaky(*[transient()] * 10)
    started = clock.now

    with pytest.raises(FixerTimeout) as caught:
        _runner(clock, timeout=2.5, max_attempts=10).run(call)

    # attempt 1 at t=0, wait 1 s, attempt 2 at t=1; waiting 2 s more would pass 2.5 s
    assert len(call.timeouts) == 2
    assert clock.now - started == 1.0
    assert "2 attempts" in str(caught.value) and "HTTP 503" in str(caught.value)


def test_retry_after_from_the_provider_is_honoured(clock):
    asked = ProviderError("HTTP 429", transient=True, status_code=429, retry_after=6.0)
    call = Flaky(asked, transient())

    assert _runner(clock, timeout=30.0).run(call) == "ok"

    assert clock.sleeps == [6.0, 2.0]  # max(backoff, Retry-After), then plain backoff


def test_a_retry_after_beyond_the_deadline_stops_at_once(clock):
    asked = ProviderError("HTTP 429", transient=True, status_code=429, retry_after=60.0)
    call = Flaky(asked)

    with pytest.raises(FixerTimeout, match="asked to wait 60 s"):
        _runner(clock, timeout=40.0).run(call)

    assert len(call.timeouts) == 1 and clock.sleeps == []


def test_other_exceptions_become_provider_errors(clock):
    call = Flaky(KeyError("boom"))

    with pytest.raises(ProviderError, match="KeyError") as caught:
        _runner(clock).run(call)

    assert isinstance(caught.value.__cause__, KeyError)
    assert len(call.timeouts) == 1


def test_a_blocking_call_is_abandoned_at_the_deadline():
    release = threading.Event()

    def hangs(timeout: float) -> str:
        release.wait(10)  # ignores its timeout, as a stuck SDK might
        return "too late"

    started = time.monotonic()
    try:
        with pytest.raises(FixerTimeout, match=r"0\.2 s deadline \(1 attempt\)\.\n"):
            _runner(None, timeout=0.2, real_time=True).run(hangs)
        elapsed = time.monotonic() - started
    finally:
        release.set()

    assert 0.15 <= elapsed < 0.2 + 0.5


async def test_a_blocking_coroutine_is_cancelled_at_the_deadline():
    cancelled = asyncio.Event()

    async def hangs(timeout: float) -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "too late"

    started = time.monotonic()
    with pytest.raises(FixerTimeout, match=r"0\.2 s deadline \(1 attempt\)\.\n"):
        await _runner(None, timeout=0.2, real_time=True).arun(hangs)
    elapsed = time.monotonic() - started

    assert 0.15 <= elapsed < 0.2 + 0.5
    assert cancelled.is_set()


async def test_async_retries_follow_the_same_policy(clock):
    call = Flaky(transient(), transient())

    assert await _runner(clock).arun(call.acall) == "ok"

    assert clock.sleeps == [1.0, 2.0]


async def test_async_gives_up_after_max_attempts(clock):
    call = Flaky(*[transient()] * 5)

    with pytest.raises(ProviderError, match="gave up after 2 attempts"):
        await _runner(clock, max_attempts=2).arun(call.acall)


async def test_async_other_exceptions_become_provider_errors(clock):
    call = Flaky(RuntimeError("sdk bug"))

    with pytest.raises(ProviderError, match="RuntimeError: sdk bug"):
        await _runner(clock).arun(call.acall)


# -- the words an agent reads, and the edges of the policy -------------------------------------

TIMED_OUT_HINT = "The original edit error stands; fix old_string by hand or raise the timeout."


def _sleeping_until(clock, until: float) -> DeadlineRunner:
    """A runner whose sleep wakes at ``until``, however short it was asked to be (a machine
    suspended in between)."""

    def oversleep(seconds: float) -> None:
        clock.now = until

    async def async_oversleep(seconds: float) -> None:
        oversleep(seconds)

    return DeadlineRunner(
        timeout=10.0,
        max_attempts=4,
        backoff=Backoff(initial=1.0, maximum=8.0, jitter=0.0),
        clock=clock,
        sleep=oversleep,
        async_sleep=async_oversleep,
    )


def test_waking_up_at_the_deadline_is_too_late_for_another_attempt(clock):
    call = Flaky(transient())

    with pytest.raises(FixerTimeout) as caught:
        _sleeping_until(clock, clock.now + 10.0).run(call)

    assert len(call.timeouts) == 1
    assert str(caught.value) == (
        "The LLM fixer (provider) did not answer within its 10 s deadline (1 attempt).\n"
        + TIMED_OUT_HINT
    )


async def test_async_waking_up_past_the_deadline_is_too_late_for_another_attempt(clock):
    call = Flaky(transient(), transient())

    with pytest.raises(FixerTimeout, match=r"10 s deadline \(1 attempt\)\.\n"):
        await _sleeping_until(clock, clock.now + 11.0).arun(call.acall)


async def test_async_attempts_get_the_time_left(clock):
    call = Flaky(transient(), transient())

    await _runner(clock, timeout=30.0).arun(call.acall)

    assert call.timeouts == [30.0, 29.0, 27.0]


def test_the_backoff_starts_at_its_initial_wait_and_stops_growing_at_its_maximum(clock):
    call = Flaky(*[transient()] * 4)

    _runner(clock, timeout=60.0, max_attempts=5, backoff=Backoff(0.5, 2.0, 0.0)).run(call)

    assert clock.sleeps == [0.5, 1.0, 2.0, 2.0]


def test_no_wait_at_all_still_retries_up_to_max_attempts(clock):
    call = Flaky(*[transient()] * 5)

    with pytest.raises(ProviderError) as caught:
        _runner(clock, timeout=1.0, max_attempts=3, backoff=Backoff(0.0, 0.0, 0.0)).run(call)

    assert len(call.timeouts) == 3
    assert str(caught.value) == (
        "The LLM fixer (provider) gave up after 3 attempts: HTTP 503\n"
        "The provider kept failing with transient errors; try again later."
    )


@pytest.mark.parametrize(("timeout", "attempts"), [(1.04, 1), (1.05, 1), (1.06, 2)])
def test_an_attempt_needs_50_ms_left_after_the_backoff(clock, timeout, attempts):
    call = Flaky(*[transient()] * 5)

    with pytest.raises(FixerTimeout):
        _runner(clock, timeout=timeout, max_attempts=5).run(call)

    assert len(call.timeouts) == attempts


def test_running_out_of_time_between_attempts_says_so(clock):
    call = Flaky(*[transient()] * 10)

    with pytest.raises(FixerTimeout) as caught:
        _runner(clock, timeout=2.5, max_attempts=10).run(call)

    assert str(caught.value) == (
        "The LLM fixer (provider) ran out of its 2.5 s deadline after 2 attempts; last error: "
        "HTTP 503\nThe original edit error stands; try again later or raise the timeout."
    )


def test_waiting_for_a_concurrent_identical_call_has_its_own_words(clock):
    error = _runner(clock, timeout=7.5).timed_out_waiting()

    assert isinstance(error, FixerTimeout)
    assert str(error) == (
        "The LLM fixer (provider) did not answer within its 7.5 s deadline (waiting for the "
        "same correction requested concurrently).\n" + TIMED_OUT_HINT
    )


def test_the_call_runs_in_a_named_daemon_thread(clock):
    seen: list[tuple[str, bool]] = []

    def call(timeout: float) -> str:
        seen.append((threading.current_thread().name, threading.current_thread().daemon))
        return "ok"

    assert _runner(clock).run(call) == "ok"
    # A daemon: a provider stuck past the deadline never keeps the interpreter from exiting.
    assert seen == [("editengine-fixer-call", True)]
