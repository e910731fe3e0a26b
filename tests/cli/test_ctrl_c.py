"""Ctrl-C in any command: exit status 130 and one line on stderr, never a traceback.

The commands run as real processes and get a real SIGINT: to the process alone (``kill
-INT``) and to its whole process group (what a terminal sends on Ctrl-C, reaching worker
processes and external engines too).
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from editengine._resources import benchmark_path
from editengine.cli import main

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
ONE_LINE = "error[interrupted]: stopped by Ctrl-C (SIGINT) before the command finished."

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def start(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "editengine", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        start_new_session=True,  # its own process group, as a job in a terminal
    )


def interrupt(process: subprocess.Popen[bytes], *, group: bool) -> tuple[int, str]:
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    return process.returncode, err.decode()


def wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command never got there"
        time.sleep(0.02)


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_batch_stops_with_one_line_and_130(group):
    process = start("batch")
    assert process.stdin is not None and process.stdout is not None
    request = {"id": 1, "content": "a = 1\n", "old_string": "a = 1", "new_string": "a = 2"}
    process.stdin.write(json.dumps(request).encode() + b"\n")
    process.stdin.flush()
    answer = json.loads(process.stdout.readline())  # it is in its loop, waiting for more
    assert answer["ok"] is True
    status, err = interrupt(process, group=group)
    assert status == 130
    assert err.splitlines() == [ONE_LINE]


@pytest.fixture
def slow_eval(tmp_path: Path) -> tuple[list[str], Path]:
    """eval argv whose external engine touches ``started`` and then waits on its stdin: the
    run is caught mid-way, deterministically."""
    with gzip.open(benchmark_path(), "rt", encoding="utf-8") as bundled:
        lines = [bundled.readline() for _ in range(4)]
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text("".join(lines), encoding="utf-8")
    started = tmp_path / "started"
    engine = tmp_path / "engine.py"
    engine.write_text(
        "import pathlib, sys\npathlib.Path(sys.argv[1]).touch()\nsys.stdin.read()\n",
        encoding="utf-8",
    )
    command = f"{sys.executable} {engine} {started}"
    return [str(dataset), "--executor", "text", "--engine-cmd", f"slow={command}"], started


@pytest.mark.parametrize(
    ("workers", "group"),
    [(1, False), (1, True), (2, True)],
    ids=["serial-process", "serial-group", "workers-group"],
)
def test_eval_stops_with_one_line_and_130(slow_eval, workers, group):
    argv, started = slow_eval
    process = start("eval", *argv, "--workers", str(workers))
    wait_for(started, process)
    status, err = interrupt(process, group=group)
    assert status == 130
    assert err.splitlines() == [ONE_LINE]


# ``editengine patch`` reading stdin, with a stdin that touches a file when it is first
# read: the signal comes once the command is surely waiting on its input.
MARKED_STDIN = """
import io, pathlib, sys
from editengine.cli import main

class Marked(io.RawIOBase):
    def readable(self):
        return True

    def readinto(self, buffer):
        pathlib.Path(sys.argv[1]).touch()
        data = sys.__stdin__.buffer.raw.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

sys.stdin = io.TextIOWrapper(io.BufferedReader(Marked()), encoding="utf-8")
raise SystemExit(main(sys.argv[2:]))
"""


def test_patch_reading_stdin_stops_with_one_line_and_130(tmp_path):
    reading = tmp_path / "reading"
    process = subprocess.Popen(
        [sys.executable, "-c", MARKED_STDIN, str(reading), "patch", "--root", str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        start_new_session=True,
    )
    wait_for(reading, process)
    status, err = interrupt(process, group=True)
    assert status == 130
    assert err.splitlines() == [ONE_LINE]


def test_ctrl_c_inside_any_command_is_caught_in_main(monkeypatch, capsys):
    """The one place: main() turns a KeyboardInterrupt from a command into 130."""
    from editengine.cli import _report

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_report, "run", interrupted)
    assert main(["report", "."]) == 130
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [ONE_LINE]
    assert captured.out == ""


def test_mcp_on_stdio_stops_with_one_line_and_130(tmp_path):
    pytest.importorskip("mcp")
    process = start("mcp", "--root", str(tmp_path))
    assert process.stdin is not None and process.stdout is not None
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    process.stdin.write(json.dumps(initialize).encode() + b"\n")
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == 1  # serving
    status, err = interrupt(process, group=True)
    assert status == 130
    assert err.splitlines() == [ONE_LINE]


def test_mcp_over_http_stops_with_one_line_and_130(tmp_path):
    pytest.importorskip("mcp")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = start("mcp", "--root", str(tmp_path), "--http", f"127.0.0.1:{port}")
    deadline = time.monotonic() + 60
    while True:  # serving once it accepts a connection
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    status, err = interrupt(process, group=True)
    assert status == 130
    lines = err.splitlines()
    assert lines[0] == f"editengine MCP server on http://127.0.0.1:{port}/mcp"
    assert lines[1].startswith("Requests are checked: ")
    assert lines[2:] == [ONE_LINE]
