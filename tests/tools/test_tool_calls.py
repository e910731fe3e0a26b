"""Tool schemas (OpenAI and Anthropic formats) and handle_tool_call, as a model would use them."""

from __future__ import annotations

import json

import jsonschema
import pytest

from editengine import tools

AB = {"file_path": "m.py", "old_string": "a", "new_string": "b"}
SOURCE = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def schemas():
    for tool in tools.openai_tools():
        yield tool["function"]["name"], tool["function"]["parameters"]
    for tool in tools.anthropic_tools():
        yield tool["name"], tool["input_schema"]


def test_openai_format():
    definitions = tools.openai_tools()
    assert [d["type"] for d in definitions] == ["function", "function"]
    assert [d["function"]["name"] for d in definitions] == ["edit", "multiedit"]
    for definition in definitions:
        assert set(definition["function"]) == {"name", "description", "parameters"}
    assert tools.tool_definitions("openai") == definitions


def test_anthropic_format():
    definitions = tools.anthropic_tools()
    assert [d["name"] for d in definitions] == ["edit", "multiedit"]
    for definition in definitions:
        assert set(definition) == {"name", "description", "input_schema"}
    assert tools.tool_definitions("anthropic") == definitions


@pytest.mark.parametrize(("name", "schema"), list(schemas()))
def test_schemas_are_valid_json_schema(name, schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert "file_path" in schema["required"]


def test_sample_arguments_validate_and_bad_ones_do_not():
    edit, multiedit = tools.EDIT_PARAMETERS, tools.MULTIEDIT_PARAMETERS
    jsonschema.validate(
        {
            "file_path": "a.py",
            "old_string": "x",
            "new_string": "y",
            "replace_all": True,
            "instruction": "rename x to y",
        },
        edit,
    )
    jsonschema.validate(
        {"file_path": "a.py", "edits": [{"old_string": "x", "new_string": "y"}]}, multiedit
    )
    for bad, schema in [
        ({"file_path": "a.py", "old_string": "x"}, edit),
        ({"file_path": "a.py", "old_string": "x", "new_string": 3}, edit),
        ({"file_path": "a.py", "edits": []}, multiedit),
        ({"file_path": "a.py", "edits": [{"old_string": "x"}]}, multiedit),
    ]:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_descriptions_teach_the_rules():
    edit = tools.tool_description("edit")
    multi = tools.tool_description("multiedit")
    assert "replace_all" in edit and "renam" in edit
    assert "exactly one place" in edit and "indentation" in edit
    assert "instruction" in edit
    assert "All or nothing" in multi and "in order" in multi
    assert tools.openai_tools()[0]["function"]["description"] == edit


def test_schemas_are_copies():
    tools.openai_tools()[0]["function"]["parameters"]["required"].append("oops")
    assert "oops" not in tools.EDIT_PARAMETERS["required"]


@pytest.mark.parametrize(
    "arguments",
    [
        {"file_path": "m.py", "old_string": "return a + b", "new_string": "return b + a"},
        {"filePath": "m.py", "oldString": "return a + b", "newString": "return b + a"},
        json.dumps({"filePath": "m.py", "oldString": "return a + b", "newString": "return b + a"}),
        {
            "path": "m.py",
            "old_str": "return a + b",
            "new_str": "return b + a",
            "replaceAll": False,
        },
    ],
)
def test_handle_edit_in_both_naming_styles(engine, write, arguments):
    path = write("m.py", SOURCE)
    text = engine.handle_tool_call("edit", arguments)
    assert text.startswith("Replaced 1 occurrence in m.py (exact match).")
    assert "-    return a + b\n+    return b + a" in text
    assert "return b + a" in path.read_text()


def test_handle_replace_all_camel_case(engine, write):
    path = write("m.py", SOURCE)
    text = engine.handle_tool_call(
        "edit",
        {"filePath": "m.py", "oldString": "(a, b)", "newString": "(x, y)", "replaceAll": True},
    )
    assert "Replaced 2 occurrences" in text
    assert path.read_text().count("(x, y)") == 2


def test_handle_expected_replacements_camel_case(engine, write):
    write("m.py", SOURCE)
    text = engine.handle_tool_call(
        "edit",
        {
            "filePath": "m.py",
            "oldString": "(a, b)",
            "newString": "(x, y)",
            "expectedReplacements": 2,
        },
    )
    assert "Replaced 2 occurrences" in text


def test_handle_multiedit(engine, write):
    path = write("m.py", SOURCE)
    text = engine.handle_tool_call(
        "multiedit",
        {
            "filePath": "m.py",
            "edits": [
                {"oldString": "def add", "newString": "def plus"},
                {"old_string": "def sub", "new_string": "def minus"},
            ],
        },
    )
    assert text.startswith("Applied 2 edits (2 replacements) to m.py")
    assert "def plus" in path.read_text() and "def minus" in path.read_text()


def test_multiedit_failure_names_the_edit(engine, write):
    path = write("m.py", SOURCE)
    text = engine.handle_tool_call(
        "multiedit",
        {
            "file_path": "m.py",
            "edits": [
                {"old_string": "def add", "new_string": "def plus"},
                {"old_string": "def nope", "new_string": "x"},
            ],
        },
    )
    assert text.startswith("Error [multi_edit_failed/no_match]: Edit 2 of 2 failed")
    assert path.read_text() == SOURCE


def test_multiedit_edits_sent_as_a_json_string(engine, write):
    path = write("m.py", SOURCE)
    edits = json.dumps([{"old_string": "def add", "new_string": "def plus"}])
    engine.handle_tool_call("multiedit", {"file_path": "m.py", "edits": edits})
    assert "def plus" in path.read_text()


def test_ambiguous_error_lists_the_candidates(engine, write):
    write("m.py", SOURCE)
    text = engine.handle_tool_call(
        "edit", {"file_path": "m.py", "old_string": "(a, b)", "new_string": "()"}
    )
    assert text.startswith("Error [ambiguous]:")
    assert "line 1" in text and "line 5" in text
    assert "replace_all" in text


def test_file_not_found_error_suggests(engine, write):
    write("pkg/m.py", SOURCE)
    text = engine.handle_tool_call(
        "edit", {"file_path": "m.py", "old_string": "a", "new_string": "b"}
    )
    assert text.startswith("Error [file_not_found]:") and "pkg/m.py" in text


@pytest.mark.parametrize(
    ("name", "arguments", "fragment"),
    [
        ("edit", "{not json", "not valid JSON"),
        ("edit", "", "empty"),
        ("edit", "[1, 2]", "must be a JSON object"),
        ("edit", 42, "must be a JSON object"),
        ("edit", {"old_string": "a", "new_string": "b"}, "file_path is required"),
        ("edit", {"file_path": "m.py", "new_string": "b"}, "old_string is required"),
        (
            "edit",
            {"file_path": "m.py", "old_string": None, "new_string": "b"},
            "old_string is required",
        ),
        ("edit", {"file_path": "m.py", "old_string": 3, "new_string": "b"}, "must be a string"),
        ("edit", {**AB, "replace_all": "maybe"}, "replace_all must be true or false"),
        ("edit", {**AB, "expected_replacements": -1}, "positive integer"),
        ("edit", {**AB, "filePath": "other.py"}, "different values"),
        ("edit", {"file_path": ["m.py"], "old_string": "a", "new_string": "b"}, "file_path"),
        ("multiedit", {"file_path": "m.py"}, "edits is required"),
        ("multiedit", {"file_path": "m.py", "edits": []}, "edits is required"),
        ("multiedit", {"file_path": "m.py", "edits": ["x"]}, "edit 1 must be an object"),
        ("multiedit", {"file_path": "m.py", "edits": [{"old_string": "a"}]}, "edit 1: new_string"),
        ("multiedit", {"file_path": "m.py", "edits": "[oops"}, "not valid JSON"),
        ("delete_file", {"file_path": "m.py"}, "Unknown tool"),
        (None, {}, "Unknown tool"),
    ],
)
def test_malformed_calls_return_bad_request_text(engine, write, name, arguments, fragment):
    path = write("m.py", SOURCE)
    text = engine.handle_tool_call(name, arguments)
    assert text.startswith("Error [bad_request]:"), text
    assert fragment in text
    assert path.read_text() == SOURCE


def test_tool_call_errors_from_the_guard(engine):
    text = engine.handle_tool_call(
        "edit", {"file_path": "/etc/passwd", "old_string": "a", "new_string": "b"}
    )
    assert text.startswith("Error [path_outside_workspace]:")


async def test_ahandle_tool_call(engine, write):
    path = write("m.py", SOURCE)
    text = await engine.ahandle_tool_call(
        "edit", {"filePath": "m.py", "oldString": "def add", "newString": "def plus"}
    )
    assert text.startswith("Replaced 1 occurrence")
    assert "def plus" in path.read_text()
    text = await engine.ahandle_tool_call("multiedit", "{}")
    assert text.startswith("Error [bad_request]:")


def test_closest_regions_are_listed_when_the_error_has_them():
    from editengine._errors import NoMatch, Region

    error = NoMatch("old_string was not found.", closest=(Region(3, 5, 0.87),))
    assert "Closest text in the file: lines 3-5 (87% similar)." in tools.format_error(error)


def test_unexpected_failure_is_an_answer_not_a_crash(engine, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(engine, "edit", broken)
    text = engine.handle_tool_call("edit", {"file_path": "a", "old_string": "a", "new_string": "b"})
    assert text.startswith("Error [internal_error]:") and "disk on fire" in text
