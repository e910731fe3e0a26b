"""A real MCP client session against ``editengine mcp`` in a subprocess, and the scenario it
plays over each transport."""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("mcp")

import editengine

SRC = str(Path(editengine.__file__).resolve().parent.parent)

FILES = {
    "app.py": b"def first():\n    value = 1\n    return value\n\n\ndef second():\n"
    b"    value = 1\n    return value\n",
    "notes.md": b"\xef\xbb\xbf# Notes\r\n\r\n- one\r\n- two\r\n",
}


def server_env() -> dict[str, str]:
    """The environment for the server process: it imports this checkout's editengine."""
    path = os.pathsep.join([SRC, *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}


@pytest.fixture
def project(tmp_path: Path) -> dict[str, Path]:
    root = tmp_path / "ws"
    root.mkdir()
    for name, data in FILES.items():
        (root / name).write_bytes(data)
    outside = tmp_path / "secret.txt"
    outside.write_bytes(b"do not touch\n")
    return {"root": root, "journal": tmp_path / "journal", "outside": outside, "tmp": tmp_path}


def server_args(project: dict[str, Path], *extra: str) -> list[str]:
    return [
        "-m", "editengine", "mcp", "--root", str(project["root"]),
        "--journal-dir", str(project["journal"]), *extra,
    ]  # fmt: skip


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def play_scenario(session: Any, project: dict[str, Path]) -> None:
    """list tools, read, fuzzy edit, ambiguous refusal, outside-root refusal, stale refusal,
    multi_edit, undo — asserting on the answers and on the files."""
    import jsonschema

    root = project["root"]
    await session.initialize()
    listed = await session.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    assert {"read", "edit", "multi_edit", "undo"} <= set(tools)
    for tool in tools.values():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.description and len(tool.description) > 80
        assert tool.output_schema is not None
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
    assert tools["edit"].input_schema["required"] == ["file_path", "old_string", "new_string"]

    # read: numbered lines, recorded for the stale check
    read = await session.call_tool("read", {"file_path": "app.py"})
    assert not read.is_error
    assert text_of(read).splitlines()[:3] == [
        "     1\tdef first():",
        "     2\t    value = 1",
        "     3\t    return value",
    ]
    assert read.structured_content["total_lines"] == 8
    crlf = await session.call_tool("read", {"file_path": "notes.md", "offset": 3, "limit": 1})
    assert text_of(crlf).splitlines()[0] == "     3\t- one"
    assert "offset=4" in text_of(crlf)

    # ambiguous: refused, with the candidates' lines; the file untouched
    ambiguous = await session.call_tool(
        "edit",
        {"file_path": "app.py", "old_string": "value = 1\n    return value",
         "new_string": "value = 2\n    return value"},
    )  # fmt: skip
    assert ambiguous.is_error
    answer = text_of(ambiguous)
    assert answer.startswith("Error [ambiguous]")
    assert "lines 2-3" in answer and "lines 7-8" in answer
    assert "     7\t    value = 1" in answer
    assert (root / "app.py").read_bytes() == FILES["app.py"]

    # fuzzy edit: wrong indentation in old_string, the file's own indentation kept
    fuzzy = await session.call_tool(
        "edit",
        {"file_path": "app.py", "old_string": "def second():\n  value = 1",
         "new_string": "def second():\n  value = 2", "instruction": "second returns 2"},
    )  # fmt: skip
    assert not fuzzy.is_error, text_of(fuzzy)
    assert fuzzy.structured_content["strategy"] != "exact"
    assert "+    value = 2" in text_of(fuzzy)
    after_fuzzy = FILES["app.py"].replace(b"second():\n    value = 1", b"second():\n    value = 2")
    assert (root / "app.py").read_bytes() == after_fuzzy

    # outside the root: refused, nothing read or written there
    outside = await session.call_tool(
        "edit", {"file_path": "../secret.txt", "old_string": "do not", "new_string": "did"}
    )
    assert outside.is_error
    assert text_of(outside).startswith("Error [path_outside_workspace]")
    assert project["outside"].read_bytes() == b"do not touch\n"
    outside_read = await session.call_tool("read", {"file_path": str(project["outside"])})
    assert outside_read.is_error and "path_outside_workspace" in text_of(outside_read)

    # stale: the file changed on disk after it was read
    await session.call_tool("read", {"file_path": "notes.md"})
    changed = b"\xef\xbb\xbf# Notes\r\n\r\n- one\r\n- two\r\n- three\r\n"
    (root / "notes.md").write_bytes(changed)
    stale = await session.call_tool(
        "edit", {"file_path": "notes.md", "old_string": "- two", "new_string": "- 2"}
    )
    assert stale.is_error and text_of(stale).startswith("Error [stale_file]")
    assert (root / "notes.md").read_bytes() == changed
    await session.call_tool("read", {"file_path": "notes.md"})

    # multi_edit on the CRLF + BOM file
    multi = await session.call_tool(
        "multi_edit",
        {"file_path": "notes.md", "edits": [
            {"old_string": "- one", "new_string": "- 1"},
            {"old_string": "- three", "new_string": "- 3"}]},
    )  # fmt: skip
    assert not multi.is_error, text_of(multi)
    assert (root / "notes.md").read_bytes() == changed.replace(b"- one", b"- 1").replace(
        b"- three", b"- 3"
    )

    # undo: the newest write first, byte-exact
    undo = await session.call_tool("undo", {})
    assert not undo.is_error, text_of(undo)
    assert undo.structured_content["restored"][0]["file_path"] == "notes.md"
    assert (root / "notes.md").read_bytes() == changed
    undo_app = await session.call_tool("undo", {"file_path": "app.py"})
    assert not undo_app.is_error
    assert (root / "app.py").read_bytes() == FILES["app.py"]
    nothing = await session.call_tool("undo", {"file_path": "app.py"})
    assert nothing.is_error and text_of(nothing).startswith("Error [nothing_to_undo]")

    # undo after an outside change: refused, nothing changed
    await session.call_tool("read", {"file_path": "app.py"})
    edited = await session.call_tool(
        "edit", {"file_path": "app.py", "old_string": "def first", "new_string": "def one"}
    )
    assert not edited.is_error
    (root / "app.py").write_bytes(b"rewritten by hand\n")
    refused = await session.call_tool("undo", {"file_path": "app.py"})
    assert refused.is_error and text_of(refused).startswith("Error [stale_file]")
    assert "app.py" in text_of(refused)
    assert (root / "app.py").read_bytes() == b"rewritten by hand\n"


ScenarioRunner = Callable[[Any, dict[str, Path]], Awaitable[None]]


@pytest.fixture
def kit() -> SimpleNamespace:
    """The helpers above, for the test modules (conftest is not importable by name)."""
    return SimpleNamespace(
        FILES=FILES,
        play_scenario=play_scenario,
        server_args=server_args,
        server_env=server_env,
        text_of=text_of,
        python=sys.executable,
    )
