"""The tool definitions in every provider's shape, checked against the SDKs' own types, and a
strict variant a strict validator accepts; a ``read`` tool in each."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from editengine import tools
from editengine.engine import EditEngine

pytest.importorskip("openai")
pytest.importorskip("anthropic")


def _objects(schema: Any) -> list[dict[str, Any]]:
    """Every object schema inside ``schema``."""
    found = []
    if isinstance(schema, dict):
        if schema.get("type") in ("object", ["object", "null"]):
            found.append(schema)
        for value in schema.values():
            found += _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            found += _objects(value)
    return found


@pytest.mark.parametrize("strict", [False, True])
def test_responses_function_tools_fit_the_sdk_type(strict: bool) -> None:
    from openai.types.responses import FunctionToolParam

    definitions = tools.openai_responses_tools(tools.ALL_TOOLS, strict=strict)
    assert [d["name"] for d in definitions] == ["read", "edit", "multiedit", "apply_patch"]
    for definition in definitions:
        TypeAdapter(FunctionToolParam).validate_python(definition)
        assert set(definition) == {"type", "name", "description", "parameters", "strict"}
        assert definition["strict"] is strict
        jsonschema.Draft202012Validator.check_schema(definition["parameters"])


@pytest.mark.parametrize("strict", [False, True])
def test_chat_completions_tools_fit_the_sdk_type(strict: bool) -> None:
    from openai.types.chat import ChatCompletionFunctionToolParam

    for definition in tools.openai_tools(tools.ALL_TOOLS, strict=strict):
        TypeAdapter(ChatCompletionFunctionToolParam).validate_python(definition)
        assert definition["function"].get("strict", False) is strict


def test_anthropic_tools_fit_the_sdk_type() -> None:
    from anthropic.types import ToolParam

    for strict in (False, True):
        for definition in tools.anthropic_tools(tools.ALL_TOOLS, strict=strict):
            TypeAdapter(ToolParam).validate_python(definition)
    assert tools.tool_definitions("anthropic", ("read",))[0]["name"] == "read"
    assert tools.tool_definitions("openai_responses", ("read",))[0]["name"] == "read"


def test_the_strict_variant_requires_everything_and_allows_nothing_else() -> None:
    for tool in tools.ALL_TOOLS:
        plain = tools.tool_parameters(tool)
        strict = tools.tool_parameters(tool, strict=True)
        for schema in _objects(strict):
            assert schema["additionalProperties"] is False
            assert schema["required"] == list(schema["properties"])
            for prop in schema["properties"].values():
                assert "default" not in prop and "minimum" not in prop
        optional = set(plain["properties"]) - set(plain.get("required", []))
        for name in optional:
            assert "null" in strict["properties"][name]["type"], (tool, name)
        for name in plain.get("required", []):
            assert "null" not in strict["properties"][name]["type"], (tool, name)


def test_what_a_strict_model_sends_is_what_the_handler_takes(
    engine: EditEngine,
) -> None:
    (engine.root / "a.py").write_text("x = 1\ny = 1\n")
    arguments = {
        "file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2",
        "replace_all": None, "instruction": None, "overwrite": None,
    }  # fmt: skip
    jsonschema.validate(arguments, tools.tool_parameters("edit", strict=True))
    answer = engine.handle_tool_call("edit", arguments)
    assert not answer.is_error, answer
    multi = {
        "file_path": "a.py",
        "edits": [{"old_string": "y = 1", "new_string": "y = 2", "replace_all": None}],
        "instruction": None,
    }
    jsonschema.validate(multi, tools.tool_parameters("multiedit", strict=True))
    assert not engine.handle_tool_call("multiedit", multi).is_error
    assert (engine.root / "a.py").read_text() == "x = 2\ny = 2\n"
    read = {"file_path": "a.py", "offset": None, "limit": None}
    jsonschema.validate(read, tools.tool_parameters("read", strict=True))
    assert engine.handle_tool_call("read", read) == "     1\tx = 2\n     2\ty = 2"


def test_the_read_tool_pages_and_records_the_read(engine: EditEngine) -> None:
    (engine.root / "big.txt").write_text("".join(f"{n}\n" for n in range(1, 11)))
    answer = engine.handle_tool_call("read", {"file_path": "big.txt", "offset": 3, "limit": 2})
    assert (
        answer
        == "     3\t3\n     4\t4\n\n(Showing lines 3-4 of 10. Call read with offset=5 to continue.)"
    )
    assert not answer.is_error
    missing = engine.handle_tool_call("read", {"file_path": "nope.txt"})
    assert missing.is_error and missing.code == "file_not_found"
    bad = engine.handle_tool_call("read", {"file_path": "big.txt", "limit": 0})
    assert bad.text == "Error [bad_request]: limit must be a positive integer, got 0."


def test_tool_results_carry_is_error_and_stay_strings(engine: EditEngine) -> None:
    (engine.root / "a.py").write_text("x = 1\n")
    ok = engine.handle_tool_call(
        "edit", {"file_path": "a.py", "old_string": "x", "new_string": "z"}
    )
    refused = engine.handle_tool_call(
        "edit", {"file_path": "a.py", "old_string": "nope", "new_string": "z"}
    )
    assert isinstance(ok, str) and ok.startswith("Replaced 1 occurrence")
    assert (ok.is_error, ok.code) == (False, None)
    assert (refused.is_error, refused.code) == (True, "no_match")
    assert refused.to_anthropic("toolu_1") == {
        "type": "tool_result", "tool_use_id": "toolu_1", "content": refused.text, "is_error": True,
    }  # fmt: skip
    assert ok.to_openai("call_1") == {
        "type": "function_call_output", "call_id": "call_1", "output": ok.text,
    }  # fmt: skip
    import pickle

    again = pickle.loads(pickle.dumps(refused))
    assert (again, again.is_error, again.code) == (refused, True, "no_match")
    assert "ToolResult(" in repr(refused)


def test_the_front_door_names_are_pinned() -> None:
    assert {
        "ALL_TOOLS", "READ_TOOL", "TEXT_EDITOR_NAMES", "TEXT_EDITOR_TYPES", "ApplyPatchCalls",
        "TextEditor", "ToolResult", "anthropic_text_editor", "openai_apply_patch",
        "openai_responses_tools", "tool_parameters", "read_answer", "is_text_editor_tool",
        # the names that were there before, unchanged
        "EDIT_TOOL", "MULTIEDIT_TOOL", "APPLY_PATCH_TOOL", "ToolCalls", "anthropic_tools",
        "format_error", "format_patch_error", "format_patch_result", "format_result",
        "load_arguments", "openai_tools", "parse_patch_call", "parse_tool_call",
        "run_patch_tool", "tool_definitions", "tool_description",
    } <= set(tools.__all__)  # fmt: skip
    assert tools.ALL_TOOLS == ("read", "edit", "multiedit", "apply_patch")


def test_the_docstring_examples_run() -> None:
    import doctest

    from editengine.tools import _request

    # The tool answers' examples run with editengine.tools: their classes are published there.
    for module in (tools, _request):
        failures, tried = doctest.testmod(module)
        assert tried >= 1 and failures == 0, module.__name__
