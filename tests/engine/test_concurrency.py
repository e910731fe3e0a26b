"""Concurrent edits of one file are serialised: none is lost, from threads or processes."""

from __future__ import annotations

import asyncio
import multiprocessing
import sys
import threading
from pathlib import Path

from editengine.engine import EditEngine


def numbered_file(path: Path, count: int) -> None:
    path.write_text("".join(f"line {i:04d} todo\n" for i in range(count)))


def assert_all_done(path: Path, count: int) -> None:
    assert path.read_text() == "".join(f"line {i:04d} done\n" for i in range(count))


def test_eight_threads_fifty_edits_each_all_land(engine, workspace):
    threads, per_thread = 8, 50
    path = workspace / "shared.txt"
    numbered_file(path, threads * per_thread)
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def work(worker: int) -> None:
        start.wait()
        try:
            for i in range(worker, threads * per_thread, threads):
                engine.edit("shared.txt", f"line {i:04d} todo\n", f"line {i:04d} done\n")
        except BaseException as error:
            errors.append(error)

    pool = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()

    assert errors == []
    assert_all_done(path, threads * per_thread)


def test_threads_with_separate_engines_all_land(make_engine, workspace):
    """Two engines in one process share nothing but the lock directory."""
    path = workspace / "shared.txt"
    numbered_file(path, 100)
    engines = [make_engine(), make_engine()]

    def work(worker: int) -> None:
        for i in range(worker, 100, 4):
            engines[worker % 2].edit("shared.txt", f"line {i:04d} todo\n", f"line {i:04d} done\n")

    pool = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    assert_all_done(path, 100)


def test_four_processes_twenty_five_edits_each_all_land(workspace, lock_dir):
    processes, per_process = 4, 25
    path = workspace / "shared.txt"
    numbered_file(path, processes * per_process)
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        import concurrency_worker

        context = multiprocessing.get_context("spawn")
        with context.Pool(processes) as pool:
            jobs = [
                pool.apply_async(
                    concurrency_worker.edit_lines,
                    (
                        str(workspace),
                        str(lock_dir),
                        "shared.txt",
                        list(range(worker, processes * per_process, processes)),
                    ),
                )
                for worker in range(processes)
            ]
            done = [job.get(timeout=120) for job in jobs]
    finally:
        sys.path.remove(str(Path(__file__).parent))
    assert done == [per_process] * processes
    assert_all_done(path, processes * per_process)


async def test_concurrent_aedits_all_land(engine, workspace):
    path = workspace / "shared.txt"
    numbered_file(path, 40)
    await asyncio.gather(
        *(
            engine.aedit("shared.txt", f"line {i:04d} todo\n", f"line {i:04d} done\n")
            for i in range(40)
        )
    )
    assert_all_done(path, 40)


def test_symlink_and_real_path_share_one_lock(engine, workspace):
    """Two spellings of one file meet on the same lock."""
    path = workspace / "shared.txt"
    numbered_file(path, 60)
    (workspace / "alias.txt").symlink_to("shared.txt")

    def work(name: str, start: int) -> None:
        for i in range(start, 60, 2):
            engine.edit(name, f"line {i:04d} todo\n", f"line {i:04d} done\n")

    pool = [
        threading.Thread(target=work, args=("shared.txt", 0)),
        threading.Thread(target=work, args=("alias.txt", 1)),
    ]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    assert_all_done(path, 60)
    assert (workspace / "alias.txt").is_symlink()


def test_lock_files_stay_out_of_the_workspace(engine, workspace, lock_dir):
    (workspace / "a.txt").write_text("x\n")
    engine.edit("a.txt", "x", "y")
    assert sorted(p.name for p in workspace.iterdir()) == ["a.txt"]
    assert any(lock_dir.iterdir()) or lock_dir.exists()
    default = EditEngine(workspace)._locks.lock_dir
    assert workspace not in default.parents and default != workspace


def test_lock_dir_owned_by_someone_else_is_refused(make_engine, workspace, tmp_path):
    import os

    import pytest

    from editengine._errors import WriteFailed

    if not hasattr(os, "getuid") or os.getuid() != 0:
        pytest.skip("needs root to give a folder to another user")
    foreign = tmp_path / "foreign-locks"
    foreign.mkdir()
    os.chown(foreign, 12345, 12345)
    (workspace / "a.txt").write_text("x\n")
    with pytest.raises(WriteFailed, match="another user"):
        make_engine(lock_dir=foreign).edit("a.txt", "x", "y")
    assert (workspace / "a.txt").read_text() == "x\n"


def test_lock_timeout_is_a_clear_error(make_engine, workspace, lock_dir):
    import filelock
    import pytest

    from editengine._errors import WriteFailed

    (workspace / "a.txt").write_text("x\n")
    engine = make_engine(lock_timeout=0.2)
    lock_file = engine._locks.lock_file_for((workspace / "a.txt").resolve())
    lock_dir.mkdir(exist_ok=True)
    holder = filelock.FileLock(lock_file, thread_local=False)
    thread = threading.Thread(target=holder.acquire)
    thread.start()
    thread.join()
    try:
        with pytest.raises(WriteFailed, match="stayed locked"):
            engine.edit("a.txt", "x", "y")
    finally:
        holder.release()
    assert (workspace / "a.txt").read_text() == "x\n"
