"""One read tracker per MCP session: two clients over streamable HTTP, their reads and edits
interleaved."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")
pytest.importorskip("uvicorn")

import uvicorn
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from editengine._read_tracker import ReadTracker
from editengine.engine import EditEngine
from editengine.mcp_server import build_server
from editengine.mcp_server._http import HttpPolicy, http_app
from editengine.mcp_server._sessions import SessionReadTrackers


def _serve(root: Path, *, require_read: bool) -> Iterator[str]:
    engine = EditEngine(root, read_tracker=ReadTracker(require_read=require_read), journal=False)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    app = http_app(build_server(engine), HttpPolicy.for_bind("127.0.0.1"))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert isinstance(engine.read_tracker, SessionReadTrackers)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    for n in range(8):
        (root / f"f{n}.txt").write_text(f"alpha {n}\nbeta {n}\n")
    return root


@pytest.fixture
def url(root: Path) -> Iterator[str]:
    yield from _serve(root, require_read=False)


@pytest.fixture
def strict_url(root: Path) -> Iterator[str]:
    yield from _serve(root, require_read=True)


@asynccontextmanager
async def _session(url: str) -> AsyncIterator[ClientSession]:
    async with (
        streamable_http_client(url) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


def _text(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def _edit(path: str, old: str, new: str) -> dict[str, str]:
    return {"file_path": path, "old_string": old, "new_string": new}


async def test_a_stale_edit_of_one_client_is_refused_after_another_clients_edit(
    url: str, root: Path
) -> None:
    with anyio.fail_after(60):
        async with _session(url) as a, _session(url) as b:
            await a.call_tool("read", {"file_path": "f0.txt"})
            await b.call_tool("read", {"file_path": "f0.txt"})
            by_b = await b.call_tool("edit", _edit("f0.txt", "beta 0", "BETA 0"))
            assert not by_b.is_error, _text(by_b)
            by_a = await a.call_tool("edit", _edit("f0.txt", "alpha 0", "ALPHA 0"))
            assert by_a.is_error
            assert "changed on disk since you last read it" in _text(by_a)
            await a.call_tool("read", {"file_path": "f0.txt"})
            again = await a.call_tool("edit", _edit("f0.txt", "alpha 0", "ALPHA 0"))
            assert not again.is_error, _text(again)
    assert (root / "f0.txt").read_text() == "ALPHA 0\nBETA 0\n"


async def test_with_require_read_a_file_read_by_another_client_does_not_count(
    strict_url: str, root: Path
) -> None:
    with anyio.fail_after(60):
        async with _session(strict_url) as a, _session(strict_url) as b:
            await a.call_tool("read", {"file_path": "f1.txt"})
            by_b = await b.call_tool("edit", _edit("f1.txt", "beta 1", "BETA 1"))
            assert by_b.is_error and "has not been read in this session" in _text(by_b)
            by_a = await a.call_tool("edit", _edit("f1.txt", "beta 1", "BETA 1"))
            assert not by_a.is_error, _text(by_a)
    assert (root / "f1.txt").read_text() == "alpha 1\nBETA 1\n"


async def test_concurrent_edits_get_no_false_stale_refusal(url: str, root: Path) -> None:
    """Clients editing at once, each its own files and one shared file's own lines: none
    is told a file changed since it read it, except where another client's edit did."""
    answers: list[str] = []

    async def client(n: int) -> None:
        async with _session(url) as session:
            await session.call_tool("read", {"file_path": f"f{n}.txt"})
            for step in range(3):
                result = await session.call_tool(
                    "edit",
                    _edit(f"f{n}.txt", f"beta {n}" + "!" * step, f"beta {n}" + "!" * (step + 1)),
                )
                answers.append("" if not result.is_error else _text(result))

    with anyio.fail_after(90):
        async with anyio.create_task_group() as group:
            for n in range(2, 8):
                group.start_soon(client, n)
    assert answers == [""] * 18
    assert all((root / f"f{n}.txt").read_text() == f"alpha {n}\nbeta {n}!!!\n" for n in range(2, 8))


async def test_two_in_process_clients_with_a_handshake_are_two_sessions(root: Path) -> None:
    from mcp import Client

    engine = EditEngine(root, read_tracker=ReadTracker(), journal=False)
    server = build_server(engine)
    with anyio.fail_after(60):
        async with Client(server, mode="legacy") as a, Client(server, mode="legacy") as b:
            await a.call_tool("read", {"file_path": "f0.txt"})
            await b.call_tool("read", {"file_path": "f0.txt"})
            by_b = await b.call_tool("edit", _edit("f0.txt", "beta 0", "BETA 0"))
            assert not by_b.is_error, _text(by_b)
            again = await b.call_tool("edit", _edit("f0.txt", "BETA 0", "BETA 00"))
            assert not again.is_error, _text(again)  # its own edit counts as read
            by_a = await a.call_tool("edit", _edit("f0.txt", "alpha 0", "ALPHA 0"))
            assert by_a.is_error and "changed on disk since you last read it" in _text(by_a)
    assert (root / "f0.txt").read_text() == "alpha 0\nBETA 00\n"
