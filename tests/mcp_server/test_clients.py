"""What MCP clients see: the server's name and version through the official client, and
pydantic-ai's MCP toolset driving the tools with a scripted model (no network): the model
is shown read's lines in the structured answer, and a refusal's message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client

import editengine
from editengine.engine import EditEngine
from editengine.journal import Journal
from editengine.mcp_server import build_server

SOURCE = "def first():\n    return 1\n\n\ndef second():\n    return 1\n"


@pytest.fixture
def engine(tmp_path: Path) -> EditEngine:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(SOURCE)
    return EditEngine(
        root, lock_dir=tmp_path / "locks", journal=Journal(root, directory=tmp_path / "j")
    )


async def test_the_server_reports_its_name_and_version(engine: EditEngine) -> None:
    with anyio.fail_after(30):
        async with Client(build_server(engine)) as client:
            info = client.server_info
            read = await client.call_tool("read", {"file_path": "app.py"})
    assert (info.name, info.version) == ("editengine", editengine.__version__)
    assert editengine.__version__
    assert read.structured_content["text"] == read.content[0].text
    assert read.structured_content["text"].startswith("     1\tdef first():")


async def test_pydantic_ai_toolset_reads_edits_and_is_told_of_a_refusal(
    engine: EditEngine,
) -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        RetryPromptPart,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    shown: list[Any] = []
    plan = [
        ToolCallPart("read", {"file_path": "app.py"}),
        # ambiguous: two `return 1`; the model is told, with the candidates
        ToolCallPart("edit", {"file_path": "app.py", "old_string": "return 1",
                              "new_string": "return 2"}),
        ToolCallPart("edit", {"file_path": "app.py", "old_string": "def second():\n  return 1",
                              "new_string": "def second():\n  return 2"}),
    ]  # fmt: skip

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert {tool.name for tool in info.function_tools} >= {"read", "edit", "undo"}
        last = messages[-1]
        if isinstance(last, ModelRequest):
            shown.extend(last.parts)
        if plan:
            return ModelResponse(parts=[plan.pop(0)])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model), toolsets=[MCPToolset(build_server(engine))])
    with anyio.fail_after(60):
        async with agent:
            result = await agent.run("make second() return 2")
    assert result.output == "done"

    # a refusal reaches the model as the engine's message (a return or a retry prompt,
    # as the toolset's error behaviour decides), never as a crash of the run
    answers = [part for part in shown if isinstance(part, (ToolReturnPart, RetryPromptPart))]
    read, refused, edited = answers
    assert read.content["text"].splitlines()[4:6] == [
        "     5\tdef second():",
        "     6\t    return 1",
    ]
    assert str(refused.content).startswith("Error [ambiguous]")
    assert "line 2" in str(refused.content) and "line 6" in str(refused.content)
    assert edited.content["strategy"] != "exact" and edited.content["replacements"] == 1
    assert (engine.root / "app.py").read_text() == SOURCE[: -len("1\n")] + "2\n"
