"""DNS rebinding: Host and Origin are checked whatever the server is bound to, over real
HTTP on loopback; a non-loopback bind needs a token or an explicit insecure bind."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp")
pytest.importorskip("uvicorn")

import uvicorn

from editengine._read_tracker import ReadTracker
from editengine.cli import main
from editengine.engine import EditEngine
from editengine.mcp_server import build_server
from editengine.mcp_server._http import HttpPolicy, bind_refusal, http_app, is_loopback

FOREIGN = "evil.example"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}


@pytest.mark.parametrize("host", ["127.0.0.1", "127.1", "localhost", "::1", "[::1]", "127.0.0.2"])
def test_loopback_spellings_are_loopback(host: str) -> None:
    assert is_loopback(host)
    assert bind_refusal(host, token=None, insecure=False) is None


@pytest.mark.parametrize("host", ["0", "0.0.0.0", "::", "192.168.1.20", "10.0.0.1"])
def test_binding_every_interface_or_a_lan_address_needs_a_token_or_an_explicit_insecure_bind(
    host: str,
) -> None:
    assert not is_loopback(host)
    refusal = bind_refusal(host, token=None, insecure=False)
    assert refusal is not None and "--token" in refusal and "--insecure-bind" in refusal
    assert bind_refusal(host, token="s3cret", insecure=False) is None
    assert bind_refusal(host, token=None, insecure=True) is None


def test_the_command_refuses_a_public_bind_without_a_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", "--root", str(tmp_path), "--http", "0.0.0.0:8765"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error[bad_request]: --http 0.0.0.0:")
    assert "--insecure-bind" in error


POLICY = HttpPolicy.for_bind("127.1", allow_hosts=["dev.box"], allow_origins=["https://app.ex"])


@pytest.mark.parametrize(
    "headers",
    [
        {"host": f"{FOREIGN}:8765"},
        {"host": FOREIGN},
        {"host": ""},
        {},
        {"host": "127.0.0.1.evil.example:8765"},
        {"host": "localhost:80x"},
        {"host": "[::1"},
        {"host": "127.0.0.1:8765", "origin": f"http://{FOREIGN}:8765"},
        {"host": "127.0.0.1:8765", "origin": "null"},
        {"host": "127.0.0.1:8765", "origin": "http://localhost.evil.example"},
        {"host": "127.0.0.1:8765", "origin": "file://localhost"},
        {"host": "127.0.0.1:8765", "origin": "https://app.ex.evil"},
    ],
)
def test_foreign_hosts_and_origins_are_refused(headers: dict[str, str]) -> None:
    assert POLICY.refusal(headers) is not None


@pytest.mark.parametrize(
    "headers",
    [
        {"host": "127.0.0.1:8765"},
        {"host": "localhost:8765"},
        {"host": "LOCALHOST"},
        {"host": "[::1]:8765"},
        {"host": "127.1:8765"},  # the address bound to
        {"host": "dev.box:8765"},  # --allow-host
        {"host": "localhost:8765", "origin": "http://localhost:5173"},
        {"host": "localhost:8765", "origin": "https://app.ex"},  # --allow-origin
    ],
)
def test_loopback_and_allowed_names_pass(headers: dict[str, str]) -> None:
    assert POLICY.refusal(headers) is None


def test_a_token_is_required_when_set() -> None:
    policy = HttpPolicy.for_bind("0.0.0.0", token="s3cret")
    assert "0.0.0.0" not in policy.hosts  # a wildcard is no name a page can use
    good = {"host": "127.0.0.1:1", "authorization": "Bearer s3cret"}
    assert policy.refusal(good) is None
    assert policy.refusal({"host": "127.0.0.1:1"}) == (401, "Missing or wrong bearer token")
    assert policy.refusal({**good, "authorization": "Bearer s3cre"}) is not None


def _free_port(family: socket.AddressFamily, address: str) -> int:
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, int, Path]]:
    """The MCP app behind its guard, bound as ``request.param`` spells it, in a thread."""
    bind = request.param
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("one\n")
    engine = EditEngine(root, read_tracker=ReadTracker(), journal=False)
    connect = "::1" if ":" in bind else "127.0.0.1"
    family = socket.AF_INET6 if connect == "::1" else socket.AF_INET
    port = _free_port(family, connect)
    policy = HttpPolicy.for_bind(bind)
    config = uvicorn.Config(
        http_app(build_server(engine), policy), host=bind, port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    try:
        yield connect, port, root
    finally:
        server.should_exit = True
        thread.join(10)


def _post(connect: str, port: int, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection(connect, port, timeout=10)
    try:
        connection.putrequest("POST", "/mcp", skip_host=True)
        for name, value in {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        }.items():
            connection.putheader(name, value)
        body = json.dumps(INITIALIZE).encode()
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.parametrize("served", ["127.1", "0", "0.0.0.0", "::1", "localhost"], indirect=True)
def test_every_bind_spelling_refuses_a_foreign_host_or_origin_over_http(
    served: tuple[str, int, Path],
) -> None:
    connect, port, root = served
    own = f"[{connect}]:{port}" if ":" in connect else f"{connect}:{port}"
    assert _post(connect, port, {"Host": f"{FOREIGN}:{port}"}) == 421
    assert _post(connect, port, {"Host": own, "Origin": f"http://{FOREIGN}:{port}"}) == 403
    assert _post(connect, port, {"Host": f"{FOREIGN}:{port}", "Origin": f"http://{FOREIGN}"}) == 421
    assert _post(connect, port, {"Host": own}) == 200
    assert _post(connect, port, {"Host": own, "Origin": f"http://localhost:{port}"}) == 200
    assert (root / "a.txt").read_text() == "one\n"
