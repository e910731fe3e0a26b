"""Sinks are served off the caller's thread: a slow sink slows neither edits nor the loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from editengine.engine import EditEngine
from editengine.telemetry import JsonlSink, MemorySink, Telemetry


class SlowSink:
    """Takes up to 1 s per event, unless released (so the test itself stays quick)."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.threads: set[str] = set()
        self.release = threading.Event()

    def emit(self, event) -> None:
        self.threads.add(threading.current_thread().name)
        self.release.wait(1.0)
        self.events.append(event.event)

    def close(self) -> None:
        pass


@pytest.fixture
def write(workspace):
    def write(name: str, text: str):
        path = workspace / name
        path.write_text(text)
        return path

    return write


@pytest.fixture
def slow_engine(workspace, tmp_path):
    sink, memory = SlowSink(), MemorySink()
    telemetry = Telemetry(sinks=[sink, memory])
    engine = EditEngine(workspace, telemetry=telemetry, lock_dir=tmp_path / "locks")
    yield engine, telemetry, sink, memory
    sink.release.set()
    telemetry.close(timeout=10)


def test_async_edits_keep_the_event_loop_ticking(slow_engine, write):
    engine, telemetry, sink, memory = slow_engine
    path = write("f.py", "".join(f"x{n} = {n}\n" for n in range(50)))

    async def main() -> tuple[int, int]:
        ticks = 0
        stop = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.005)

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        for n in range(3):
            await engine.aedit("f.py", f"x{n} = {n}", f"x{n} = -{n}")
        delivered = len(sink.events)
        # The sink still holds seconds of work; the loop must keep ticking meanwhile (how
        # often it ticked during the quick edits themselves depends on the machine's load).
        after_edits = ticks
        for _ in range(400):
            if ticks >= after_edits + 3:
                break
            await asyncio.sleep(0.005)
        ticked = ticks - after_edits
        stop.set()
        await task
        return ticked, delivered

    ticks, delivered = asyncio.run(main())
    assert path.read_text().startswith("x0 = -0\nx1 = -1\nx2 = -2\n")
    events = len(memory.events)  # MemorySink: immediate, all there already
    assert events >= 9
    # Three edits with a sink taking 1 s per event returned while at most one event had
    # been handed over: the sink ran elsewhere, and the ticker kept ticking while it worked.
    assert delivered <= 1
    assert ticks >= 3
    sink.release.set()
    assert telemetry.flush(timeout=30)
    assert sink.events == [event.event for event in memory.events]
    assert sink.threads == {"editengine-telemetry"}


def test_sync_edits_do_not_wait_for_a_slow_sink(slow_engine, write):
    engine, telemetry, sink, memory = slow_engine
    write("f.py", "a = 1\n")
    engine.edit("f.py", "a = 1", "a = 2")
    engine.edit("f.py", "a = 2", "a = 3")
    assert len(sink.events) <= 1 < len(memory.events)
    sink.release.set()
    telemetry.close(timeout=30)
    assert sink.events == [event.event for event in memory.events]


def test_a_full_queue_drops_and_counts(edit_paths):
    sink = SlowSink()
    telemetry = Telemetry(sinks=[sink], max_queued=2)
    state = edit_paths["exact_hit"]()
    for _ in range(5):
        telemetry.edit_started(state)
        telemetry.edit_finished(state)  # 2 events each: 15 events in all
    assert telemetry.dropped >= 15 - 3  # at most 2 queued and 1 in the sink's hands
    sink.release.set()
    telemetry.close(timeout=30)
    assert len(sink.events) + telemetry.dropped == 15


def test_close_delivers_everything_queued(tmp_path, edit_paths):
    out = tmp_path / "t.jsonl"
    telemetry = Telemetry(sinks=[JsonlSink(out)])
    state = edit_paths["fuzzy_hit"]()
    for _ in range(20):
        telemetry.edit_started(state)
        telemetry.edit_finished(state)
    telemetry.close()
    assert len(out.read_text().splitlines()) == 20 * 5
    assert telemetry.dropped == 0


def test_immediate_delivery_serves_every_sink_on_the_caller_thread(edit_paths):
    seen: list[str] = []
    telemetry = Telemetry(
        sinks=[lambda event: seen.append(threading.current_thread().name)], delivery="immediate"
    )
    telemetry.edit_started(edit_paths["exact_hit"]())
    assert seen == [threading.current_thread().name]
    with pytest.raises(ValueError, match="delivery"):
        Telemetry(delivery="later")  # type: ignore[arg-type]  # a wrong type on purpose


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork")
def test_a_forked_child_delivers_with_its_own_worker(tmp_path, edit_paths):
    import os

    out = tmp_path / "child.jsonl"
    telemetry = Telemetry(sinks=[JsonlSink(tmp_path / "parent.jsonl")])
    telemetry.edit_started(edit_paths["exact_hit"]())  # the parent's worker is running
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        status = 1
        try:
            child = Telemetry(sinks=[JsonlSink(out)])
            child.edit_started(edit_paths["exact_hit"]())
            telemetry.edit_started(edit_paths["exact_hit"]())
            ok = child.flush(timeout=10) and telemetry.flush(timeout=10)
            status = 0 if ok else 3
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    telemetry.close()
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(out.read_text().splitlines()) == 1


def test_a_slow_custom_observer_does_not_block_the_loop(workspace, tmp_path):
    class SlowObserver:
        def __init__(self) -> None:
            self.calls: list[str] = []

        def edit_started(self, state) -> None:
            threading.Event().wait(0.3)
            self.calls.append("started")

        def edit_finished(self, state) -> None:
            threading.Event().wait(0.3)
            self.calls.append("finished")

    observer = SlowObserver()
    (workspace / "f.py").write_text("a = 1\n")
    engine = EditEngine(workspace, telemetry=observer, lock_dir=tmp_path / "locks")

    async def main() -> int:
        ticks = 0
        stop = asyncio.Event()

        async def ticker() -> None:
            nonlocal ticks
            while not stop.is_set():
                ticks += 1
                await asyncio.sleep(0.01)

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0)
        await engine.aedit("f.py", "a = 1", "a = 2")
        stop.set()
        await task
        return ticks

    ticks = asyncio.run(main())
    assert observer.calls == ["started", "finished"]  # still called, in order, before return
    assert ticks >= 10  # 0.6 s of observer time, and the loop ticked through it


def test_closing_the_engine_hands_recorded_events_to_the_sinks(workspace, tmp_path, write):
    sink, memory = SlowSink(), MemorySink()
    telemetry = Telemetry(sinks=[sink, memory])
    engine = EditEngine(workspace, telemetry=telemetry, lock_dir=tmp_path / "locks")
    write("f.py", "a = 1\n")
    engine.edit("f.py", "a = 1", "a = 2")
    assert len(sink.events) < len(memory.events)  # the slow sink is still at work
    threading.Timer(0.05, sink.release.set).start()
    engine.close()
    assert sink.events == [event.event for event in memory.events]
    telemetry.close(timeout=10)
