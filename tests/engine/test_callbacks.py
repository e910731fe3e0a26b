"""Other people's code called safely: observers, on_edited hooks, sync or async callbacks."""

from __future__ import annotations

import asyncio
import inspect
import logging

import pytest

from editengine._errors import BadRequest
from editengine.engine._callbacks import (
    arun_hooks,
    notify,
    observers_of,
    resolve_sync,
    run_hooks,
)

ASYNC_INSIDE_A_LOOP = (
    "The on_edited callback is async, but edit() was called inside a running event loop; "
    "use the async methods (aedit, amulti_edit) there."
)


class StartsOnly:
    def edit_started(self, state: object) -> None: ...


class FinishesOnly:
    def __init__(self) -> None:
        self.seen: list[object] = []

    def edit_finished(self, state: object) -> None:
        self.seen.append(state)


class Failing:
    def edit_started(self, state: object) -> None:
        raise RuntimeError("observer broke")

    def __repr__(self) -> str:
        return "<failing observer>"


def _failing_hook(result: object) -> None:
    raise RuntimeError("hook broke")


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "editengine" and r.levelno == logging.WARNING]


class TestObserversOf:
    def test_an_observer_with_only_edit_started_is_one_observer(self):
        observer = StartsOnly()
        assert observers_of(observer) == (observer,)

    def test_an_observer_with_only_edit_finished_is_one_observer(self):
        observer = FinishesOnly()
        assert observers_of(observer) == (observer,)

    def test_a_list_of_observers_is_each_of_them_and_none_is_no_observer(self):
        first, second = StartsOnly(), FinishesOnly()
        assert observers_of([first, second]) == (first, second)
        assert observers_of(None) == ()


class TestNotify:
    def test_a_failing_observer_is_logged_with_its_event_and_the_others_still_hear(self, caplog):
        later = FinishesOnly()
        later.edit_started = later.edit_finished  # type: ignore[method-assign]  # a test double put in place
        with caplog.at_level(logging.WARNING, logger="editengine"):
            notify((Failing(), later), "edit_started", "the state")  # type: ignore[arg-type]  # a stand-in, not the real type
        (record,) = _warnings(caplog)
        assert record.getMessage() == "telemetry observer <failing observer> failed in edit_started"
        assert record.exc_info is not None and str(record.exc_info[1]) == "observer broke"
        assert later.seen == ["the state"]


class TestRunHooks:
    def test_a_failing_hook_is_logged_by_name_with_its_error(self, caplog):
        with caplog.at_level(logging.WARNING, logger="editengine"):
            run_hooks((_failing_hook,), "the result")  # type: ignore[arg-type]  # a stand-in, not the real type
        (record,) = _warnings(caplog)
        assert record.getMessage() == f"on_edited callback {_failing_hook!r} failed"
        assert record.exc_info is not None and str(record.exc_info[1]) == "hook broke"

    def test_an_async_hook_inside_a_running_loop_is_refused_by_name_and_closed(self, caplog):
        made = []

        async def hook(result: object) -> None: ...

        def calling(result: object):
            made.append(hook(result))
            return made[0]

        async def inside_a_loop() -> None:
            run_hooks((calling,), "the result")  # type: ignore[arg-type]  # a stand-in, not the real type

        with caplog.at_level(logging.WARNING, logger="editengine"):
            asyncio.run(inside_a_loop())
        (record,) = _warnings(caplog)
        assert record.exc_info is not None
        assert isinstance(record.exc_info[1], BadRequest)
        assert str(record.exc_info[1]) == ASYNC_INSIDE_A_LOOP
        assert inspect.getcoroutinestate(made[0]) == inspect.CORO_CLOSED

    def test_an_async_hook_outside_a_loop_is_run_to_completion(self):
        ran = []

        async def hook(result: object) -> None:
            ran.append(result)

        run_hooks((hook,), "the result")  # type: ignore[arg-type]  # a stand-in, not the real type
        assert ran == ["the result"]


class TestArunHooks:
    def test_a_failing_hook_is_logged_by_name_with_its_error(self, caplog):
        async def failing(result: object) -> None:
            raise RuntimeError("async hook broke")

        with caplog.at_level(logging.WARNING, logger="editengine"):
            asyncio.run(arun_hooks((failing, _failing_hook), "the result"))  # type: ignore[arg-type]  # a stand-in, not the real type
        first, second = _warnings(caplog)
        assert first.getMessage() == f"on_edited callback {failing!r} failed"
        assert first.exc_info is not None and str(first.exc_info[1]) == "async hook broke"
        assert second.getMessage() == f"on_edited callback {_failing_hook!r} failed"


class TestResolveSync:
    def test_a_plain_value_is_returned_as_is(self):
        assert resolve_sync(42, "confirm") == 42

    def test_an_awaitable_inside_a_running_loop_is_refused_naming_the_callback(self):
        async def answer() -> bool:
            return True

        async def inside_a_loop() -> None:
            coroutine = answer()
            with pytest.raises(BadRequest) as info:
                resolve_sync(coroutine, "confirm")
            assert str(info.value) == ASYNC_INSIDE_A_LOOP.replace("on_edited", "confirm")
            assert inspect.getcoroutinestate(coroutine) == inspect.CORO_CLOSED

        asyncio.run(inside_a_loop())
