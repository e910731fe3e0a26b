"""The SDK's own client session drives ``editengine mcp`` over stdio in a subprocess."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import IO

import anyio
import pytest

pytest.importorskip("mcp")

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


def _params(kit: SimpleNamespace, project: dict[str, Path]) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=kit.server_args(project), env=kit.server_env()
    )


@contextlib.asynccontextmanager
async def _session(
    kit: SimpleNamespace, project: dict[str, Path], log: IO[str]
) -> AsyncIterator[ClientSession]:
    async with (
        stdio_client(_params(kit, project), errlog=log) as (read, write),
        ClientSession(read, write) as session,
    ):
        yield session


async def test_stdio_session_round_trip(project: dict[str, Path], kit: SimpleNamespace) -> None:
    with open(project["tmp"] / "server.log", "w") as log, anyio.fail_after(90):
        async with _session(kit, project, log) as session:
            await kit.play_scenario(session, project)


async def test_stdio_journal_is_shared_with_the_undo_command(
    project: dict[str, Path], kit: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project["root"]
    with open(project["tmp"] / "server.log", "w") as log, anyio.fail_after(90):
        async with _session(kit, project, log) as session:
            await session.initialize()
            result = await session.call_tool(
                "edit", {"file_path": "new/made.txt", "old_string": "", "new_string": "hi\n"}
            )
            assert not result.is_error, kit.text_of(result)
            result = await session.call_tool(
                "edit",
                {"file_path": "app.py", "old_string": "def first", "new_string": "def a"},
            )
            assert not result.is_error, kit.text_of(result)
    # The server (another process) wrote the journal; the undo command reads it here.
    from editengine.cli import main

    flags = ["--root", str(root), "--journal-dir", str(project["journal"])]
    assert main(["undo", "--list", *flags]) == 0
    listed = capsys.readouterr().out
    assert "new/made.txt" in listed and "app.py" in listed
    assert main(["undo", "--steps", "2", *flags]) == 0
    assert "Undid 2 writes" in capsys.readouterr().out
    assert not (root / "new" / "made.txt").exists()
    assert (root / "app.py").read_bytes() == kit.FILES["app.py"]
    assert main(["undo", *flags]) == 1
    assert "nothing_to_undo" in capsys.readouterr().err
