"""A language server that misbehaves on purpose, for the engine's LSP client tests.

``silent``: reads everything, answers nothing. ``crash``: answers ``initialize``, then exits
when it is told of the first document. ``mute``: answers ``initialize`` but never publishes.
"""

from __future__ import annotations

import json
import sys


def _messages():
    stream = sys.stdin.buffer
    while True:
        length = 0
        while True:
            line = stream.readline()
            if not line:
                return
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        yield json.loads(stream.read(length))


def _send(message: dict) -> None:
    body = json.dumps(message).encode("utf-8")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def main(mode: str) -> None:
    for message in _messages():
        if mode == "silent":
            continue
        method = message.get("method")
        if method == "initialize":
            _send({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {}}})
        elif method == "textDocument/didOpen" and mode == "crash":
            sys.exit(3)
        elif method == "shutdown":
            _send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif method == "exit":
            return


if __name__ == "__main__":
    main(sys.argv[1])
