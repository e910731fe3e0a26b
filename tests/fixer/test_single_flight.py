"""Single flight: concurrent identical fixer requests share one provider call."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
import time

import pytest

from editengine._errors import FixerTimeout, InvalidCorrection, ProviderError
from editengine.fixer import LLMFixer
from editengine.fixer._flight import FlightTimeout, SingleFlight
from editengine.providers import CallbackProvider, ProviderReply

from .conftest import ANSWER, make_request

CALLERS = 20


class Gate:
    """A provider answer that waits until released, counting the calls made."""

    def __init__(self, answer=ANSWER, *, error: Exception | None = None) -> None:
        self.calls = 0
        self.release = threading.Event()
        self._answer = answer
        self._error = error
        self._lock = threading.Lock()

    def __call__(self, request) -> ProviderReply:
        with self._lock:
            self.calls += 1
        self.release.wait(5)
        if self._error is not None:
            raise self._error
        return ProviderReply(self._answer, input_tokens=100, output_tokens=20)


@pytest.fixture
def fix_request():
    return make_request()


def _wait_for(predicate, seconds: float = 5.0) -> None:
    ends = time.monotonic() + seconds
    while not predicate() and time.monotonic() < ends:
        time.sleep(0.005)


def _run_threads(target, count: int) -> None:
    threads = [threading.Thread(target=target) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


def test_twenty_threads_make_one_call_and_get_one_answer(fix_request):
    gate = Gate()
    fixer = LLMFixer(CallbackProvider(gate), timeout=5)
    results = []

    threads = _run_threads(lambda: results.append(fixer.correct(fix_request)), CALLERS)
    _wait_for(lambda: gate.calls == 1 and len(fixer._flights) == 1)
    time.sleep(0.05)  # the other callers are waiting on the call under way
    gate.release.set()
    for thread in threads:
        thread.join(5)

    assert gate.calls == 1
    assert len(results) == CALLERS
    assert {(r.search, r.replace) for r in results} == {(ANSWER["search"], ANSWER["replace"])}
    charged = [r for r in results if not r.cache_hit]
    assert len(charged) == 1 and charged[0].input_tokens == 100  # the call is counted once
    assert sum(r.input_tokens for r in results) == 100


async def test_twenty_tasks_make_one_call(fix_request):
    gate = Gate()
    fixer = LLMFixer(CallbackProvider(gate), timeout=5)

    pending = asyncio.gather(*(fixer.acorrect(fix_request) for _ in range(CALLERS)))
    await asyncio.sleep(0.1)
    gate.release.set()
    results = await pending

    assert gate.calls == 1 and len(results) == CALLERS
    assert sum(not r.cache_hit for r in results) == 1


def test_threads_and_event_loops_share_one_call(fix_request):
    gate = Gate()
    fixer = LLMFixer(CallbackProvider(gate), timeout=5)
    results = []

    def sync_caller() -> None:
        results.append(fixer.correct(fix_request))

    def async_caller() -> None:
        results.append(asyncio.run(fixer.acorrect(fix_request)))

    threads = _run_threads(sync_caller, 5) + _run_threads(async_caller, 5)
    _wait_for(lambda: gate.calls == 1)
    time.sleep(0.1)
    gate.release.set()
    for thread in threads:
        thread.join(5)

    assert gate.calls == 1 and len(results) == 10


def test_every_caller_gets_the_leaders_error(fix_request):
    gate = Gate(error=ProviderError("The provider refused (HTTP 400).", status_code=400))
    fixer = LLMFixer(CallbackProvider(gate), timeout=5)
    errors: list[BaseException] = []

    def caller() -> None:
        try:
            fixer.correct(fix_request)
        except BaseException as error:
            errors.append(error)

    threads = _run_threads(caller, 8)
    _wait_for(lambda: gate.calls == 1)
    time.sleep(0.05)
    gate.release.set()
    for thread in threads:
        thread.join(5)

    assert gate.calls == 1 and len(errors) == 8
    assert all(isinstance(error, ProviderError) for error in errors)
    assert all("HTTP 400" in str(error) for error in errors)


def test_an_invalid_answer_is_charged_to_the_caller_that_paid_for_it(fix_request):
    gate = Gate(answer={"search": "x"})  # not a correction
    fixer = LLMFixer(CallbackProvider(gate), timeout=5)
    errors: list[InvalidCorrection] = []

    def caller() -> None:
        try:
            fixer.correct(fix_request)
        except InvalidCorrection as error:
            errors.append(error)

    threads = _run_threads(caller, 5)
    _wait_for(lambda: gate.calls == 1)
    time.sleep(0.05)
    gate.release.set()
    for thread in threads:
        thread.join(5)

    assert gate.calls == 1 and len(errors) == 5
    assert sorted(error.input_tokens for error in errors) == [0, 0, 0, 0, 100]
    assert sum(getattr(error, "shared_call", False) for error in errors) == 4


def test_a_failure_is_not_shared_with_a_later_caller(fix_request):
    gate = Gate(error=ProviderError("down", transient=False))
    gate.release.set()
    fixer = LLMFixer(CallbackProvider(gate), timeout=5)

    for _ in range(2):
        with pytest.raises(ProviderError):
            fixer.correct(fix_request)

    assert gate.calls == 2  # the flight is over once it lands; errors are not cached


async def test_a_cancelled_leader_hands_over_to_a_follower(fix_request):
    calls = []

    async def answer(request):
        calls.append(request)
        await asyncio.sleep(0.2 if len(calls) == 1 else 0)
        return ProviderReply(ANSWER, input_tokens=1)

    fixer = LLMFixer(CallbackProvider(answer), timeout=5)
    leader = asyncio.ensure_future(fixer.acorrect(fix_request))
    await asyncio.sleep(0.05)
    follower = asyncio.ensure_future(fixer.acorrect(fix_request))
    await asyncio.sleep(0.05)
    leader.cancel()

    correction = await follower

    assert correction.search == ANSWER["search"]
    assert len(calls) == 2  # the follower asked itself rather than inherit the cancellation
    with pytest.raises(asyncio.CancelledError):
        await leader


def test_a_follower_keeps_its_own_deadline(fix_request):
    gate = Gate()
    slow = LLMFixer(CallbackProvider(gate), timeout=5)
    leader = threading.Thread(target=lambda: slow.correct(fix_request))
    leader.start()
    _wait_for(lambda: gate.calls == 1)
    slow.timeout = 0.2  # the follower's deadline is shorter than the call under way

    started = time.monotonic()
    with pytest.raises(FixerTimeout, match="requested concurrently"):
        slow.correct(fix_request)
    elapsed = time.monotonic() - started
    gate.release.set()
    leader.join(5)

    assert 0.15 <= elapsed < 1.0
    assert gate.calls == 1


def test_the_flight_table_is_empty_after_every_outcome():
    flights: SingleFlight[int] = SingleFlight()

    assert flights.run("a", lambda: 1, wait=1) == (1, False)
    with pytest.raises(ValueError):
        flights.run("a", _raise_value_error, wait=1)
    assert len(flights) == 0


def test_a_follower_that_waits_too_long_gets_flight_timeout():
    flights: SingleFlight[int] = SingleFlight()
    release = threading.Event()
    leader = threading.Thread(target=lambda: flights.run("k", lambda: release.wait(5), wait=5))
    leader.start()
    _wait_for(lambda: len(flights) == 1)

    with pytest.raises(FlightTimeout):
        flights.run("k", lambda: 2, wait=0.05)
    release.set()
    leader.join(5)


def _raise_value_error() -> int:
    raise ValueError("boom")


async def test_a_sync_call_on_the_leading_tasks_thread_does_not_wait_for_it(fix_request):
    # Blocking the event loop's own thread on a call that loop must finish would hang
    # until the deadline; that caller makes its own call instead.
    calls = []

    async def answer(request):
        calls.append(request)
        await asyncio.sleep(0.3)
        return ProviderReply(ANSWER)

    fixer = LLMFixer(CallbackProvider(answer), timeout=5)
    leader = asyncio.ensure_future(fixer.acorrect(fix_request))
    await asyncio.sleep(0.05)

    started = time.monotonic()
    correction = fixer.correct(fix_request)  # sync, on the loop's thread
    elapsed = time.monotonic() - started
    await leader

    assert correction.search == ANSWER["search"]
    assert len(calls) == 2 and elapsed < 2.0


class _Interrupted(BaseException):
    """Stops a leading call the way a KeyboardInterrupt or a cancellation does."""


def _lead_in_a_thread(flights: SingleFlight[int], call) -> threading.Thread:
    def lead() -> None:
        with contextlib.suppress(BaseException):  # the leader's own outcome is not tested here
            flights.run("k", call, wait=5)

    leader = threading.Thread(target=lead)
    leader.start()
    _wait_for(lambda: len(flights) == 1)
    return leader


def _follower_waits(flights: SingleFlight[int], key: str) -> bool:
    # A caller waiting in Future.result() sits on the future's condition.
    future = flights._flights.get(key)
    return future is not None and bool(future._condition._waiters)  # type: ignore[attr-defined]  # a private of concurrent.futures


def test_without_a_sharing_rule_followers_get_the_leaders_own_error():
    flights: SingleFlight[int] = SingleFlight()
    release, error = threading.Event(), ValueError("boom")

    def fail() -> int:
        release.wait(5)
        raise error

    leader = _lead_in_a_thread(flights, fail)
    caught: list[BaseException] = []
    follower = threading.Thread(target=lambda: _catch(caught, flights, "k", lambda: 2))
    follower.start()
    _wait_for(lambda: _follower_waits(flights, "k"))
    release.set()
    leader.join(5)
    follower.join(5)
    assert caught == [error]


def _catch(caught: list[BaseException], flights: SingleFlight[int], key: str, call) -> None:
    try:
        flights.run(key, call, wait=5)
    except Exception as error:
        caught.append(error)


def test_an_interrupted_thread_leader_hands_over_to_a_thread_follower():
    flights: SingleFlight[int] = SingleFlight()
    release = threading.Event()

    def interrupted() -> int:
        release.wait(5)
        raise _Interrupted

    leader = _lead_in_a_thread(flights, interrupted)
    outcome: list[tuple[int, bool]] = []
    follower = threading.Thread(target=lambda: outcome.append(flights.run("k", lambda: 7, wait=5)))
    follower.start()
    _wait_for(lambda: _follower_waits(flights, "k"))
    release.set()
    leader.join(5)
    follower.join(5)
    assert outcome == [(7, False)]  # its own call, as the new leader


async def test_a_task_leader_leaves_the_table_and_the_next_call_leads_again():
    flights: SingleFlight[int] = SingleFlight()

    async def one() -> int:
        return 1

    assert await flights.arun("a", one, wait=1) == (1, False)
    assert len(flights) == 0 and not flights._leaders
    assert await flights.arun("a", one, wait=1) == (1, False)


async def test_a_task_follower_gets_the_leaders_error_and_its_own_timeout():
    flights: SingleFlight[int] = SingleFlight()
    release, error = asyncio.Event(), ValueError("boom")

    async def fail() -> int:
        await release.wait()
        raise error

    async def two() -> int:
        return 2

    leader = asyncio.ensure_future(flights.arun("k", fail, wait=5))
    await asyncio.sleep(0)
    with pytest.raises(FlightTimeout):
        await flights.arun("k", two, wait=0.01)
    follower = asyncio.ensure_future(flights.arun("k", two, wait=5))
    await asyncio.sleep(0)
    release.set()
    with pytest.raises(ValueError) as led:
        await leader
    with pytest.raises(ValueError) as followed:
        await follower
    assert led.value is error and followed.value is error


async def test_a_follower_that_timed_out_leaves_no_unretrieved_error_behind(caplog):
    flights: SingleFlight[int] = SingleFlight()
    release = asyncio.Event()

    async def fail() -> int:
        await release.wait()
        raise ValueError("boom")

    async def two() -> int:
        return 2

    leader = asyncio.ensure_future(flights.arun("k", fail, wait=5))
    await asyncio.sleep(0)
    with pytest.raises(FlightTimeout):
        await flights.arun("k", two, wait=0.01)
    release.set()
    with pytest.raises(ValueError):
        await leader
    for _ in range(3):  # the shared future's copy of the error lands a few callbacks later
        await asyncio.sleep(0)
    gc.collect()
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == []


async def test_a_sync_caller_on_the_leading_tasks_thread_reports_its_call_as_its_own():
    flights: SingleFlight[int] = SingleFlight()
    release = asyncio.Event()

    async def slow() -> int:
        await release.wait()
        return 1

    leader = asyncio.ensure_future(flights.arun("k", slow, wait=5))
    await asyncio.sleep(0)
    assert flights.run("k", lambda: 2, wait=5) == (2, False)
    release.set()
    assert await leader == (1, False)
