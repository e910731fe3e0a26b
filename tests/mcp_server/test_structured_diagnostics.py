"""The errors an edit or a patch introduced are in the MCP tools' structured output, not only
in the text: a client that shows the model the structured content sees them too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client

from editengine.engine import EditEngine
from editengine.mcp_server import build_server

SOURCE = "def f():\n    return 1\n"


@pytest.fixture
def engine(tmp_path: Path) -> EditEngine:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text(SOURCE, encoding="utf-8")
    return EditEngine(root, lock_dir=tmp_path / "locks")


async def _call(engine: EditEngine, name: str, arguments: dict[str, Any]) -> Any:
    with anyio.fail_after(30):
        async with Client(build_server(engine)) as client:
            return await client.call_tool(name, arguments)


async def test_an_exact_edit_that_breaks_syntax_carries_its_diagnostics(engine: EditEngine):
    result = await _call(
        engine, "edit", {"file_path": "a.py", "old_string": "return 1", "new_string": "return ("}
    )
    assert not result.is_error
    found = result.structured_content["diagnostics"]
    assert found and found[0]["line"] == 2 and found[0]["source"] == "syntax"
    assert "ERROR [2:" in result.content[0].text


async def test_a_clean_edit_carries_no_diagnostics(engine: EditEngine):
    edits = [{"old_string": "return 1", "new_string": "return 2"}]
    result = await _call(engine, "multi_edit", {"file_path": "a.py", "edits": edits})
    assert not result.is_error
    assert result.structured_content["diagnostics"] == []


async def test_a_patch_carries_the_diagnostics_of_each_file_it_broke(engine: EditEngine):
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return (\n"
        "*** Add File: b.py\n+x = 1\n*** End Patch\n"
    )
    result = await _call(engine, "apply_patch", {"patch": patch})
    assert not result.is_error, result.content[0].text
    found = result.structured_content["diagnostics"]
    assert list(found) == ["a.py"] and found["a.py"][0]["line"] == 2
