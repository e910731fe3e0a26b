"""Running cases through an engine configuration, serially, in processes or in threads.

Results always come back in dataset order, and a parallel run gives the same outcomes as a
serial one. A CPU-bound run (no LLM, or scripted or replayed answers) uses processes: each
builds its own executor from the (picklable) configuration and runs contiguous chunks. A
run that waits on a real LLM uses threads instead, sharing one fixer, so its cache and a
cassette being recorded are shared as they would be in one agent.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from editengine.evaluation._dataset import EvalCase
from editengine.evaluation._engine_executor import EngineExecutor
from editengine.evaluation._executors import EngineConfig, build_executor
from editengine.evaluation._scoring import CaseResult, Outcome, score

Progress = Callable[[int], None]  # called with the number of cases just finished


@dataclass(frozen=True)
class CaseRecord:
    """One case's result and its score."""

    case: EvalCase
    result: CaseResult
    outcome: Outcome


@dataclass(frozen=True)
class RunResult:
    """A configuration's records over a dataset, in dataset order, and the wall time."""

    config: EngineConfig
    records: tuple[CaseRecord, ...]
    wall_s: float


def run_chunk(config: EngineConfig, cases: Sequence[EvalCase]) -> list[CaseResult]:
    """Build an executor for ``config`` and run ``cases`` through it, in order."""
    executor = build_executor(config)
    with contextlib.closing(executor):
        return [executor.run(case) for case in cases]


_interrupted = False  # in a worker process: a SIGINT came; run no further chunk


def _leave_ctrl_c_to_parent() -> None:
    """In a worker process, between chunks: a SIGINT is noted, not raised. Ctrl-C in a
    terminal reaches the whole process group; an idle worker would die of it with a
    traceback of its own, while the parent stops the run and reports it once."""
    signal.signal(signal.SIGINT, _note_interrupt)


def _note_interrupt(signum: int, frame: object) -> None:
    global _interrupted
    _interrupted = True


def _stop_now(signum: int, frame: object) -> None:
    _note_interrupt(signum, frame)
    raise KeyboardInterrupt


def _run_chunk_in_worker(config: EngineConfig, cases: Sequence[EvalCase]) -> list[CaseResult]:
    """:func:`run_chunk` in a worker: a SIGINT during the chunk stops it (its cleanup runs,
    and the pool hands the KeyboardInterrupt to the parent instead of printing it); after
    one, the chunks already queued for this worker are not started."""
    if _interrupted:
        raise KeyboardInterrupt
    signal.signal(signal.SIGINT, _stop_now)
    try:
        return run_chunk(config, cases)
    finally:
        signal.signal(signal.SIGINT, _note_interrupt)


def _interrupt_workers(pool: ProcessPoolExecutor) -> None:
    """Pass Ctrl-C on to the workers: a SIGINT sent to the parent alone reaches no worker."""
    # The pool keeps its processes in a private mapping; no public way to reach them.
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if process.pid is not None and process.is_alive():
                os.kill(process.pid, signal.SIGINT)


def _chunks(cases: Sequence[EvalCase], workers: int) -> list[Sequence[EvalCase]]:
    # Several chunks per worker keep the pool busy when cases differ in cost.
    size = max(1, min(50, -(-len(cases) // (workers * 4))))
    return [cases[i : i + size] for i in range(0, len(cases), size)]


def run_cases(
    cases: Sequence[EvalCase],
    config: EngineConfig,
    *,
    workers: int = 1,
    progress: Progress | None = None,
) -> RunResult:
    """Run every case through ``config``; ``workers > 1`` uses that many processes, or
    threads when the configuration waits on a real LLM."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    started = time.perf_counter()
    results: list[CaseResult] = []
    if workers == 1 or len(cases) < 2:
        executor = build_executor(config)
        with contextlib.closing(executor):
            for case in cases:
                results.append(executor.run(case))
                if progress:
                    progress(1)
    elif config.waits_on_network:
        results = _run_in_threads(cases, config, workers, progress)
    else:
        chunks = _chunks(cases, workers)
        with ProcessPoolExecutor(max_workers=workers, initializer=_leave_ctrl_c_to_parent) as pool:
            futures = [pool.submit(_run_chunk_in_worker, config, chunk) for chunk in chunks]
            try:
                for future, chunk in zip(futures, chunks, strict=True):
                    results.extend(future.result())
                    if progress:
                        progress(len(chunk))
            except KeyboardInterrupt:
                # Run no further chunk, and stop the running ones (a worker cleans up after
                # itself: workspaces, external engines).
                pool.shutdown(wait=False, cancel_futures=True)
                _interrupt_workers(pool)
                raise
    records = tuple(
        CaseRecord(case, result, score(case, result))
        for case, result in zip(cases, results, strict=True)
    )
    return RunResult(config, records, time.perf_counter() - started)


def _run_in_threads(
    cases: Sequence[EvalCase], config: EngineConfig, workers: int, progress: Progress | None
) -> list[CaseResult]:
    template = build_executor(config)
    if not isinstance(template, EngineExecutor):
        raise TypeError(f"{config.label}: only the engine executor waits on an LLM")
    executors = [template]
    registering = threading.Lock()
    local = threading.local()

    def run_one(case: EvalCase) -> CaseResult:
        executor = getattr(local, "executor", None)
        if executor is None:
            executor = local.executor = template.sibling()
            with registering:
                executors.append(executor)
        return executor.run(case)

    results: list[CaseResult] = []
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            try:
                for result in pool.map(run_one, cases):
                    results.append(result)
                    if progress:
                        progress(1)
            except KeyboardInterrupt:
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    finally:
        for executor in executors:
            executor.close()
    return results
