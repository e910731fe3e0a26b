"""Single flight: concurrent identical requests share one call.

Twenty agents' threads (or tasks) sending the same failing edit at once would otherwise pay
for twenty identical LLM calls. The first caller of a key leads and makes the call; the
others wait for its outcome — the same correction, or the same error — without a call of
their own. Threads and event loops mix freely: the outcome travels in a
:class:`concurrent.futures.Future`. A leader that is cancelled or interrupted (its task
cancelled, its event loop closed) hands over: a waiting caller becomes the next leader, so
nobody inherits another caller's cancellation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class _LeaderGone(Exception):
    """The leading caller stopped without an outcome; a follower takes over."""


class FlightTimeout(Exception):
    """A follower's own deadline passed while it waited for the leader."""


class SingleFlight(Generic[T]):
    """One call at a time per key; callers that arrive meanwhile share its outcome."""

    def __init__(self, share_error: Callable[[Exception], Exception] | None = None) -> None:
        # How a follower receives the leader's exception (a copy of its own, say).
        self._share_error = share_error or (lambda error: error)
        self._lock = threading.Lock()
        self._flights: dict[str, concurrent.futures.Future[T]] = {}
        self._leaders: dict[str, int] = {}  # key -> the leading caller's thread

    def __len__(self) -> int:
        """Calls under way."""
        with self._lock:
            return len(self._flights)

    def run(self, key: str, call: Callable[[], T], *, wait: float) -> tuple[T, bool]:
        """``(outcome, shared)``: ``call()``'s value, or the leader's when ``shared``.

        A follower waits at most ``wait`` seconds (:class:`FlightTimeout` after that); the
        leader's exception is re-raised in each follower.
        """
        while True:
            future, leader = self._join(key)
            if leader:
                return self._lead(key, future, call), False
            if self._led_from_here(key):
                # A sync call on the thread whose event loop runs the leading task: waiting
                # would block the loop that must finish the call. It calls on its own.
                return call(), False
            try:
                return future.result(timeout=wait), True
            except _LeaderGone:
                continue
            except concurrent.futures.TimeoutError:
                raise FlightTimeout from None
            except Exception as error:
                raise self._share_error(error) from None

    async def arun(
        self, key: str, call: Callable[[], Awaitable[T]], *, wait: float
    ) -> tuple[T, bool]:
        """Async twin of :meth:`run`; the leader may be a thread or a task on any loop."""
        while True:
            future, leader = self._join(key)
            if leader:
                try:
                    value = await call()
                except BaseException as exc:
                    self._land(key, future, error=exc)
                    raise
                self._land(key, future, value=value)
                return value, False
            # shield: a follower that times out or is cancelled must not cancel the
            # shared future (wrap_future would pass the cancellation on to it).
            shared = asyncio.wrap_future(future)
            shared.add_done_callback(_retrieve)  # left behind on a timeout: no warning
            try:
                return await asyncio.wait_for(asyncio.shield(shared), wait), True
            except _LeaderGone:
                continue
            except asyncio.TimeoutError:
                raise FlightTimeout from None
            except Exception as error:
                raise self._share_error(error) from None

    def _join(self, key: str) -> tuple[concurrent.futures.Future[T], bool]:
        with self._lock:
            future = self._flights.get(key)
            if future is not None:
                return future, False
            future = concurrent.futures.Future()
            self._flights[key] = future
            self._leaders[key] = threading.get_ident()
            return future, True

    def _led_from_here(self, key: str) -> bool:
        with self._lock:
            return self._leaders.get(key) == threading.get_ident()

    def _lead(self, key: str, future: concurrent.futures.Future[T], call: Callable[[], T]) -> T:
        try:
            value = call()
        except BaseException as exc:
            self._land(key, future, error=exc)
            raise
        self._land(key, future, value=value)
        return value

    def _land(
        self,
        key: str,
        future: concurrent.futures.Future[T],
        *,
        value: T | None = None,
        error: BaseException | None = None,
    ) -> None:
        # Off the table first: a caller arriving from now on looks in the cache (filled by
        # the leader on success) or leads a new call, rather than joining a finished one.
        with self._lock:
            if self._flights.get(key) is future:
                del self._flights[key]
                self._leaders.pop(key, None)
        if future.cancelled():  # nobody can be waiting on a cancelled future
            return
        if error is None:
            future.set_result(value)  # type: ignore[arg-type]  # without an error the leader passes its value
        elif isinstance(error, Exception):
            future.set_exception(error)
        else:  # cancelled or interrupted: its followers take over rather than inherit it
            future.set_exception(_LeaderGone())


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
