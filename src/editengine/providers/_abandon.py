"""Ending a sync provider call that its caller gave up on.

A sync call past its deadline cannot be interrupted from outside its thread: the caller
stops waiting, but the request would go on reading a slow server's answer. So the caller
runs each call inside a :class:`CallScope`, and a provider registers how to end its request
(closing the HTTP client it built for this call) with :func:`on_abandon`. When the caller
gives up it calls :meth:`CallScope.abandon`, which runs those closers at once; the worker's
next read fails and its thread ends.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable

_SCOPE: contextvars.ContextVar[CallScope | None] = contextvars.ContextVar(
    "editengine_call_scope", default=None
)


class CallScope:
    """The closers of one call; :meth:`abandon` runs them (once, from any thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closers: list[Callable[[], object]] = []
        self.abandoned = False

    def add(self, closer: Callable[[], object]) -> None:
        with self._lock:
            if not self.abandoned:
                self._closers.append(closer)
                return
        _run(closer)  # registered after the caller gave up: end it at once

    def abandon(self) -> None:
        with self._lock:
            if self.abandoned:
                return
            self.abandoned = True
            closers, self._closers = self._closers, []
        for closer in closers:
            _run(closer)

    def enter(self) -> contextvars.Token[CallScope | None]:
        """Make this the current scope (in the worker's context)."""
        return _SCOPE.set(self)


def on_abandon(closer: Callable[[], object]) -> None:
    """Run ``closer`` if the caller of the current call gives up on it.

    Outside a :class:`CallScope` (a provider used directly) this does nothing.
    """
    scope = _SCOPE.get()
    if scope is not None:
        scope.add(closer)


def _run(closer: Callable[[], object]) -> None:
    # Closing a client mid-request may raise inside the SDK; the call is abandoned anyway.
    with contextlib.suppress(Exception):
        closer()
