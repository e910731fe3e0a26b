"""Calling other people's code safely: telemetry observers, ``on_edited`` hooks, and
callbacks that may be sync or async."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from editengine._errors import BadRequest
from editengine._results import EditResult
from editengine._state import EditObserver, EditState

logger = logging.getLogger("editengine")

EditedCallback = Callable[[EditResult], Any]


def observers_of(telemetry: object) -> tuple[EditObserver, ...]:
    """One observer or a sequence of them, as a tuple."""
    if telemetry is None:
        return ()
    if hasattr(telemetry, "edit_started") or hasattr(telemetry, "edit_finished"):
        return (telemetry,)  # type: ignore[return-value]  # hasattr does not narrow to the observer protocol
    return tuple(telemetry)  # type: ignore[arg-type]  # else a sequence of observers, as documented


def notify(observers: Sequence[EditObserver], event: str, state: EditState) -> None:
    """Call ``event`` on every observer; one that raises is logged, never fails the edit."""
    for observer in observers:
        try:
            getattr(observer, event)(state)
        except Exception:
            logger.warning("telemetry observer %r failed in %s", observer, event, exc_info=True)


def run_hooks(hooks: Sequence[EditedCallback], result: EditResult) -> None:
    for hook in hooks:
        try:
            resolve_sync(hook(result), "on_edited")
        except Exception:
            logger.warning("on_edited callback %r failed", hook, exc_info=True)


async def arun_hooks(hooks: Sequence[EditedCallback], result: EditResult) -> None:
    for hook in hooks:
        try:
            answer = hook(result)
            if inspect.isawaitable(answer):
                await answer
        except Exception:
            logger.warning("on_edited callback %r failed", hook, exc_info=True)


def resolve_sync(value: Any, what: str) -> Any:
    """The value a callback returned; an awaitable is run to completion when no event loop
    is running in this thread (inside one, the caller must use the async methods)."""
    if not inspect.isawaitable(value):
        return value
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(value))
    if inspect.iscoroutine(value):
        value.close()
    raise BadRequest(
        f"The {what} callback is async, but edit() was called inside a running event loop; "
        "use the async methods (aedit, amulti_edit) there."
    )


async def _await(value: Awaitable[Any]) -> Any:
    return await value
