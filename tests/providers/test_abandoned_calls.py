"""A sync call given up at the deadline is ended, not left reading a slow server.

A real HTTP server on the loopback interface answers with headers at once and then one
byte every 20 ms: each read succeeds well within the SDK's read timeout, so only the
deadline can end the call. After ``FixerTimeout`` the worker thread must stop and the
connection must close, rather than stream on for the seconds the server keeps sending.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from editengine._errors import EditError, FixerTimeout
from editengine.fixer import LLMFixer
from editengine.providers import AnthropicProvider, OpenAIProvider

from .conftest import make_request

TRICKLE_SECONDS = 5.0  # how long the server would go on sending if nobody hung up


class TrickleServer:
    """Accepts connections; to each, sends headers then a byte every 20 ms."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self.requests = 0
        self.hung_up: list[float] = []  # when each client closed its connection
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except (TimeoutError, OSError):
                continue
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            self.requests += 1
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                b"content-length: 100000\r\n\r\n{"
            )
            ends = time.monotonic() + TRICKLE_SECONDS
            while time.monotonic() < ends and not self._stop.is_set():
                try:
                    conn.sendall(b" ")
                except OSError:
                    self.hung_up.append(time.monotonic())
                    return
                time.sleep(0.02)

    def close(self) -> None:
        self._stop.set()
        self._listener.close()


@pytest.fixture
def server() -> Iterator[TrickleServer]:
    served = TrickleServer()
    yield served
    served.close()


def _provider(name: str, port: int) -> OpenAIProvider | AnthropicProvider:
    if name == "openai":
        return OpenAIProvider(api_key="k", base_url=f"http://127.0.0.1:{port}/v1")
    return AnthropicProvider(api_key="k", base_url=f"http://127.0.0.1:{port}")


def _fixer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "editengine-fixer-call" and t.is_alive()]


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_an_abandoned_sync_call_stops_reading(server, name):
    fixer = LLMFixer(_provider(name, server.port), timeout=0.4, max_attempts=1)

    started = time.monotonic()
    with pytest.raises(FixerTimeout):
        fixer.correct(make_request())
    gave_up = time.monotonic()

    assert gave_up - started < 0.4 + 0.5
    assert server.requests == 1
    waited = 0.0
    while (_fixer_threads() or not server.hung_up) and waited < 2.0:
        time.sleep(0.05)
        waited += 0.05
    assert _fixer_threads() == []  # the worker ended, long before the server would have
    assert server.hung_up and server.hung_up[0] - gave_up < 2.0
    assert fixer.provider._clients.in_flight == 0


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_close_ends_a_sync_call_under_way(server, name):
    provider = _provider(name, server.port)
    failures: list[BaseException] = []

    def call() -> None:
        try:
            provider.complete_json("s", "u", {"type": "object"}, timeout=10)
        except BaseException as error:
            failures.append(error)

    worker = threading.Thread(target=call)
    worker.start()
    while server.requests == 0 and worker.is_alive():
        time.sleep(0.02)
    provider.close()
    worker.join(2.0)

    assert not worker.is_alive()
    assert len(failures) == 1  # the call failed (as a project error), it did not hang
    assert isinstance(failures[0], EditError)


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_closing_the_engine_ends_its_fixer_call(server, name, tmp_path):
    from editengine._errors import NoMatch
    from editengine.engine import EditEngine

    from ..integration.conftest import BILLING, WRONG_NEW, WRONG_OLD

    root = tmp_path / "ws"
    root.mkdir()
    (root / "billing.py").write_text(BILLING)
    fixer = LLMFixer(_provider(name, server.port), timeout=10, max_attempts=1)
    engine = EditEngine(root, fixer=fixer, lock_dir=tmp_path / "locks")
    failures: list[BaseException] = []

    def edit() -> None:
        try:
            engine.edit("billing.py", WRONG_OLD, WRONG_NEW)
        except BaseException as error:
            failures.append(error)

    worker = threading.Thread(target=edit)
    worker.start()
    while server.requests == 0 and worker.is_alive():
        time.sleep(0.02)
    closed_at = time.monotonic()
    with engine:  # leaving the block closes the engine, and with it the call under way
        pass
    worker.join(3.0)

    assert not worker.is_alive() and time.monotonic() - closed_at < 3.0
    assert len(failures) == 1 and isinstance(failures[0], NoMatch)
    assert "The LLM fixer could not correct it" in str(failures[0])
    assert (root / "billing.py").read_text() == BILLING


@pytest.mark.parametrize("name", ["openai", "anthropic"])
async def test_aclose_ends_an_async_call_under_way(server, name, tmp_path):
    import asyncio

    from editengine._errors import NoMatch
    from editengine.engine import EditEngine

    from ..integration.conftest import BILLING, WRONG_NEW, WRONG_OLD

    root = tmp_path / "ws"
    root.mkdir()
    (root / "billing.py").write_text(BILLING)
    fixer = LLMFixer(_provider(name, server.port), timeout=10, max_attempts=1)
    engine = EditEngine(root, fixer=fixer, lock_dir=tmp_path / "locks")
    task = asyncio.ensure_future(engine.aedit("billing.py", WRONG_OLD, WRONG_NEW))
    while server.requests == 0 and not task.done():
        await asyncio.sleep(0.02)

    await engine.aclose()
    with pytest.raises(NoMatch, match="The LLM fixer could not correct it"):
        await asyncio.wait_for(task, 3.0)

    assert (root / "billing.py").read_text() == BILLING
    assert fixer.provider._clients.in_flight == 0
