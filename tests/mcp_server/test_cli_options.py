"""``editengine mcp`` options: fixer from flags or environment, telemetry, read requirement."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client

from editengine.cli import build_parser, main
from editengine.cli._mcp import ENV_MODEL, ENV_PROVIDER, _engine
from editengine.mcp_server import build_server


def _args(root: Path, *extra: str):
    return build_parser().parse_args(["mcp", "--root", str(root), *extra])


def test_the_fixer_is_off_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_PROVIDER, raising=False)
    assert _engine(_args(tmp_path)).fixer is None


def test_the_fixer_comes_from_the_environment_and_names_a_missing_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENV_PROVIDER, "openai")
    monkeypatch.setenv(ENV_MODEL, "some-model")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["mcp", "--root", str(tmp_path)]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    engine = _engine(_args(tmp_path))
    assert engine.fixer is not None


def test_bad_usage_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--root", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["mcp", "--root", str(tmp_path), "--http", "host:port"]) == 2


async def test_telemetry_and_require_read(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("one\n")
    engine = _engine(
        _args(root, "--telemetry", str(tmp_path / "t"), "--require-read",
              "--journal-dir", str(tmp_path / "j"))
    )  # fmt: skip
    with anyio.fail_after(30):
        async with Client(build_server(engine)) as client:
            arguments = {"file_path": "a.txt", "old_string": "one", "new_string": "two"}
            unread = await client.call_tool("edit", arguments)
            await client.call_tool("read", {"file_path": "a.txt"})
            done = await client.call_tool("edit", arguments)
    engine.close()  # as the command does when the server stops: telemetry reaches its sink
    assert unread.is_error and "has not been read" in unread.content[0].text
    assert not done.is_error
    events = (tmp_path / "t" / "edits.jsonl").read_text().splitlines()
    assert len(events) >= 4 and any('"edit.finished"' in line for line in events)
