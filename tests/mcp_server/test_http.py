"""The same session over streamable HTTP: ``editengine mcp --http 127.0.0.1:PORT`` in a
subprocess, bounded waits, always terminated."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest

pytest.importorskip("mcp")

from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited early: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen within 60 s: {log.read_text()}")


@pytest.fixture
def http_server(project: dict[str, Path], kit: SimpleNamespace) -> Iterator[str]:
    port = _free_port()
    log = project["tmp"] / "server.log"
    with open(log, "wb") as errors:
        process = subprocess.Popen(
            [sys.executable, *kit.server_args(project, "--http", f"127.0.0.1:{port}")],
            env=kit.server_env(),
            stdin=subprocess.DEVNULL,
            stdout=errors,
            stderr=errors,
        )
    try:
        _wait_for_port(port, process, log)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


async def test_http_session_round_trip(
    http_server: str, project: dict[str, Path], kit: SimpleNamespace
) -> None:
    with anyio.fail_after(90):
        async with (
            streamable_http_client(http_server) as (read, write),
            ClientSession(read, write) as session,
        ):
            await kit.play_scenario(session, project)


def test_http_binds_loopback_by_default(kit: SimpleNamespace) -> None:
    from editengine.cli._mcp import _address

    assert _address(":8765") == ("127.0.0.1", 8765)
    assert _address("8765") == ("127.0.0.1", 8765)
    assert _address("0.0.0.0:9000") == ("0.0.0.0", 9000)
    with pytest.raises(ValueError):
        _address("localhost:http")


async def test_http_with_the_high_level_client_on_the_newest_protocol(
    http_server: str, project: dict[str, Path], kit: SimpleNamespace
) -> None:
    from mcp import Client

    root = project["root"]
    with anyio.fail_after(90):
        async with Client(http_server) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            assert {"read", "edit", "multi_edit", "undo"} <= tools
            read = await client.call_tool("read", {"file_path": "app.py", "limit": 2})
            assert kit.text_of(read).startswith("     1\tdef first():\n     2\t    value = 1")
            edit = await client.call_tool(
                "edit",
                {"file_path": "app.py", "old_string": "def first():\n  value = 1",
                 "new_string": "def first():\n  value = 5"},
            )  # fmt: skip
            assert not edit.is_error, kit.text_of(edit)
            assert b"    value = 5" in (root / "app.py").read_bytes()
            ambiguous = await client.call_tool(
                "edit", {"file_path": "app.py", "old_string": "return value", "new_string": "x"}
            )
            assert ambiguous.is_error and "Candidate 2" in kit.text_of(ambiguous)
            undo = await client.call_tool("undo", {})
            assert not undo.is_error, kit.text_of(undo)
    assert (root / "app.py").read_bytes() == kit.FILES["app.py"]
