"""The edit tool's description speaks of every choice its schema offers beside the file."""

from __future__ import annotations

from editengine.tools import EDIT_PARAMETERS, EDIT_TOOL, tool_description


def test_the_edit_description_names_every_published_argument() -> None:
    described = tool_description(EDIT_TOOL)
    offered = set(EDIT_PARAMETERS["properties"]) - {"file_path"}
    assert "overwrite" in offered
    assert [name for name in sorted(offered) if f"`{name}`" not in described] == []
