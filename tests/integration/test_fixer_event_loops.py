"""One engine under two event loops, against a real HTTP server on the loopback interface.

A mocked transport has no connections to keep, so it cannot show a client bound to a dead
event loop; a real keep-alive server can: a client that pooled a connection under the first
``asyncio.run`` meets it again, closed with its loop, under the second.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from editengine.engine import EditEngine
from editengine.fixer import LLMFixer
from editengine.providers import AnthropicProvider, OpenAIProvider

from ..conftest import BACKENDS
from .conftest import BILLING, BILLING_FIXED, GOOD_ANSWER, INSTRUCTION, WRONG_NEW, WRONG_OLD


class AnswerServer:
    """A keep-alive HTTP/1.1 server answering every POST with one model answer."""

    def __init__(self, body: bytes) -> None:
        outer = self
        self.requests = 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                outer.requests += 1
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture(params=sorted(BACKENDS))
def served(request) -> Iterator[tuple[str, AnswerServer]]:
    backend = BACKENDS[request.param]
    server = AnswerServer(backend.answer(GOOD_ANSWER).content)
    yield request.param, server
    server.close()


def _provider(name: str, port: int) -> OpenAIProvider | AnthropicProvider:
    if name == "openai":
        return OpenAIProvider(api_key="k", base_url=f"http://127.0.0.1:{port}/v1")
    return AnthropicProvider(api_key="k", base_url=f"http://127.0.0.1:{port}")


def test_one_engine_under_two_asyncio_runs(served, workspace, tmp_path, caplog):
    name, server = served
    path = workspace / "billing.py"
    fixer = LLMFixer(_provider(name, server.port), timeout=5, cache_size=0, max_attempts=1)
    engine = EditEngine(workspace, fixer=fixer, lock_dir=tmp_path / "locks")
    caplog.set_level(logging.ERROR)

    results = []
    for _ in range(2):
        path.write_bytes(BILLING.encode())
        results.append(
            asyncio.run(engine.aedit("billing.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION))
        )
        assert path.read_bytes() == BILLING_FIXED.encode()
    del engine, fixer
    gc.collect()

    assert server.requests == 2  # one request each: none paid for and lost, none repeated
    assert all(result.corrected_by_fixer for result in results)
    assert "Event loop is closed" not in caplog.text
    assert "Task exception was never retrieved" not in caplog.text


def test_threads_with_their_own_loops_share_one_engine(served, workspace, tmp_path):
    name, server = served
    fixer = LLMFixer(_provider(name, server.port), timeout=5, cache_size=0, max_attempts=1)
    engine = EditEngine(workspace, fixer=fixer, lock_dir=tmp_path / "locks")
    # Different files (identical ones would share one call: the fixer's single flight).
    for n in range(4):
        (workspace / f"billing_{n}.py").write_bytes((f"# {n}\n" + BILLING).encode())
    failures: list[BaseException] = []

    def run(n: int) -> None:
        try:
            asyncio.run(
                engine.aedit(f"billing_{n}.py", WRONG_OLD, WRONG_NEW, instruction=INSTRUCTION)
            )
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)

    assert failures == []
    assert server.requests == 4
    for n in range(4):
        fixed = f"# {n}\n" + BILLING_FIXED
        assert (workspace / f"billing_{n}.py").read_bytes() == fixed.encode()


def test_the_answer_server_speaks_the_wire_format():
    # The fixture's body is what the mocked tests use: the same SDK parsing applies.
    body = json.loads(BACKENDS["anthropic"].answer(GOOD_ANSWER).content)
    assert body["content"][0]["input"] == GOOD_ANSWER
