"""Handing events to sinks off the caller's thread, so a slow sink never slows an edit.

An edit only puts its events on a bounded queue; one worker thread per
:class:`~editengine.telemetry._recorder.Telemetry` calls the sinks. When the queue is full
(the sinks cannot keep up) an event is dropped and counted rather than waited for: an
edit, and the event loop of an async caller, never block on telemetry. ``flush()`` waits
for what is queued; ``close()`` flushes, then stops the worker. At interpreter exit the
queue is flushed for a bounded time, so a short-lived CLI loses nothing.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable

_log = logging.getLogger("editengine.telemetry")

DEFAULT_QUEUE_SIZE = 10_000
EXIT_FLUSH_SECONDS = 5.0

Job = Callable[[], None]


class BackgroundDelivery:
    """A bounded queue of delivery jobs and the daemon thread that runs them, in order."""

    def __init__(self, *, max_queued: int = DEFAULT_QUEUE_SIZE, name: str = "telemetry") -> None:
        if max_queued <= 0:
            raise ValueError("max_queued must be positive")
        self._max_queued = max_queued
        self._name = name
        self._closed = False
        self.dropped = 0
        self._start_afresh()
        _live.add(self)

    def _start_afresh(self) -> None:
        """A new queue and no worker yet (also in a forked child, where the parent's worker
        thread does not exist and its queue's lock may be held)."""
        self._queue: queue.Queue[Job | None] = queue.Queue(maxsize=self._max_queued)
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, job: Job) -> bool:
        """Queue ``job``; ``False`` (and one more in :attr:`dropped`) when full or closed."""
        if self._closed:
            self._count_drop()
            return False
        self._ensure_worker()
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            self._count_drop()
            return False
        return True

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued job ran; ``False`` if ``timeout`` (s) passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        done = self._queue.all_tasks_done
        with done:
            while self._queue.unfinished_tasks:
                if deadline is None:
                    done.wait()
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                done.wait(remaining)
        return True

    def close(self, timeout: float | None = None) -> bool:
        """Flush (up to ``timeout``), then stop the worker; later jobs are dropped."""
        flushed = self.flush(timeout)
        with self._guard:
            self._closed = True
            thread = self._thread
        if thread is not None and thread.is_alive():
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                pass  # the worker is stuck in a sink; it is a daemon and dies with the process
            else:
                thread.join(timeout=0 if not flushed else 1.0)
        return flushed

    def _count_drop(self) -> None:
        with self._guard:
            self.dropped += 1
            first = self.dropped == 1
        if first:
            _log.warning(
                "telemetry events are being dropped: the sinks cannot keep up (queue full) "
                "or telemetry was closed; see Telemetry.dropped for the count"
            )

    def _ensure_worker(self) -> None:
        if self._thread is not None:
            return
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name=f"editengine-{self._name}", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                job()
            except Exception:  # a job reports its own failures; this is a last guard
                _log.warning("telemetry delivery failed", exc_info=True)
            finally:
                self._queue.task_done()


_live: weakref.WeakSet[BackgroundDelivery] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for delivery in list(_live):
        delivery._start_afresh()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


@atexit.register
def _flush_at_exit() -> None:
    deadline = time.monotonic() + EXIT_FLUSH_SECONDS
    for delivery in list(_live):
        delivery.flush(max(0.0, deadline - time.monotonic()))
