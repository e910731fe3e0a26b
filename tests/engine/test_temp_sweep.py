"""Temp files left by a writer killed mid-write are removed by the next write there."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from editengine.engine import EditEngine
from editengine.files._atomic import STALE_TEMP_SECONDS, sweep_stale_temps

# A writer that stops for good inside the write, after the temp file is complete: the
# moment a SIGKILL leaves a full-size temp file behind.
KILLED_WRITER = """
import os, sys, time
from editengine.engine import EditEngine

real_fsync = os.fsync
def stall(fd):
    real_fsync(fd)
    print("in-write", flush=True)
    time.sleep(60)
os.fsync = stall
EditEngine(sys.argv[1], lock_dir=sys.argv[2]).edit(sys.argv[3], "old", "new " * 100_000)
"""


def temps(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".editengine.tmp"))


def kill_during_write(workspace: Path, lock_dir: Path, relative: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(workspace), str(lock_dir), relative],
        stdout=subprocess.PIPE,
        env=env,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"in-write"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_next_write_sweeps_the_temp_file_of_a_killed_writer(workspace, lock_dir):
    sub = workspace / "sub"
    sub.mkdir()
    (sub / "big.txt").write_text("old\n")
    (sub / "other.txt").write_text("x = 1\n")
    for _ in range(3):
        kill_during_write(workspace, lock_dir, "sub/big.txt")
        # Each crash leaves one full-size temp file; the next writer swept the one before.
        (left,) = temps(sub)
        assert (sub / left).stat().st_size > 100_000

    EditEngine(workspace, lock_dir=lock_dir).edit("sub/other.txt", "x = 1", "x = 2")

    assert temps(sub) == []
    assert (sub / "big.txt").read_text() == "old\n"
    assert (sub / "other.txt").read_text() == "x = 2\n"


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_engine_start_up_sweeps_the_root(workspace, lock_dir):
    (workspace / "big.txt").write_text("old\n")
    kill_during_write(workspace, lock_dir, "big.txt")
    assert len(temps(workspace)) == 1
    EditEngine(workspace, lock_dir=lock_dir)
    assert temps(workspace) == []


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_sweep_keeps_live_writers_and_unrelated_files(workspace):
    live = workspace / f".a.txt.{os.getpid()}.0123456789ab.editengine.tmp"
    dead = workspace / f".a.txt.{dead_pid()}.0123456789ab.editengine.tmp"
    old_live = workspace / f".b.txt.{os.getpid()}.aaaaaaaaaaaa.editengine.tmp"
    legacy_new = workspace / ".c.txt.bbbbbbbbbbbb.editengine.tmp"  # no pid: age decides
    mine = workspace / "notes.editengine.tmp"  # not our name pattern: never touched
    folder = workspace / f".d.txt.{dead_pid()}.cccccccccccc.editengine.tmp"
    for path in (live, dead, old_live, legacy_new, mine):
        path.write_text("partial")
    folder.mkdir()
    long_ago = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(old_live, (long_ago, long_ago))

    fd = os.open(workspace, os.O_RDONLY)
    try:
        removed = sweep_stale_temps(fd)
    finally:
        os.close(fd)

    assert removed == 2
    assert sorted(os.listdir(workspace)) == sorted(
        [live.name, legacy_new.name, mine.name, folder.name]
    )


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs /proc")
def test_a_killed_writer_not_yet_reaped_counts_as_gone(workspace):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        temp = workspace / f".a.txt.{child.pid}.0123456789ab.editengine.tmp"
        temp.write_text("partial")
        fd = os.open(workspace, os.O_RDONLY)
        try:
            assert sweep_stale_temps(fd) == 0  # its writer is alive
            child.kill()
            deadline = time.monotonic() + 30
            while sweep_stale_temps(fd) == 0 and time.monotonic() < deadline:
                time.sleep(0.01)  # a zombie until reaped: the sweep must see it as gone
        finally:
            os.close(fd)
        assert not temp.exists()
    finally:
        child.kill()
        child.wait()
